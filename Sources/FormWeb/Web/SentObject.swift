import FormModel
import FormService
import Foundation
import Hummingbird
import NIOCore

/// The JSON object of a create or an edit, `{"field": value}`, as the strings a browser would
/// send, or the answer that refuses it (not JSON, too large, not an object).
///
/// Only `application/json` is taken: a cross-site page cannot send that type without a CORS
/// preflight we never grant, which is what keeps cookie-authenticated calls safe from CSRF.
struct SentObject {
    /// What was sent, by field name.
    var input: [String: JSONInput]
    /// The strings of each field sent with a value.
    var fields: [String: [String]]
    /// Values of no form type (nested objects).
    var issues: [FieldIssue]

    struct Refusal: Error {
        let response: Response
    }

    static func read(_ request: Request) async throws -> SentObject {
        guard FormBody.isJSON(request) else {
            throw Refusal(
                response: try JSONResponse.make(
                    APIMessage("Send the object as application/json."), status: .unsupportedMediaType))
        }
        let body: ByteBuffer
        do {
            body = try await request.boundedBody(upTo: ObjectAPIController.limit)
        } catch is NIOTooManyBytesError {
            throw Refusal(
                response: try JSONResponse.make(
                    APIMessage("The object is larger than \(ObjectAPIController.limit / 1024 / 1024) MB."),
                    status: .contentTooLarge))
        }
        // Read with the connector's JSON reader: Foundation's decoder tried each value as a
        // boolean first and threw for every string, most of the request's reading.
        guard case .object(let members)? = try? JSONReader.parse(Array(buffer: body)) else {
            let issue = FieldIssue(
                field: "", code: .malformed, message: "Send a JSON object of field names and values.")
            throw Refusal(response: try JSONResponse.make(APIIssues([issue]), status: .badRequest))
        }
        let input = members.mapValues(JSONInput.init)
        var fields: [String: [String]] = [:]
        var issues: [FieldIssue] = []
        for (name, value) in input { read(value, as: name, into: &fields, issues: &issues) }
        return SentObject(input: input, fields: fields, issues: issues)
    }

    /// One value's strings under its input name; a list of objects is an item list's items,
    /// each value under its page name (`members[0].age`), as a browser sends them.
    private static func read(
        _ value: JSONInput, as name: String, into fields: inout [String: [String]], issues: inout [FieldIssue]
    ) {
        if let items = value.items {
            for (index, item) in items.enumerated() {
                for (member, value) in item {
                    read(value, as: "\(name)[\(index)].\(member)", into: &fields, issues: &issues)
                }
                // The item counts even when it sends no value, as a page's new item does.
                let id = "\(name)[\(index)].\(FormValidator.itemIDName)"
                if fields[id] == nil { fields[id] = [""] }
            }
            return
        }
        guard let strings = value.strings else {
            issues.append(
                FieldIssue(field: name, code: .type, message: "Give a string, number, boolean, list, or list of items"))
            return
        }
        if !strings.isEmpty { fields[name] = strings }
    }

    /// The defaults of the fields each item sent leaves out (`null` sends none), under their page
    /// names (`members[0].status`), `today` and `now` read from `clock`; lists within too.
    static func itemDefaults(
        _ input: [String: JSONInput], lists: [ItemList], clock: ClockReading, prefix: String = ""
    ) -> [String: [String]] {
        var defaults: [String: [String]] = [:]
        for list in lists {
            for (index, item) in (input[list.name]?.items ?? []).enumerated() {
                let path = "\(prefix)\(list.name)[\(index)]."
                for field in list.fields.flatMap({ [$0] + ($0.children ?? []) })
                where field.defaultValue != nil && item[field.name] == nil {
                    let values = field.initialValues(at: clock)
                    if !values.isEmpty { defaults[path + field.name] = values }
                }
                defaults.merge(itemDefaults(item, lists: list.lists, clock: clock, prefix: path)) { own, _ in own }
            }
        }
        return defaults
    }

    /// The inputs of `fields` that belong to a value sent under `name`: its own, or its items'.
    static func inputs(of name: String, in fields: [String: [String]]) -> [String: [String]] {
        fields.filter { $0.key == name || $0.key.hasPrefix(name + "[") }
    }
}

/// One value of a JSON create request: strings, numbers, booleans and lists of them become the
/// strings a browser would send; `null` means no value.
enum JSONInput {
    case string(String)
    case number(Decimal)
    case bool(Bool)
    case list([JSONInput])
    /// An object: an item of an item list, inside a list.
    case object([String: JSONInput])
    case null
    case other

    init(_ value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .string(let text): self = .string(text)
        case .number(let digits):
            // As the number it stands for: `1E2` and `100` are the same value.
            self = Decimal(string: digits, locale: Locale(identifier: "en_US_POSIX")).map(JSONInput.number) ?? .other
        case .array(let elements): self = .list(elements.map(JSONInput.init))
        case .object(let members): self = .object(members.mapValues(JSONInput.init))
        }
    }

    /// The items of an item list: a list whose every element is an object (an empty list is
    /// no items of a list, and no choices of a field: both read it as none).
    var items: [[String: JSONInput]]? {
        guard case .list(let elements) = self, !elements.isEmpty else { return nil }
        var items: [[String: JSONInput]] = []
        for element in elements {
            guard case .object(let members) = element else { return nil }
            items.append(members)
        }
        return items
    }

    /// The strings a browser would send, or nil for nested objects.
    var strings: [String]? {
        switch self {
        case .string(let text): return [text]
        case .number(let number): return [DecimalText.plain(number)]
        // A switch sends `on`; off sends nothing.
        case .bool(let on): return on ? ["on"] : []
        case .null: return []
        case .other, .object: return nil
        case .list(let items):
            var all: [String] = []
            for item in items {
                switch item {
                case .string, .number, .bool: all += item.strings ?? []
                case .null: continue
                // Lists of lists, and objects among other values, have no form equivalent.
                case .list, .object, .other: return nil
                }
            }
            return all
        }
    }
}
