import FormModel
import FormXML
import Foundation

/// Turns libxml2's XSD validation messages into sentences that name the element and say what to do.
///
/// libxml2 writes "Element '{urn:fieldwork:form:1}text', attribute 'colour': The attribute
/// 'colour' is not allowed." The common shapes are rewritten; anything else keeps libxml2's text
/// with the namespace noise removed, so no error is ever lost.
enum SchemaMessage {
    /// Field elements of the native spec, for "use one of" hints.
    static let sections = ["key", "properties", "accessory", "lists"]
    static let vocabulary: Set<String> = Set(
        ["form", "group", "option", "list"] + sections + FieldKind.allCases.map(\.rawValue))

    /// The rewritten errors, in document order, with libxml2's duplicate follow-ups dropped.
    /// libxml2 gives the line of the element; the column, and the line of an attribute written on
    /// a later line of its tag, are read from the document's text.
    static func importErrors(
        _ diagnostics: [XMLDiagnostic], in document: SafeXMLDocument? = nil, file: String?
    ) -> [ImportError] {
        var errors: [ImportError] = []
        var facetFailures = Set<String>()
        // A mistyped attribute is often repeated on every field: guessed once.
        var guesses: [String: String?] = [:]
        for diagnostic in diagnostics {
            let parsed = Parsed(diagnostic.message)
            let key = "\(diagnostic.line)|\(parsed.element ?? "")|\(parsed.attribute ?? "")"
            if parsed.body.hasPrefix("[facet ") {
                facetFailures.insert(key)
            } else if parsed.body.contains("is not a valid value of the"), facetFailures.contains(key) {
                // libxml2 follows a facet failure with "'x' is not a valid value of the local
                // atomic type"; the facet message already said it better.
                continue
            }
            let (code, message) = rewrite(parsed, diagnostic, guesses: &guesses)
            var position = (line: diagnostic.line, column: diagnostic.column)
            if position.column == 0, let element = parsed.element,
                let found = document?.locate(line: position.line, element: element, attribute: parsed.attribute)
            {
                position = found
            }
            errors.append(ImportError(code: code, message: message, file: file, at: position))
        }
        return errors
    }

    /// libxml2's message split into element, attribute and the rest.
    struct Parsed {
        var element: String?
        /// The element's namespace when libxml2 wrote one (`{urn:...}text`).
        var elementNamespace: String?
        var attribute: String?
        var body: String

        init(_ message: String) {
            var rest = Substring(message)
            if rest.hasPrefix("Element '"), let end = rest.dropFirst(9).firstIndex(of: "'") {
                let qualified = String(rest[rest.index(rest.startIndex, offsetBy: 9)..<end])
                element = SchemaMessage.localName(qualified)
                if qualified.hasPrefix("{"), let close = qualified.firstIndex(of: "}") {
                    elementNamespace = String(qualified[qualified.index(after: qualified.startIndex)..<close])
                }
                rest = rest[rest.index(after: end)...]
                if rest.hasPrefix(", attribute '"), let attrEnd = rest.dropFirst(13).firstIndex(of: "'") {
                    attribute = String(rest[rest.index(rest.startIndex, offsetBy: 13)..<attrEnd])
                    rest = rest[rest.index(after: attrEnd)...]
                }
                if rest.hasPrefix(": ") { rest = rest.dropFirst(2) }
            }
            body = String(rest).trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    /// Every attribute name of the native spec, for "did you mean" hints.
    static let attributeNames = [
        "accept", "default", "editable", "format", "hint", "id", "label", "list", "max", "max-count", "max-length",
        "max-selected", "max-size", "min", "min-count", "min-length", "min-selected", "multiple", "name", "object",
        "pattern", "placeholder", "prefill", "prefix", "regular", "required", "rows", "scale", "searchable", "step",
        "submit", "suffix", "title", "type", "value",
    ]

    /// The spec's attribute an unknown one was probably meant to be: the same but for case,
    /// hyphens and underscores (`maxLength`, `max_length`), or a typo of at most two letters
    /// (`requried`, `scalee`) in a name of five letters or more.
    static func nearestAttribute(to name: String) -> String? {
        func folded(_ text: String) -> [UInt8] { Array(text.lowercased().utf8.filter { $0 != 0x2D && $0 != 0x5F }) }
        let wanted = folded(name)
        if let same = attributeNames.first(where: { folded($0) == wanted }) { return same }
        guard wanted.count >= 5 else { return nil }
        let scored = attributeNames.map { ($0, editDistance(wanted, folded($0))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 2 else { return nil }
        return best.0
    }

    /// Levenshtein distance: insertions, deletions and substitutions.
    static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(Swift.min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// `{urn:...}text` -> `text`.
    static func localName(_ qualified: String) -> String {
        if qualified.hasPrefix("{"), let close = qualified.firstIndex(of: "}") {
            return String(qualified[qualified.index(after: close)...])
        }
        return qualified
    }

    /// The text between the first two single quotes after `marker`, e.g. the value of `The value 'x'`.
    static func quoted(after marker: String, in text: String) -> String? {
        guard let range = text.range(of: marker) else { return nil }
        return firstQuoted(in: text[range.upperBound...])
    }

    /// The text between the first two single quotes.
    static func firstQuoted(in rest: Substring) -> String? {
        guard let open = rest.firstIndex(of: "'") else { return nil }
        let afterOpen = rest[rest.index(after: open)...]
        guard let close = afterOpen.firstIndex(of: "'") else { return nil }
        return String(afterOpen[..<close])
    }

    /// The element names in "Expected is ( {ns}a, {ns}b )".
    static func expectedElements(in body: String) -> [String] {
        guard let open = body.range(of: "( "), let close = body.range(of: " )", range: open.upperBound..<body.endIndex)
        else {
            return []
        }
        return body[open.upperBound..<close.lowerBound].split(separator: ",").map {
            localName($0.trimmingCharacters(in: .whitespaces))
        }
    }

    private static func rewrite(
        _ parsed: Parsed, _ diagnostic: XMLDiagnostic, guesses: inout [String: String?]
    ) -> (ImportCode, String) {
        let element = parsed.element ?? diagnostic.element ?? "?"
        let tag = "<\(element)>"
        let body = parsed.body

        if let attribute = parsed.attribute {
            if body.hasSuffix("is not allowed.") {
                let listed = "remove it or use an attribute the form spec lists for \(tag)."
                if attributeNames.contains(attribute) {
                    return (.unknownAttribute, "The attribute \(attribute) does not apply to \(tag); \(listed)")
                }
                if guesses[attribute] == nil { guesses[attribute] = nearestAttribute(to: attribute) }
                if let guess = guesses[attribute] ?? nil {
                    return (
                        .unknownAttribute,
                        "Unknown attribute \(attribute) on \(tag); did you mean \(guess)? Otherwise remove it."
                    )
                }
                return (.unknownAttribute, "Unknown attribute \(attribute) on \(tag); \(listed)")
            }
            let value = quoted(after: "The value", in: body) ?? firstQuoted(in: Substring(body)) ?? ""
            if body.hasPrefix("[facet 'enumeration']") {
                let choices = body.range(of: "{").flatMap { open in
                    body[open.upperBound...].firstIndex(of: "}").map { String(body[open.upperBound..<$0]) }
                }
                let list = (choices ?? "").split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "'", with: "")
                }
                return (
                    .badValue,
                    "\(attribute) on \(tag) must be \(Words.list(list, conjunction: "or")), not \"\(value)\"."
                )
            }
            if body.hasPrefix("[facet 'pattern']") {
                switch attribute {
                case "id" where element == "form":
                    return (
                        .badID,
                        "The form id \"\(value)\" must be lowercase letters, digits and hyphens, starting with a letter or digit."
                    )
                case "name":
                    return (
                        .badName,
                        "The field name \"\(value)\" on \(tag) must start with a letter or _ and hold only letters, digits and _."
                    )
                default:
                    return (.badValue, "\(attribute) on \(tag) has the wrong form: \"\(value)\".")
                }
            }
            if body.contains("is not a valid value of the atomic type 'xs:nonNegativeInteger'") {
                return (.badInteger, "\(attribute) on \(tag) must be a whole number of 0 or more, not \"\(value)\".")
            }
            if body.contains("is not a valid value of the atomic type 'xs:positiveInteger'") {
                return (.badInteger, "\(attribute) on \(tag) must be a whole number of 1 or more, not \"\(value)\".")
            }
            return (.invalidAttribute, "\(attribute) on \(tag): \(SchemaMessage.cleaned(body))")
        }

        if let missing = quoted(after: "The attribute", in: body), body.hasSuffix("is required but missing.") {
            return (.missingAttribute, "\(tag) needs the attribute \(missing); add \(missing)=\"...\".")
        }
        if body.hasPrefix("This element is not expected.") {
            let parent = diagnostic.parentElement.map { "<\($0)>" } ?? "its parent"
            if parsed.element != nil, parsed.elementNamespace != NativeSpecImporter.namespace {
                let found = parsed.elementNamespace.map { "namespace \($0)" } ?? "no namespace"
                return (
                    .unknownElement,
                    "Unknown element \(tag) in \(found); form spec elements are in \(NativeSpecImporter.namespace), check its xmlns."
                )
            }
            if !vocabulary.contains(element) {
                return (.unknownElement, "Unknown element \(tag); remove it or use an element the form spec defines.")
            }
            if sections.contains(element) && diagnostic.parentElement == "form" {
                return (
                    .sectionOrder,
                    "The \(tag) section is out of place: sections go key, properties, accessory, lists, each at most once."
                )
            }
            if element == "group", let parent = diagnostic.parentElement, parent == "buttons" || parent == "chips" {
                return (
                    .groupNotAllowed, "Option groups are for value lists only; remove the <group> from <\(parent)>."
                )
            }
            if element == "switch", diagnostic.parentElement == "switch" {
                return (.nestedSwitch, "A switch cannot hold another switch; move the inner <switch> out.")
            }
            if element == "group", let parent = diagnostic.parentElement, parent == "key" || parent == "accessory" {
                return (
                    .misplacedElement,
                    "Groups of fields are for <properties> only; move the <group> there, or put its fields straight in <\(parent)>."
                )
            }
            let expected = expectedElements(in: body)
            let hint =
                expected.isEmpty || expected.count > 3
                ? "" : "; expected \(Words.list(expected.map { "<\($0)>" }, conjunction: "or"))"
            return (.misplacedElement, "\(tag) is not allowed inside \(parent)\(hint).")
        }
        if body.hasPrefix("Missing child element(s).") {
            let expected = expectedElements(in: body).map { "<\($0)>" }
            return (.missingElement, "\(tag) is incomplete; add \(Words.list(expected, conjunction: "or")) inside it.")
        }
        if body.hasPrefix("Character content other than whitespace is not allowed")
            || body.hasPrefix("Character content is not allowed")
        {
            return (.unexpectedText, "\(tag) cannot hold text; move the text into an attribute such as label.")
        }
        if body.hasPrefix("Element content is not allowed") {
            return (.unexpectedElement, "\(tag) cannot hold other elements; remove its content.")
        }
        if body.hasPrefix("No matching global declaration available for the validation root") {
            return (.wrongRoot, "The root element must be <form xmlns=\"\(NativeSpecImporter.namespace)\">.")
        }
        return (.schema, "\(tag): \(cleaned(body))")
    }

    /// libxml2's text without `{namespace}` prefixes.
    static func cleaned(_ text: String) -> String {
        text.replacingOccurrences(of: "{\(NativeSpecImporter.namespace)}", with: "")
    }
}
