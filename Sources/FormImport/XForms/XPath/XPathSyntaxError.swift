/// Why an XForms expression does not parse: what is wrong, in words a form author can act on, and
/// where. The importer adds the bind and attribute when it refuses the form.
struct XPathSyntaxError: Error, Hashable, Sendable {
    var message: String
    /// 1-based, in characters of the expression: the character the message is about (an unclosed
    /// '(' or quote, an operator missing an operand, the unexpected token).
    var column: Int
}
