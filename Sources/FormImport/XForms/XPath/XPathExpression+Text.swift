extension XPathExpression {
    /// XPath text that parses back to this tree: spaces around binary operators (so `a - b`
    /// never reads as the name `a-b`), parentheses only where precedence needs them, the
    /// abbreviations `.`, `..`, `@a` and `//` wherever they mean the same. This is what libxml2
    /// compiles, so it must stay plain XPath 1.0.
    var text: String {
        var out = ""
        write(to: &out)
        return out
    }

    /// 1 (`or`) to 8 (`|`), 9 for paths, calls and literals; what decides the parentheses.
    private var precedence: Int {
        switch self {
        case .binary(let op, _, _): op.precedence
        case .negate: 7
        case .string, .number, .function, .path, .filter: 9
        }
    }

    /// `/` alone: before an operator it would swallow a following `*` or `div` as a name test.
    private var isRootAlone: Bool {
        if case .path(let path) = self, path.start == .root, path.steps.isEmpty { return true }
        return false
    }

    private func write(to out: inout String) {
        switch self {
        case .binary(let op, let left, let right):
            left.write(to: &out, parenthesized: left.precedence < op.precedence || left.isRootAlone)
            out += " \(op.rawValue) "
            right.write(to: &out, parenthesized: right.precedence <= op.precedence)
        case .negate(let operand):
            out += "-"
            operand.write(to: &out, parenthesized: operand.precedence < 7)
        case .string(let value):
            out += Self.literal(value)
        case .number(let digits):
            out += digits
        case .function(let call):
            out += call.qualifiedName + "("
            for (i, argument) in call.arguments.enumerated() {
                if i > 0 { out += ", " }
                argument.write(to: &out)
            }
            out += ")"
        case .path(let path):
            switch path.start {
            case .root:
                out += "/"
            case .context:
                break
            case .expression(let start):
                start.writePrimary(to: &out)
                if !path.steps.isEmpty { out += "/" }
            }
            for (i, step) in path.steps.enumerated() {
                if i > 0 { out += "/" }
                // `//` is an empty step between two slashes; a relative path cannot start with one.
                let abbreviated = !(i == 0 && path.start == .context) && i < path.steps.count - 1
                step.write(to: &out, descendantAbbreviated: abbreviated)
            }
        case .filter(let primary, let predicates):
            primary.writePrimary(to: &out)
            for predicate in predicates { XPathStep.write(predicate, to: &out) }
        }
    }

    private func write(to out: inout String, parenthesized: Bool) {
        if parenthesized { out += "(" }
        write(to: &out)
        if parenthesized { out += ")" }
    }

    /// As the start of a filter expression or of the steps after it: a call, a literal or a
    /// number as it is, a filter with its predicates, anything else in parentheses.
    private func writePrimary(to out: inout String) {
        switch self {
        case .string, .number, .function, .filter: write(to: &out)
        default: write(to: &out, parenthesized: true)
        }
    }

    /// A string as an XPath 1.0 literal: in single quotes, in double quotes when it holds a single
    /// quote, and, since a literal cannot hold both, as `concat()` of pieces when it holds both.
    static func literal(_ value: String) -> String {
        if !value.contains("'") { return "'\(value)'" }
        if !value.contains("\"") { return "\"\(value)\"" }
        let pieces = value.split(separator: "'", omittingEmptySubsequences: false).map { "'\($0)'" }
        return "concat(" + pieces.joined(separator: ", \"'\", ") + ")"
    }
}

extension XPathStep {
    /// The step, abbreviated where XPath allows: `name`, `@name`, `.`, `..`, and `//`'s
    /// `descendant-or-self::node()` as nothing when `descendantAbbreviated`.
    fileprivate func write(to out: inout String, descendantAbbreviated: Bool) {
        switch (axis, test, predicates.isEmpty) {
        case (.itself, .node, true): out += "."
        case (.parent, .node, true): out += ".."
        case (.descendantOrSelf, .node, true) where descendantAbbreviated: break
        case (.child, _, _): test.write(to: &out)
        case (.attribute, _, _):
            out += "@"
            test.write(to: &out)
        default:
            out += axis.rawValue + "::"
            test.write(to: &out)
        }
        for predicate in predicates { Self.write(predicate, to: &out) }
    }

    fileprivate static func write(_ predicate: XPathExpression, to out: inout String) {
        out += "[" + predicate.text + "]"
    }
}

extension XPathNodeTest {
    fileprivate func write(to out: inout String) {
        switch self {
        case .name(let prefix, let local): out += prefix.map { "\($0):\(local)" } ?? local
        case .anyName(let prefix): out += prefix.map { "\($0):*" } ?? "*"
        case .node: out += "node()"
        case .text: out += "text()"
        case .comment: out += "comment()"
        case .processingInstruction(let target):
            out += "processing-instruction(\(target.map(XPathExpression.literal) ?? ""))"
        }
    }
}
