import Foundation

/// A JSON value: one built in code (a JSON Schema, an OpenAPI document, a service's request
/// body) or read from a service's answer. A number stays as its text (`12.50`, `-3`, `1e3`),
/// because an `Edm.Decimal` or `Edm.Int64` read through `Double` would come back rounded; object
/// members are written in key order, so equal values give equal bytes.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// A number as written in the JSON text.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The members of an object, or nil.
    public var object: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The elements of an array, or nil.
    public var array: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The text of a string, or nil.
    public var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The member `key` of an object; nil for a missing member or a value that is no object.
    /// Setting a member of a value that is no object does nothing.
    public subscript(key: String) -> JSONValue? {
        get { object?[key] }
        set {
            guard case .object(var members) = self else { return }
            members[key] = newValue
            self = .object(members)
        }
    }

    /// The value as JSON text, object members in key order, `/` escaped (so `</script>` never
    /// appears in a body that is logged or echoed into a page).
    public var text: String { text(escapingSlashes: true) }

    /// The value as JSON text, object members in key order; with `escapingSlashes` false,
    /// slashes as they are (a document of paths and `$ref`s people read).
    public func text(escapingSlashes: Bool) -> String {
        var out = ""
        write(to: &out, slashes: escapingSlashes)
        return out
    }

    /// A document's bytes: sorted keys, slashes as they are.
    public func encoded() -> Data {
        Data(text(escapingSlashes: false).utf8)
    }

    private func write(to out: inout String, slashes: Bool) {
        switch self {
        case .null: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .number(let digits): out += digits
        case .string(let text): JSONText.quote(text, into: &out, slashes: slashes)
        case .array(let elements):
            out += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { out += "," }
                element.write(to: &out, slashes: slashes)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { out += "," }
                JSONText.quote(key, into: &out, slashes: slashes)
                out += ":"
                members[key]!.write(to: &out, slashes: slashes)
            }
            out += "}"
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(String(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    /// A whole number.
    public static func int(_ value: Int) -> JSONValue { .number(String(value)) }

    /// A decimal number, as plain digits (`0.01`, `-12.5`, `100`).
    public static func decimal(_ value: Decimal) -> JSONValue { .number(DecimalText.plain(value)) }

    /// An array of strings.
    public static func strings(_ values: [String]) -> JSONValue { .array(values.map(JSONValue.string)) }
}
