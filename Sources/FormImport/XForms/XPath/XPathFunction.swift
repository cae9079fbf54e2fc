/// A function call in an expression: `selected(., 'a')`, `jr:choice-name(/data/x, '/data/x')`.
struct XPathFunction: Hashable, Sendable {
    /// The prefix as written (`jr`), resolved through the form's namespaces when checked.
    var prefix: String?
    var name: String
    var arguments: [XPathExpression]
    /// 1-based column of the name in the parsed text, 0 for a call made by a rewrite. Not part of
    /// the call's identity, so that a printed and parsed-again tree equals the original.
    var column: Int

    init(prefix: String? = nil, name: String, arguments: [XPathExpression], column: Int = 0) {
        self.prefix = prefix
        self.name = name
        self.arguments = arguments
        self.column = column
    }

    /// `prefix:name`, or the name alone.
    var qualifiedName: String { prefix.map { "\($0):\(name)" } ?? name }

    static func == (a: XPathFunction, b: XPathFunction) -> Bool {
        a.prefix == b.prefix && a.name == b.name && a.arguments == b.arguments
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(prefix)
        hasher.combine(name)
        hasher.combine(arguments)
    }
}

/// One function call of an expression, as `XPathFunctionTable.check` judges it.
struct XPathFunctionCall: Hashable, Sendable {
    var prefix: String?
    var name: String
    var arity: Int
    /// 1-based column of the name in the expression (0 when unknown).
    var column: Int

    /// `prefix:name`, or the name alone.
    var qualifiedName: String { prefix.map { "\($0):\(name)" } ?? name }
}

extension XPathExpression {
    /// Every function call, outermost first and in the order written, arguments and predicates included.
    var functionCalls: [XPathFunctionCall] {
        var calls: [XPathFunctionCall] = []
        forEachFunction { f in
            calls.append(XPathFunctionCall(prefix: f.prefix, name: f.name, arity: f.arguments.count, column: f.column))
        }
        return calls
    }

    /// Calls `body` with each function call of the tree, outermost first.
    func forEachFunction(_ body: (XPathFunction) -> Void) {
        switch self {
        case .binary(_, let left, let right):
            left.forEachFunction(body)
            right.forEachFunction(body)
        case .negate(let operand):
            operand.forEachFunction(body)
        case .string, .number:
            break
        case .function(let f):
            body(f)
            for argument in f.arguments { argument.forEachFunction(body) }
        case .path(let path):
            if case .expression(let start) = path.start { start.forEachFunction(body) }
            for step in path.steps {
                for predicate in step.predicates { predicate.forEachFunction(body) }
            }
        case .filter(let primary, let predicates):
            primary.forEachFunction(body)
            for predicate in predicates { predicate.forEachFunction(body) }
        }
    }
}
