/// Why an expression of an `XPathProgram` (or one given to `XPathEvaluator.evaluate(_:at:)`)
/// does not compile: libxml2's syntax error.
public struct XPathCompileError: Error, Sendable, Hashable {
    /// The expression's index in the program.
    public var index: Int
    /// libxml2's message, e.g. "Invalid expression", "Unfinished literal", "Invalid predicate".
    public var message: String
    /// libxml2's error code (1201-1226, e.g. 1207 for an invalid expression).
    public var code: Int
    /// Where libxml2 stopped, in UTF-8 bytes from the start of the expression.
    public var offset: Int

    public init(index: Int, message: String, code: Int, offset: Int) {
        self.index = index
        self.message = message
        self.code = code
        self.offset = offset
    }
}
