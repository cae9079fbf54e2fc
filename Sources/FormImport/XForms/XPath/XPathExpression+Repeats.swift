extension XPathExpression {
    /// The expression with its absolute paths into the repeat items its node is in made that
    /// item's own, as ODK reads them: for a node of the repeat `/data/members`,
    /// `/data/members/name` reads the same item's name (`current()/../name`), not the first
    /// item's. A path that ends at the repeat (`count(/data/members)`), or that goes into a repeat
    /// the node is not in, or through a step with a predicate, reads every item as written.
    /// Written from `current()`, it reads the item inside a predicate too.
    /// - Parameters:
    ///   - context: the steps of the node it is evaluated for, as node paths write them.
    ///   - repeats: the steps of the repeats the node is in (or is), outermost first.
    ///   - name: a name test as node paths write it (the prefix the form uses for its namespace);
    ///     nil for one that is no plain name.
    func contextualized(
        context: [String], repeats: [[String]], name: (XPathNodeTest) -> String?
    ) -> XPathExpression {
        guard !repeats.isEmpty else { return self }
        func rewrite(_ expression: XPathExpression) -> XPathExpression {
            switch expression {
            case .binary(let op, let left, let right): return .binary(op, rewrite(left), rewrite(right))
            case .negate(let operand): return .negate(rewrite(operand))
            case .string, .number: return expression
            case .function(var call):
                call.arguments = call.arguments.map(rewrite)
                return .function(call)
            case .filter(let primary, let predicates):
                return .filter(rewrite(primary), predicates: predicates.map(rewrite))
            case .path(var path):
                if case .expression(let start) = path.start { path.start = .expression(rewrite(start)) }
                for i in path.steps.indices { path.steps[i].predicates = path.steps[i].predicates.map(rewrite) }
                guard path.start == .root else { return .path(path) }
                // The leading plain steps, as node paths write them.
                var written: [String] = []
                for step in path.steps {
                    guard step.axis == .child, step.predicates.isEmpty, let step = name(step.test) else { break }
                    written.append(step)
                }
                guard
                    let within = repeats.last(where: {
                        $0.count < written.count && Array(written.prefix($0.count)) == $0
                    })
                else { return .path(path) }
                let up = Array(repeating: XPathStep.parent, count: context.count - within.count)
                return .path(
                    XPathPath(
                        start: .expression(.function(XPathFunction(name: "current", arguments: []))),
                        steps: up + path.steps[within.count...]))
            }
        }
        return rewrite(self)
    }

    /// A repeat's `jr:count`, written for the repeat's node, as evaluated at its parent: a
    /// relative path that starts with `..` loses that step, any other starts with the repeat's
    /// own (`../count` reads the parent's `count`, `x` the items' `x`). Predicates keep theirs.
    func fromParent(repeatStep: XPathStep) -> XPathExpression {
        switch self {
        case .binary(let op, let left, let right):
            return .binary(op, left.fromParent(repeatStep: repeatStep), right.fromParent(repeatStep: repeatStep))
        case .negate(let operand): return .negate(operand.fromParent(repeatStep: repeatStep))
        case .string, .number: return self
        case .function(var call):
            // `current()` is the node the expression is for: the parent now; its repeat below it.
            if call.name == "current", call.prefix == nil, call.arguments.isEmpty {
                return .path(XPathPath(start: .expression(self), steps: [repeatStep]))
            }
            call.arguments = call.arguments.map { $0.fromParent(repeatStep: repeatStep) }
            return .function(call)
        case .filter(let primary, let predicates):
            return .filter(primary.fromParent(repeatStep: repeatStep), predicates: predicates)
        case .path(var path):
            if case .expression(let start) = path.start {
                path.start = .expression(start.fromParent(repeatStep: repeatStep))
                return .path(path)
            }
            guard path.start == .context else { return self }
            if path.steps.first == .parent {
                path.steps.removeFirst()
                if path.steps.isEmpty { path.steps = [.current] }
            } else {
                path.steps.insert(repeatStep, at: 0)
            }
            return .path(path)
        }
    }
}
