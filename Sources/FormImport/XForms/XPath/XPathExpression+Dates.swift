extension XPathExpression {
    /// The expression with its date, dateTime and time operands made numbers, so that they compare
    /// and subtract as ODK's `number()` extension says: the operands of `<`, `<=`, `>`, `>=`, `+`,
    /// `-`, `*`, `div`, `mod` and unary minus whose static type is date or dateTime are wrapped in
    /// `decimal-date-time(...)` (days since 1970-01-01), time ones in `decimal-time(...)`
    /// (a fraction of a day). Plain XPath 1.0 turns `'2000-01-31'` into NaN, so without this
    /// `. <= today()` is always false.
    ///
    /// Only typed operands are wrapped: wrapping every one would turn a node-set operand into the
    /// number of its first node, and break XPath's comparisons of node-sets (true when any node
    /// matches). `=` and `!=` stay string comparisons, as in ODK.
    ///
    /// - Parameters:
    ///   - context: the bound node's path, which `.` and `current()` stand for.
    ///   - type: a data node's type by its path (from its bind), nil when it has none.
    func rewritingDates(context: [String], type: ([String]) -> XPathValueType?) -> XPathExpression {
        withoutActuallyEscaping(type) { type in
            DateRewriter(scope: XPathScope(bound: context), type: type).rewrite(self, at: .data(context))
        }
    }

    /// The static type of this expression evaluated for the node at `context`, as the date
    /// rewrite sees it; nil when it depends on the data (a node without a type, a secondary
    /// instance's node, an `if` whose branches differ).
    func staticType(context: [String], type: ([String]) -> XPathValueType?) -> XPathValueType? {
        withoutActuallyEscaping(type) { type in
            DateRewriter(scope: XPathScope(bound: context), type: type).staticType(of: self, at: .data(context))
        }
    }
}

private struct DateRewriter {
    let scope: XPathScope
    let type: ([String]) -> XPathValueType?

    func rewrite(_ expression: XPathExpression, at context: XPathPlace) -> XPathExpression {
        switch expression {
        case .binary(let op, let left, let right):
            var newLeft = rewrite(left, at: context)
            var newRight = rewrite(right, at: context)
            if op.isNumeric {
                newLeft = wrapped(newLeft, as: staticType(of: left, at: context))
                newRight = wrapped(newRight, as: staticType(of: right, at: context))
            }
            return .binary(op, newLeft, newRight)
        case .negate(let operand):
            return .negate(wrapped(rewrite(operand, at: context), as: staticType(of: operand, at: context)))
        case .string, .number:
            return expression
        case .function(var call):
            call.arguments = call.arguments.map { rewrite($0, at: context) }
            return .function(call)
        case .path(var path):
            var place = scope.start(of: path, at: context)
            if case .expression(let start) = path.start { path.start = .expression(rewrite(start, at: context)) }
            for i in path.steps.indices {
                place = scope.apply(path.steps[i], to: place)
                let here = place
                path.steps[i].predicates = path.steps[i].predicates.map { rewrite($0, at: here) }
            }
            return .path(path)
        case .filter(let primary, let predicates):
            let place = scope.place(of: primary, at: context) ?? .unknown
            return .filter(rewrite(primary, at: context), predicates: predicates.map { rewrite($0, at: place) })
        }
    }

    func wrapped(_ operand: XPathExpression, as type: XPathValueType?) -> XPathExpression {
        switch type {
        case .date, .dateTime: .function(XPathFunction(name: "decimal-date-time", arguments: [operand]))
        case .time: .function(XPathFunction(name: "decimal-time", arguments: [operand]))
        case .string, .number, .boolean, nil: operand
        }
    }

    func staticType(of expression: XPathExpression, at context: XPathPlace) -> XPathValueType? {
        switch expression {
        case .string(let value):
            return XPathValueType.ofLiteral(value)
        case .number:
            return .number
        case .binary(let op, _, _):
            switch op {
            case .union: return nil
            case .plus, .minus, .multiply, .div, .mod: return .number
            case .or, .and, .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual: return .boolean
            }
        case .negate:
            return .number
        case .function(let call) where call.prefix == nil:
            switch (call.name, call.arguments.count) {
            case ("if", 3):
                return same(
                    staticType(of: call.arguments[1], at: context), staticType(of: call.arguments[2], at: context))
            case ("coalesce", 2):
                return same(
                    staticType(of: call.arguments[0], at: context), staticType(of: call.arguments[1], at: context))
            case ("current", 0):
                return type(scope.bound)
            default:
                return XPathFunctionTable.core[call.name]?.result
            }
        case .function:
            return nil
        case .path, .filter:
            guard case .data(let path)? = scope.place(of: expression, at: context), !path.isEmpty else { return nil }
            return type(path)
        }
    }

    private func same(_ a: XPathValueType?, _ b: XPathValueType?) -> XPathValueType? {
        a == b ? a : nil
    }
}
