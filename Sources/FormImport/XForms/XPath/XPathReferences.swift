/// What an expression reads, found before any value exists: for the order binds are evaluated
/// in, the calculate cycle check, and the report's "expression reads into a repeat".
struct XPathReferences: Hashable, Sendable {
    /// The data nodes read, each as element names from the root (`["data", "group", "age"]`;
    /// an attribute as a last name `@name`; prefixed names as written, `orx:meta`), in the order
    /// first read, each once. Only the node a path ends at is read, not the steps on its way.
    var nodes: [[String]] = []
    /// The ids of the secondary instances read (`instance('cities')/root/item`), each once.
    var instances: [String] = []
    /// The paths whose nodes cannot be told without the data (`//`, `*`, `ancestor::`, a
    /// computed instance id, `/` itself), as printed: the importer warns rather than guesses.
    var unresolved: [String] = []

    mutating func add(node: [String]) {
        if !nodes.contains(node) { nodes.append(node) }
    }

    mutating func add(instance id: String) {
        if !instances.contains(id) { instances.append(id) }
    }

    mutating func add(unresolved text: String) {
        if !unresolved.contains(text) { unresolved.append(text) }
    }
}

/// Where the nodes an expression selects are, as far as the expression alone tells.
enum XPathPlace: Hashable, Sendable {
    /// One node of the primary instance, by element names from the root; `[]` is the document
    /// node (`/`).
    case data([String])
    /// Somewhere in secondary instance `id`: its nodes are not data nodes, and are not followed.
    case instance(String)
    /// Not known without the data.
    case unknown
}

/// The rules that resolve paths statically, from the bound node (`.` and `current()`), shared by
/// `references(context:)` and `rewritingDates(context:type:)`.
struct XPathScope {
    /// The bound node: what `.` is at the top of the expression, and `current()` everywhere.
    var bound: [String]

    /// Where `step` leads from `place`: child and attribute names, `.`, `..`, `self::name`,
    /// `parent::name` and `text()` are followed; any other step of a data path is unknown. A
    /// secondary instance stays itself (nothing inside it is followed), unknown stays unknown.
    func apply(_ step: XPathStep, to place: XPathPlace) -> XPathPlace {
        guard case .data(let path) = place else { return place }
        switch (step.axis, step.test) {
        case (.child, .name(let prefix, let local)):
            return .data(path + [Self.name(prefix, local)])
        case (.child, .text), (.itself, .node):
            return place
        case (.attribute, .name(let prefix, let local)):
            return .data(path + ["@" + Self.name(prefix, local)])
        case (.itself, .name(let prefix, let local)):
            return path.last == Self.name(prefix, local) ? place : .unknown
        case (.parent, .node):
            return path.isEmpty ? .unknown : .data(path.dropLast())
        case (.parent, .name(let prefix, let local)):
            return path.count >= 2 && path[path.count - 2] == Self.name(prefix, local)
                ? .data(path.dropLast()) : .unknown
        default:
            return .unknown
        }
    }

    private static func name(_ prefix: String?, _ local: String) -> String {
        prefix.map { "\($0):\(local)" } ?? local
    }

    /// The place of the node-set `expression` selects with `context` as its context node; nil for
    /// an expression that selects no nodes (a number, a comparison, most calls).
    func place(of expression: XPathExpression, at context: XPathPlace) -> XPathPlace? {
        switch expression {
        case .path(let path):
            var place = start(of: path, at: context)
            for step in path.steps { place = apply(step, to: place) }
            return place
        case .filter(let primary, _):
            return place(of: primary, at: context) ?? .unknown
        case .function(let call):
            return nodes(of: call)
        case .binary(.union, _, _):
            return .unknown
        case .binary, .negate, .string, .number:
            return nil
        }
    }

    /// Where a path's first step starts from.
    func start(of path: XPathPath, at context: XPathPlace) -> XPathPlace {
        switch path.start {
        case .root: .data([])
        case .context: context
        case .expression(let start): place(of: start, at: context) ?? .unknown
        }
    }

    /// The nodes a call returns: `current()` the bound node, `instance('id')` that instance; an
    /// `instance()` of a computed id or `id()` nodes unknown; nil for calls that return no nodes.
    func nodes(of call: XPathFunction) -> XPathPlace? {
        guard call.prefix == nil else { return nil }
        switch (call.name, call.arguments.count) {
        case ("current", 0):
            return .data(bound)
        case ("instance", 1):
            if case .string(let id) = call.arguments[0] { return .instance(id) }
            return .unknown
        case ("id", _):
            return .unknown
        default:
            return nil
        }
    }
}

extension XPathExpression {
    /// The data nodes, secondary instances and unresolved paths this expression reads when
    /// evaluated for the node at `context` (the bound node's path, e.g. `["data", "age"]`):
    /// absolute paths as written, relative ones (`.`, `..`, `../x`, `x`, `./x`) and `current()/…`
    /// from the bound node, paths inside a predicate from the step the predicate filters (so
    /// `country` in `instance('c')/root/item[country = current()/../country]` is the item's, and
    /// only `current()/../country` is a data node).
    func references(context: [String]) -> XPathReferences {
        var walker = ReferenceWalker(scope: XPathScope(bound: context))
        walker.read(self, at: .data(context))
        return walker.references
    }
}

/// Collects `XPathReferences` over a tree.
private struct ReferenceWalker {
    let scope: XPathScope
    var references = XPathReferences()

    /// Records what `expression` reads, its own result included.
    mutating func read(_ expression: XPathExpression, at context: XPathPlace) {
        // A union's parts are recorded by `visit`, each for itself.
        if case .binary(.union, _, _) = expression {
            _ = visit(expression, at: context)
            return
        }
        guard let place = visit(expression, at: context) else { return }
        switch place {
        case .data(let path) where !path.isEmpty:
            references.add(node: path)
        case .instance(let id):
            references.add(instance: id)
        case .data, .unknown:
            // A relative path inside an unresolved one (`//item[name = 'x']`) is part of what is
            // already reported.
            if case .path(let path) = expression, path.start == .context, context == .unknown { return }
            references.add(unresolved: expression.text)
        }
    }

    /// Records what `expression` reads on its way (arguments, predicates, a path's start) and
    /// returns the place of its own result, which the caller records or follows.
    mutating func visit(_ expression: XPathExpression, at context: XPathPlace) -> XPathPlace? {
        switch expression {
        case .binary(let op, let left, let right):
            read(left, at: context)
            read(right, at: context)
            return op == .union ? .unknown : nil
        case .negate(let operand):
            read(operand, at: context)
            return nil
        case .string, .number:
            return nil
        case .function(let call):
            if let place = scope.nodes(of: call), place != .unknown { return place }
            for argument in call.arguments { read(argument, at: context) }
            return scope.nodes(of: call)
        case .path(let path):
            var place: XPathPlace
            if case .expression(let start) = path.start {
                place = visit(start, at: context) ?? .unknown
            } else {
                place = scope.start(of: path, at: context)
            }
            for step in path.steps {
                place = scope.apply(step, to: place)
                for predicate in step.predicates { read(predicate, at: place) }
            }
            return place
        case .filter(let primary, let predicates):
            let place = visit(primary, at: context) ?? .unknown
            for predicate in predicates { read(predicate, at: place) }
            return place
        }
    }
}
