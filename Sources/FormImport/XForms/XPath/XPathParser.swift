/// Parses XForms expressions (bind `relevant`, `required`, `readonly`, `constraint`, `calculate`,
/// itemset `nodeset`, `<output value>`, `setvalue value`, `jr:itext(...)` messages) by the XPath
/// 1.0 grammar, recursive descent over `XPathLexer`'s tokens, one function a precedence level.
/// Stricter than libxml2 only where XForms is: variables (`$x`) are refused, since a form has
/// no way to bind them. Function names are not checked here (`XPathFunctionTable` does that).
enum XPathParser {
    /// Deeper trees are refused: every walk of a tree (printing, references, the rewrite)
    /// recurses once a level, and an uploaded form must not be able to exhaust a thread's stack.
    /// A chain of operators counts a level an operator (`a or b or c` is two levels deep), so
    /// this is an `or` of 255 comparisons; real forms stay far below (the WHO form's deepest
    /// expression is 12 levels). At both limits, parsing and every walk fit in 1 MiB of stack
    /// even in a debug build (a test pins it); threads on Linux get 8 MiB by default.
    static let maximumDepth = 256

    /// Expressions inside one another (parentheses, arguments, predicates, unary minus) are
    /// limited lower: the parser recurses through every precedence level for each.
    static let maximumNesting = 32

    /// The tree of `text`, or the first syntax error with its column.
    static func parse(_ text: String) throws(XPathSyntaxError) -> XPathExpression {
        var parser = Parser(tokens: try XPathLexer.tokens(of: text))
        return try parser.parseAll()
    }
}

private typealias Token = XPathLexer.Token

/// A parsed subtree and its depth, so that `XPathParser.maximumDepth` holds for left-leaning
/// chains (`a or b or c ...`) as well as for nesting.
private struct Parsed {
    var expression: XPathExpression
    var depth: Int
}

private struct Parser {
    let tokens: [Token]
    var index = 0
    /// Expressions being parsed inside one another (parentheses, arguments, predicates, unary minus).
    var nesting = 0

    init(tokens: [Token]) {
        self.tokens = tokens
    }

    var current: Token { tokens[index] }
    var previous: Token? { index > 0 ? tokens[index - 1] : nil }

    @discardableResult
    mutating func advance() -> Token {
        let token = tokens[index]
        if index < tokens.count - 1 { index += 1 }
        return token
    }

    mutating func parseAll() throws(XPathSyntaxError) -> XPathExpression {
        if current.kind == .end { throw XPathSyntaxError(message: "The expression is empty", column: 1) }
        let parsed = try expression()
        switch current.kind {
        case .end: return parsed.expression
        case .closeParen: throw error("Unexpected ')': it closes no '('")
        case .closeBracket: throw error("Unexpected ']': it closes no '['")
        default: throw unexpected(expecting: "an operator or the end of the expression")
        }
    }

    func error(_ message: String, at token: Token? = nil) -> XPathSyntaxError {
        XPathSyntaxError(message: message, column: (token ?? current).column)
    }

    func unexpected(expecting: String) -> XPathSyntaxError {
        error("Unexpected '\(current.text)': expected \(expecting)")
    }

    func checked(_ expression: XPathExpression, depth: Int, at token: Token) throws(XPathSyntaxError) -> Parsed {
        guard depth <= XPathParser.maximumDepth else { throw tooDeep(at: token) }
        return Parsed(expression: expression, depth: depth)
    }

    // MARK: Operators

    mutating func expression() throws(XPathSyntaxError) -> Parsed {
        try nested { (parser) throws(XPathSyntaxError) in try parser.binary(level: 1) }
    }

    /// Runs `body` one level deeper, refusing before recursing further than the limit (the
    /// depth of `Parsed` is only known on the way back up, too late for `((((...`).
    mutating func nested(_ body: (inout Parser) throws(XPathSyntaxError) -> Parsed) throws(XPathSyntaxError) -> Parsed {
        nesting += 1
        defer { nesting -= 1 }
        guard nesting <= XPathParser.maximumNesting else {
            throw error(
                "The expression is nested too deeply (more than \(XPathParser.maximumNesting) levels of "
                    + "parentheses, calls, predicates or minus signs)")
        }
        return try body(&self)
    }

    func tooDeep(at token: Token) -> XPathSyntaxError {
        error("The expression is nested too deeply (more than \(XPathParser.maximumDepth) levels)", at: token)
    }

    /// Levels 1 (`or`) to 6 (`*`, `div`, `mod`); unary minus below, then `|`.
    mutating func binary(level: Int) throws(XPathSyntaxError) -> Parsed {
        guard level <= 6 else { return try unary() }
        var left = try binary(level: level + 1)
        while case .op(let op) = current.kind, op.precedence == level {
            let token = advance()
            let right = try binary(level: level + 1)
            left = try checked(
                .binary(op, left.expression, right.expression), depth: max(left.depth, right.depth) + 1, at: token)
        }
        return left
    }

    mutating func unary() throws(XPathSyntaxError) -> Parsed {
        guard current.kind == .op(.minus) else { return try union() }
        let token = advance()
        let operand = try nested { (parser) throws(XPathSyntaxError) in try parser.unary() }
        return try checked(.negate(operand.expression), depth: operand.depth + 1, at: token)
    }

    mutating func union() throws(XPathSyntaxError) -> Parsed {
        var left = try pathExpression()
        while current.kind == .op(.union) {
            let token = advance()
            let right = try pathExpression()
            left = try checked(
                .binary(.union, left.expression, right.expression), depth: max(left.depth, right.depth) + 1, at: token)
        }
        return left
    }

    // MARK: Paths

    mutating func pathExpression() throws(XPathSyntaxError) -> Parsed {
        let first = current
        switch current.kind {
        case .slash:
            advance()
            guard startsStep(current.kind) else {
                return Parsed(expression: .path(XPathPath(start: .root, steps: [])), depth: 1)
            }
            let steps = try relativePath()
            return try checked(.path(XPathPath(start: .root, steps: steps.steps)), depth: steps.depth + 1, at: first)
        case .doubleSlash:
            advance()
            let steps = try relativePath(after: first)
            return try checked(
                .path(XPathPath(start: .root, steps: [.anyDescendant] + steps.steps)), depth: steps.depth + 1, at: first
            )
        case let kind where startsStep(kind):
            let steps = try relativePath()
            return try checked(.path(XPathPath(start: .context, steps: steps.steps)), depth: steps.depth + 1, at: first)
        case .openParen, .literal, .number, .function:
            var primary = try primaryExpression()
            let predicates = try predicates()
            if !predicates.expressions.isEmpty {
                primary = try checked(
                    .filter(primary.expression, predicates: predicates.expressions),
                    depth: max(primary.depth, predicates.depth) + 1, at: first)
            }
            guard current.kind == .slash || current.kind == .doubleSlash else { return primary }
            let slash = advance()
            var steps = try relativePath(after: slash)
            if slash.kind == .doubleSlash { steps.steps.insert(.anyDescendant, at: 0) }
            return try checked(
                .path(XPathPath(start: .expression(primary.expression), steps: steps.steps)),
                depth: max(primary.depth, steps.depth) + 1, at: first)
        default:
            throw missingOperand()
        }
    }

    /// The error where an operand is wanted and the current token cannot start one.
    func missingOperand() -> XPathSyntaxError {
        if let previous, case .op = previous.kind {
            return error("'\(previous.text)' needs an expression after it", at: previous)
        }
        if case .op(let op) = current.kind, op != .minus {
            return error("'\(current.text)' needs an expression before it")
        }
        if current.kind == .end, let previous {
            return error("The expression ends too early, after '\(previous.text)'", at: previous)
        }
        return error("Expected an expression before '\(current.text)'")
    }

    func startsStep(_ kind: XPathLexer.Kind) -> Bool {
        switch kind {
        case .name, .anyName, .nodeType, .axis, .at, .dot, .dotDot: true
        default: false
        }
    }

    /// Steps separated by `/` or `//`; the first must be there.
    mutating func relativePath(after slash: Token? = nil) throws(XPathSyntaxError) -> (steps: [XPathStep], depth: Int) {
        var steps: [XPathStep] = []
        var depth = 0
        var slash = slash
        while true {
            if let slash, !startsStep(current.kind) {
                throw error("'\(slash.text)' needs a step after it: a name, '*', '.', '..' or '@name'", at: slash)
            }
            let step = try self.step()
            steps.append(step.step)
            depth = max(depth, step.depth)
            guard current.kind == .slash || current.kind == .doubleSlash else { return (steps, depth) }
            let token = advance()
            if token.kind == .doubleSlash { steps.append(.anyDescendant) }
            slash = token
        }
    }

    mutating func step() throws(XPathSyntaxError) -> (step: XPathStep, depth: Int) {
        let first = current
        let axis: XPathAxis
        switch first.kind {
        case .dot, .dotDot:
            advance()
            if current.kind == .openBracket {
                throw error(
                    "'\(first.text)' cannot have a predicate in XPath 1.0: write "
                        + (first.kind == .dot ? "self::node()[...]" : "parent::node()[...]"))
            }
            return (first.kind == .dot ? .current : .parent, 0)
        case .at:
            advance()
            axis = .attribute
            guard startsNodeTest(current.kind) else { throw error("'@' needs an attribute name after it", at: first) }
        case .axis(let named):
            advance()
            axis = named
            guard startsNodeTest(current.kind) else {
                throw error("'\(first.text)' needs a node test after it, such as a name or '*'", at: first)
            }
        default:
            axis = .child
        }
        let test = try nodeTest()
        let predicates = try predicates()
        return (XPathStep(axis: axis, test: test, predicates: predicates.expressions), predicates.depth)
    }

    func startsNodeTest(_ kind: XPathLexer.Kind) -> Bool {
        switch kind {
        case .name, .anyName, .nodeType: true
        default: false
        }
    }

    mutating func nodeTest() throws(XPathSyntaxError) -> XPathNodeTest {
        let token = current
        switch token.kind {
        case .name(let prefix, let local):
            advance()
            return .name(prefix: prefix, local: local)
        case .anyName(let prefix):
            advance()
            return .anyName(prefix: prefix)
        case .nodeType(var test):
            advance()
            let open = advance()  // the lexer saw the `(`
            if test == .processingInstruction(nil), case .literal(let target) = current.kind {
                advance()
                test = .processingInstruction(target)
            }
            guard current.kind == .closeParen else {
                if current.kind == .end { throw error("The '(' here is not closed: add the missing ')'", at: open) }
                throw error("\(token.text)() takes no argument here: expected ')'")
            }
            advance()
            return test
        default:
            throw error("Expected a name, '*' or a node test such as text()")
        }
    }

    /// `[expr]*`
    mutating func predicates() throws(XPathSyntaxError) -> (expressions: [XPathExpression], depth: Int) {
        var expressions: [XPathExpression] = []
        var depth = 0
        while current.kind == .openBracket {
            let open = advance()
            if current.kind == .end { throw error("The '[' here is not closed: add the missing ']'", at: open) }
            let predicate = try expression()
            switch current.kind {
            case .closeBracket: advance()
            case .end: throw error("The '[' here is not closed: add the missing ']'", at: open)
            default: throw unexpected(expecting: "an operator or ']'")
            }
            expressions.append(predicate.expression)
            depth = max(depth, predicate.depth)
        }
        return (expressions, depth)
    }

    // MARK: Primary expressions

    mutating func primaryExpression() throws(XPathSyntaxError) -> Parsed {
        let token = current
        if token.kind != .end { advance() }
        switch token.kind {
        case .literal(let value):
            return Parsed(expression: .string(value), depth: 1)
        case .number(let digits):
            return Parsed(expression: .number(digits), depth: 1)
        case .openParen:
            if current.kind == .end { throw error("The '(' here is not closed: add the missing ')'", at: token) }
            let inner = try expression()
            switch current.kind {
            case .closeParen: advance()
            case .end: throw error("The '(' here is not closed: add the missing ')'", at: token)
            default: throw unexpected(expecting: "an operator or ')'")
            }
            return try checked(inner.expression, depth: inner.depth + 1, at: token)
        case .function(let prefix, let name):
            let open = advance()  // the lexer saw the `(`
            var arguments: [XPathExpression] = []
            var depth = 0
            if current.kind == .closeParen {
                advance()
            } else {
                while true {
                    if current.kind == .end { throw error("The '(' here is not closed: add the missing ')'", at: open) }
                    let argument = try expression()
                    arguments.append(argument.expression)
                    depth = max(depth, argument.depth)
                    if current.kind == .comma {
                        advance()
                        continue
                    }
                    if current.kind == .closeParen {
                        advance()
                        break
                    }
                    if current.kind == .end { throw error("The '(' here is not closed: add the missing ')'", at: open) }
                    throw unexpected(expecting: "an operator, ',' or ')' in \(token.text)()")
                }
            }
            let call = XPathFunction(prefix: prefix, name: name, arguments: arguments, column: token.column)
            return try checked(.function(call), depth: depth + 1, at: token)
        default:
            // pathExpression only calls this on the four kinds above.
            throw error("Expected an expression before '\(token.text)'", at: token)
        }
    }
}
