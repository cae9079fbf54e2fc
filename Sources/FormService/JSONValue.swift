import FormModel

/// A JSON value as an OData service writes it. Numbers stay as their text, because an
/// `Edm.Decimal` or `Edm.Int64` read through `Double` would come back rounded; object members are
/// written in key order so that a request body is the same bytes every time.
package enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// A number as written in the JSON text (`12.50`, `-3`, `1e3`).
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The members of an object, or nil.
    package var object: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The elements of an array, or nil.
    package var array: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The text of a string, or nil.
    package var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// A member of an object, or nil.
    package subscript(key: String) -> JSONValue? { object?[key] }

    /// The value as JSON text, object members in key order.
    package var text: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .number(let digits): out += digits
        case .string(let text): JSONText.quote(text, into: &out)
        case .array(let elements):
            out += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { out += "," }
                element.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { out += "," }
                JSONText.quote(key, into: &out)
                out += ":"
                members[key]!.write(to: &out)
            }
            out += "}"
        }
    }
}
