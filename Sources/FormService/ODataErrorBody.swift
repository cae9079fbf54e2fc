import FormModel
import FormXML
import Foundation
import NIOHTTP1

/// Reads a service's refusal into messages placed as Fieldwork places its own. Knows the shapes
/// services write: SAP Gateway's V2 JSON (`message.value`, `innererror.errordetails`), pyslet's
/// (a plain string `message`), V2 XML (`<error>` in the metadata namespace), V4 JSON
/// (`target`, `details`; OData JSON Format v4.01 §20); anything else (an HTML error page)
/// becomes one generic message with the status, because its text is not meant for people.
package enum ODataErrorBody {
    /// At most this many messages are kept, each cut to `maxMessageLength` characters: the page
    /// shows them all, and a hostile answer should not fill it.
    package static let maxMessages = 50
    package static let maxMessageLength = 1000

    /// The messages of a refusal, each target made a property name and, with a binding, mapped
    /// to its field; duplicates dropped; the top message kept only when it targets a field
    /// itself or no other message does (SAP repeats a detail's text as the top message, or
    /// writes a general one above the field messages).
    package static func messages(status: Int, body: [UInt8], binding: ServiceBinding? = nil) -> [ServiceMessage] {
        let read = readJSON(body) ?? readXML(body)
        guard let read, !read.isEmpty else { return [generic(status: status)] }
        var placed = read.map { message in
            var message = message
            if message.message.count > maxMessageLength {
                message.message = String(message.message.prefix(maxMessageLength)) + "…"
            }
            message.field = message.target.flatMap { binding?.field(forProperty: $0) }
            return message
        }
        let top = placed.removeFirst()
        var kept: [ServiceMessage] = []
        var seen = Set<[String?]>()
        for message in placed where seen.insert(dedupKey(message)).inserted {
            kept.append(message)
        }
        let detailTargetsField = kept.contains { $0.field != nil }
        let repeated = kept.contains { $0.message == top.message }
        if top.field != nil || (!detailTargetsField && !repeated) {
            if seen.insert(dedupKey(top)).inserted { kept.insert(top, at: 0) }
        }
        return Array(kept.prefix(maxMessages))
    }

    /// What makes two messages one: their words and field; for one under no field, its target too
    /// (two items' messages may say the same thing).
    private static func dedupKey(_ message: ServiceMessage) -> [String?] {
        [message.message, message.field, message.field == nil ? message.path : nil]
    }

    /// The message for an answer that carries none people can read.
    package static func generic(status: Int) -> ServiceMessage {
        let reason = HTTPResponseStatus(statusCode: status).reasonPhrase
        return ServiceMessage(message: "The service answered with status \(status) \(reason).", code: String(status))
    }

    /// A message target as a property name of the entity: `Price`, V4 `in/Price` (an action's
    /// binding parameter), `$Parameter/in/Price`, `_it/Price`, SAP V2 `/TravelSet(…)/Price`.
    /// A path into another entity or a collection gives nil: it names no field of this form.
    package static func property(fromTarget target: String) -> String? {
        var segments = splitOutsideQuotes(target.trimmingSpaces)
        // An absolute path (SAP V2) starts with the entity and its key; a relative one with a
        // keyed segment goes into another entity.
        if segments.count > 2, segments[0].isEmpty, segments[1].hasSuffix(")") {
            segments.removeFirst(2)
        }
        while let first = segments.first, first.isEmpty || first == "$Parameter" || first == "in" || first == "_it" {
            segments.removeFirst()
        }
        guard segments.count == 1, let name = segments.first,
            name.first.map({ $0.isLetter || $0 == "_" }) == true,
            name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
        else { return nil }
        return name
    }

    /// A target that names an item's property: the steps from the entity to the item, each a
    /// navigation property and the item's key predicate as written (`_Booking`,
    /// `(BookingUUID=…,IsActiveEntity=false)`), and the property (`FlightDate`). Read from
    /// `in/_Booking(…)/FlightDate`, `_Booking(…)/_BookSupplement(…)/Price`,
    /// `to_Item(SalesOrder='1',ItemPosition='10')/Quantity` and SAP V2's absolute
    /// `/SalesOrderSet('1')/to_Item(…)/Quantity`; nil for a target that names no item.
    package static func itemSteps(
        fromTarget target: String
    ) -> (steps: [(navigation: String, predicate: String)], property: String)? {
        var segments = splitOutsideQuotes(target.trimmingSpaces)
        if segments.count > 2, segments[0].isEmpty, segments[1].hasSuffix(")") { segments.removeFirst(2) }
        while let first = segments.first, first.isEmpty || first == "$Parameter" || first == "in" || first == "_it" {
            segments.removeFirst()
        }
        guard segments.count >= 2, let property = segments.last,
            property.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
        else { return nil }
        var steps: [(navigation: String, predicate: String)] = []
        for segment in segments.dropLast() {
            guard segment.hasSuffix(")"), let open = segment.firstIndex(of: "("), open > segment.startIndex else {
                return nil
            }
            steps.append((String(segment[..<open]), String(segment[open...])))
        }
        return (steps, property)
    }

    // MARK: JSON

    private static func readJSON(_ body: [UInt8]) -> [ServiceMessage]? {
        guard let json = try? JSONReader.parse(body), let error = json["error"]?.object else { return nil }
        var out: [ServiceMessage] = []
        if let top = message(error) { out.append(top) } else { return nil }
        for detail in error["details"]?.array ?? [] {
            if let object = detail.object, let read = message(object) { out.append(read) }
        }
        for detail in error["innererror"]?["errordetails"]?.array ?? [] {
            if let object = detail.object, let read = message(object) { out.append(read) }
        }
        return out
    }

    private static func message(_ object: [String: JSONValue]) -> ServiceMessage? {
        let text: String?
        switch object["message"] {
        case .string(let plain)?: text = plain
        case .object(let localized)?: text = localized["value"]?.string
        default: text = nil
        }
        guard let text, !text.isEmpty else { return nil }
        let code: String? =
            switch object["code"] {
            case .string(let code)?: code.isEmpty ? nil : code
            case .number(let digits)?: digits
            default: nil
            }
        let numeric = object["@Common.numericSeverity"] ?? object["@com.sap.vocabularies.Common.v1.numericSeverity"]
        let severity: ServiceMessage.Severity
        if case .number(let digits)? = numeric {
            severity = severityOf(number: digits)
        } else {
            severity = severityOf(word: object["severity"]?.string)
        }
        let target = object["target"]?.string
        return ServiceMessage(
            message: text, code: code, target: target.flatMap(property(fromTarget:)), severity: severity,
            path: target)
    }

    // MARK: XML

    private static let errorNamespaces: Set<String> = [
        "http://schemas.microsoft.com/ado/2007/08/dataservices/metadata",
        "http://docs.oasis-open.org/odata/ns/metadata",
    ]

    private static func readXML(_ body: [UInt8]) -> [ServiceMessage]? {
        guard body.first(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }) == UInt8(ascii: "<"),
            let document = try? SafeXMLDocument.parse(body), let root = document.root, root.localName == "error",
            root.namespaceURI.map(errorNamespaces.contains) ?? false
        else { return nil }
        func child(_ element: SafeXMLElement, _ name: String) -> SafeXMLElement? {
            element.children.first { $0.localName == name }
        }
        func read(_ element: SafeXMLElement) -> ServiceMessage? {
            guard let text = child(element, "message")?.textContent.trimmingSpaces, !text.isEmpty else { return nil }
            let code = child(element, "code")?.textContent.trimmingSpaces
            let target = (child(element, "target") ?? child(element, "propertyref"))?.textContent
            return ServiceMessage(
                message: text, code: code?.isEmpty == false ? code : nil, target: target.flatMap(property(fromTarget:)),
                severity: severityOf(word: child(element, "severity")?.textContent.trimmingSpaces), path: target)
        }
        guard let top = read(root) else { return nil }
        var out = [top]
        let details = child(root, "innererror").flatMap { child($0, "errordetails") }?.children ?? []
        out += details.compactMap(read)
        return out
    }

    // MARK: Pieces

    private static func severityOf(word: String?) -> ServiceMessage.Severity {
        switch word?.lowercased() {
        case "warning": .warning
        case "info", "information": .info
        case "success": .success
        default: .error
        }
    }

    private static func severityOf(number: String) -> ServiceMessage.Severity {
        switch number {
        case "1": .success
        case "2": .info
        case "3": .warning
        default: .error
        }
    }

    /// The values of a key predicate as a service writes it in a target, by property name:
    /// `(BookingUUID=1f…,IsActiveEntity=false)`, `(SalesOrder='1',ItemPosition='10')`, `('1')` and
    /// `(guid'…')` (a single value, under ""), percent-encoded or not; quotes and a V2 type
    /// prefix taken off, a doubled quote made one.
    package static func keyValues(_ predicate: String) -> [String: String] {
        let text = predicate.removingPercentEncoding ?? predicate
        guard text.hasPrefix("("), text.hasSuffix(")"), text.count >= 2 else { return [:] }
        var values: [String: String] = [:]
        for part in splitOutsideQuotes(String(text.dropFirst().dropLast()), at: ",") {
            let written = part.trimmingSpaces
            var name = ""
            var literal = Substring(written)
            if let equals = written.firstIndex(of: "="), !written[..<equals].contains("'") {
                name = String(written[..<equals]).trimmingSpaces
                literal = Substring(String(written[written.index(after: equals)...]).trimmingSpaces)
            }
            if let open = literal.firstIndex(of: "'"), literal.count >= 2, literal.hasSuffix("'"),
                open < literal.index(before: literal.endIndex)
            {
                literal = literal[literal.index(after: open)..<literal.index(before: literal.endIndex)]
            }
            values[name] = literal.replacingOccurrences(of: "''", with: "'")
        }
        return values
    }

    /// Splits a target at `/` (or a key predicate's inside at `,`), but not inside a key's quoted
    /// string (`/Set('a/b')/Price`).
    private static func splitOutsideQuotes(_ text: String, at separator: Character = "/") -> [String] {
        var parts: [String] = []
        var current = ""
        var quoted = false
        for character in text {
            if character == "'" { quoted.toggle() }
            if character == separator && !quoted {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current)
        return parts
    }
}

extension String {
    /// Without leading and trailing spaces, tabs and line breaks (no Foundation needed).
    fileprivate var trimmingSpaces: String {
        let isSpace = { (c: Character) in c == " " || c == "\t" || c == "\n" || c == "\r" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[start...end])
    }
}
