/// Why an evaluation gave no value. Never printed by libxml2: taken from the context's
/// structured error callback, or, when libxml2 reports nothing, worked out from the expression.
public struct XPathEvaluationError: Error, Sendable, Hashable {
    /// What went wrong, e.g. "Unregistered function", "round() takes 1 or 2 arguments, not 3".
    public var message: String
    /// libxml2's XPath error code: 1207 a syntax error (an uncompiled expression), 1209 an
    /// unknown function, 1211 an argument of the wrong type or value, 1212 a wrong number of
    /// arguments, 1219 an unbound namespace prefix, 1225 the operation limit exceeded (also
    /// a `regex()` that would take too long).
    public var code: Int

    public init(message: String, code: Int) {
        self.message = message
        self.code = code
    }

    public static let syntaxCode = 1207
    public static let unknownFunctionCode = 1209
    public static let invalidTypeCode = 1211
    public static let arityCode = 1212
    public static let unboundPrefixCode = 1219
    public static let operationLimitCode = 1225
}
