internal import CLibXML2

/// The result of an XPath evaluation: one of XPath 1.0's four types, with its conversions.
public enum XPathValue {
    case boolean(Bool)
    case number(Double)
    case string(String)
    /// In document order. Namespace nodes (the `namespace::` axis) are left out.
    case nodes([XPathNode])

    /// XPath's `string()`: the string value of the first node, "" for no node; numbers as XPath
    /// writes them (`1`, not `1.0`; `NaN`, `Infinity`, `-Infinity`); `true`/`false`.
    public var stringValue: String {
        switch self {
        case .boolean(let value): value ? "true" : "false"
        case .number(let value): Self.string(value)
        case .string(let value): value
        case .nodes(let nodes): nodes.first?.text ?? ""
        }
    }

    /// XPath's `number()` (without ODK's date extension): a string that is not an XPath number is NaN.
    public var numberValue: Double {
        switch self {
        case .boolean(let value): value ? 1 : 0
        case .number(let value): value
        case .string(let value): Self.number(value)
        case .nodes(let nodes): nodes.first.map { Self.number($0.text) } ?? .nan
        }
    }

    /// XPath's `boolean()`: a non-empty string, a number other than 0 and NaN, a non-empty
    /// node-set. So the string "false" is true (`boolean-from-string` is the one that reads it).
    public var booleanValue: Bool {
        switch self {
        case .boolean(let value): value
        case .number(let value): value != 0 && !value.isNaN
        case .string(let value): !value.isEmpty
        case .nodes(let nodes): !nodes.isEmpty
        }
    }

    /// A number as XPath 1.0 writes it (libxml2's own conversion).
    static func string(_ number: Double) -> String {
        LibXML2.owned(xmlXPathCastNumberToString(number)) ?? ""
    }

    /// A string read as an XPath 1.0 number (libxml2's own conversion).
    static func number(_ string: String) -> Double {
        LibXML2.withXMLChars(string) { xmlXPathCastStringToNumber($0) }
    }
}
