import FormModel
import FormXML

/// The expression layer over a mapped XForm (`../shared/spec/xforms-mapping.md`, "Evaluation"
/// and "Import report"): every bind, itemset, `setvalue` and `<output>` expression is parsed
/// (`XPathParser`), its functions checked against the ODK library (`XPathFunctionTable`), its
/// references resolved against the primary instance, the calculates ordered (a cycle refused), and
/// the date and time operands rewritten so they compare and subtract as days. What libxml2 will
/// evaluate is the printed rewrite (`XFormExpression.compiled`), compiled here once with libxml2
/// itself, so that nothing the server cannot compile is stored.
///
/// Refused, with the bind, attribute and column: an expression that does not parse, a function
/// called with arguments it does not take or under a prefix the form does not declare, an
/// absolute path to no node of the primary instance, a cycle among calculates. A function the
/// server does not evaluate (`pulldata`, CHT's extensions...) is a warning, and the rule is not
/// enforced (`XFormExpression.notEnforced`).
extension XFormMapper {
    /// An expression's place in the rules, to write its checked form back.
    enum ExpressionSlot {
        case bind(node: Int, attribute: WritableKeyPath<XFormBind, XFormExpression?>)
        case itemset(node: Int)
        case setValue(index: Int)
        case output
        /// A repeat's `jr:count`: read at the repeat's node, evaluated at its parent.
        case repeatCount(node: Int)
    }

    /// One expression to check: where it is, the node it is evaluated for, what it says.
    struct PendingExpression {
        var slot: ExpressionSlot
        var context: [String]
        var expression: XFormExpression
        /// The node it belongs to, for messages (`/data/age`).
        var owner: String
    }

    /// Parses, checks and rewrites every expression; refusals go to `errors`, the rest to the report.
    func checkExpressions() {
        let pending = collectExpressions()
        var parsed: [Int: XPathExpression] = [:]
        for (index, item) in pending.enumerated() {
            do {
                parsed[index] = try XPathParser.parse(item.expression.source)
            } catch {
                refuse(
                    item,
                    "does not parse at column \(error.column) of the expression: \(error.message)",
                    column: item.expression.column > 0
                        ? item.expression.column + item.expression.attribute.count + 1 + error.column : 0)
            }
        }
        var notEnforced: [Int: String] = [:]
        for (index, tree) in parsed {
            let item = pending[index]
            for call in tree.functionCalls {
                switch XPathFunctionTable.check(call, namespaces: namespaces) {
                case .ok: continue
                case .unsupported(let message):
                    notEnforced[index] = notEnforced[index] ?? message
                    report.warn(
                        .functionUnsupported,
                        "\(describe(item)): \(message) The server does not enforce this rule.",
                        line: item.expression.line, column: item.expression.column)
                case .wrongArity(let message), .unknownPrefix(let message):
                    refuse(item, message, column: item.expression.column)
                }
            }
        }
        var references: [Int: [String]] = [:]
        for (index, tree) in parsed {
            let item = pending[index]
            let found = tree.references(context: item.context)
            var paths: [String] = []
            for steps in found.nodes {
                guard let path = normalised(steps) else {
                    refuse(
                        item,
                        "names a prefix the form does not declare in \(steps.joined(separator: "/")); declare it on the <h:html> element or write the path without it."
                    )
                    continue
                }
                if pathIndex[path] != nil {
                    paths.append(path)
                } else if isAbsolute(item, steps) {
                    refuse(
                        item,
                        "reads \(path), which is no node of the primary instance; point it at a node of the instance, or add that node to it."
                    )
                } else {
                    report.warn(
                        .unknownReference,
                        "\(describe(item)) reads \(path), which is no node of the primary instance; it reads as empty.",
                        line: item.expression.line, column: item.expression.column)
                }
            }
            for text in found.unresolved {
                report.warn(
                    .unknownReference,
                    "\(describe(item)) reads \(text), which cannot be resolved to one node before a submission; it is evaluated as written.",
                    line: item.expression.line, column: item.expression.column)
            }
            references[index] = paths
        }
        checkCalculateCycles(pending, references: references)
        guard errors.isEmpty else { return }
        write(pending, parsed: parsed, notEnforced: notEnforced, references: references)
    }

    /// Every expression of the mapped form, with the node it is evaluated for.
    private func collectExpressions() -> [PendingExpression] {
        var pending: [PendingExpression] = []
        let attributes: [WritableKeyPath<XFormBind, XFormExpression?>] = [
            \.relevant, \.required, \.readonly, \.constraint, \.calculate,
        ]
        for (index, node) in nodes.enumerated() where node.leftOut == nil {
            let context = steps(node.path)
            if let bind = node.bind {
                for attribute in attributes {
                    guard let expression = bind[keyPath: attribute] else { continue }
                    pending.append(
                        PendingExpression(
                            slot: .bind(node: index, attribute: attribute), context: context, expression: expression,
                            owner: node.path))
                }
            }
            if let itemset = node.itemset {
                pending.append(
                    PendingExpression(
                        slot: .itemset(node: index), context: context, expression: itemset.nodeset, owner: node.path))
            }
            for text in [node.label, node.hint].compactMap(\.self) {
                for case .output(let expression) in text.inline ?? [] {
                    pending.append(
                        PendingExpression(slot: .output, context: context, expression: expression, owner: node.path))
                }
            }
        }
        for (index, node) in nodes.enumerated() where node.leftOut == nil {
            guard let count = node.repeat?.count else { continue }
            pending.append(
                PendingExpression(
                    slot: .repeatCount(node: index), context: steps(node.path), expression: count, owner: node.path))
        }
        for (index, action) in firstLoad.enumerated() {
            guard let value = action.value else { continue }
            pending.append(
                PendingExpression(
                    slot: .setValue(index: index), context: steps(action.target), expression: value,
                    owner: action.target))
        }
        return pending
    }

    /// Writes each checked expression's compiled form (or why it is not enforced) into the
    /// nodes and actions, after compiling them all with libxml2.
    private func write(
        _ pending: [PendingExpression], parsed: [Int: XPathExpression], notEnforced: [Int: String],
        references: [Int: [String]]
    ) {
        var declared: [[String]: XPathValueType] = [:]
        var calculates: [[String]: XPathExpression] = [:]
        for (index, item) in pending.enumerated() {
            if case .bind(_, let attribute) = item.slot, attribute == \XFormBind.calculate, let tree = parsed[index] {
                calculates[item.context] = tree
            }
        }
        for node in nodes {
            if let type = Self.valueType(node.type) { declared[steps(node.path)] = type }
        }
        let types = XPathTypeInference.types(declared: declared, calculates: calculates)
        var compiled: [(index: Int, text: String)] = []
        for (index, item) in pending.enumerated() {
            guard let tree = parsed[index], notEnforced[index] == nil else { continue }
            var rewritten = tree.rewritingDates(context: item.context) { types[$0] }
            var context = item.context
            if case .repeatCount(let node) = item.slot {
                // Evaluated at the repeat's parent: in the items of the repeats around that.
                let element = nodeElements[node]
                let prefix = pathPrefix(for: element.namespaceURI)
                rewritten = rewritten.fromParent(
                    repeatStep: .child(element.localName, prefix: prefix.isEmpty ? nil : String(prefix.dropLast())))
                context.removeLast()
            }
            rewritten = rewritten.contextualized(context: context, repeats: repeatSteps(around: context)) { test in
                guard case .name(let prefix, let local) = test else { return nil }
                guard let prefix else { return local }
                return namespaces[prefix].map { pathPrefix(for: $0) + local }
            }
            compiled.append((index, rewritten.text))
        }
        // libxml2 compiles every printed expression once here: what it refuses is never stored.
        do {
            _ = try XPathProgram(expressions: compiled.map(\.text), namespaces: namespaces)
        } catch {
            let item = pending[compiled[error.index].index]
            refuse(item, "cannot be compiled by the XPath engine: \(error.message)")
            return
        }
        var texts: [Int: String] = [:]
        for entry in compiled { texts[entry.index] = entry.text }
        for (index, item) in pending.enumerated() {
            var expression = item.expression
            expression.compiled = texts[index]
            expression.notEnforced = notEnforced[index]
            expression.reads = references[index]
            switch item.slot {
            case .bind(let node, let attribute): nodes[node].bind?[keyPath: attribute] = expression
            case .itemset(let node): nodes[node].itemset?.nodeset = expression
            case .setValue(let action): firstLoad[action].value = expression
            case .repeatCount(let node): nodes[node].repeat?.count = expression
            case .output: continue
            }
        }
    }

    /// Refuses a form whose calculates read each other in a cycle, naming the nodes of each.
    private func checkCalculateCycles(_ pending: [PendingExpression], references: [Int: [String]]) {
        var reads: [String: [String]] = [:]
        for (index, item) in pending.enumerated() {
            guard case .bind(_, let attribute) = item.slot, attribute == \XFormBind.calculate else { continue }
            reads[item.owner] = (references[index] ?? []).filter { $0 != item.owner }
        }
        var state: [String: Bool] = [:]  // false: on the path being walked; true: done
        var path: [String] = []
        var reported: Set<String> = []
        func visit(_ node: String) {
            if let done = state[node] {
                guard !done, let start = path.firstIndex(of: node) else { return }
                let cycle = Array(path[start...])
                guard reported.isDisjoint(with: cycle) else { return }
                reported.formUnion(cycle)
                let line = nodes[pathIndex[cycle[0]] ?? 0].bind?.calculate?.line ?? 0
                errors.append(
                    ImportError(
                        code: .calculateCycle,
                        message:
                            "The calculates of \(Words.list(cycle)) read each other in a cycle (\((cycle + [cycle[0]]).joined(separator: " → "))), so none can be computed; make one of them read something else.",
                        file: document.name, line: line))
                return
            }
            state[node] = false
            path.append(node)
            for next in reads[node] ?? [] where reads[next] != nil { visit(next) }
            path.removeLast()
            state[node] = true
        }
        for node in reads.keys.sorted() { visit(node) }
    }

    /// An expression path's steps as a node path of the rules (`/data/orx:meta/orx:instanceID`),
    /// each prefix mapped through the form's namespaces to the one paths use; nil for an
    /// undeclared prefix. Attribute steps are dropped: the element they belong to is the node.
    private func normalised(_ steps: [String]) -> String? {
        var written: [String] = []
        for step in steps {
            if step.hasPrefix("@") { break }
            if let colon = step.firstIndex(of: ":") {
                guard let uri = namespaces[String(step[..<colon])] else { return nil }
                written.append(pathPrefix(for: uri) + step[step.index(after: colon)...])
            } else {
                written.append(step)
            }
        }
        return "/" + written.joined(separator: "/")
    }

    /// Whether the expression wrote this path from the root (not relative to its node).
    private func isAbsolute(_ item: PendingExpression, _ steps: [String]) -> Bool {
        item.expression.source.contains("/" + steps.joined(separator: "/"))
    }

    private func refuse(_ item: PendingExpression, _ problem: String, column: Int = 0) {
        errors.append(
            ImportError(
                code: .badExpression, message: "\(describe(item)) \(problem)", file: document.name,
                line: item.expression.line, column: column))
    }

    /// `The relevant of /data/age ("../x > 1", bind, line 12)`.
    private func describe(_ item: PendingExpression) -> String {
        "The \(item.expression.attribute) of \(item.owner) (\"\(item.expression.source)\" on <\(item.expression.element)>, line \(item.expression.line))"
    }

    /// The steps of the repeats a node is in (or is), by its steps, outermost first.
    private func repeatSteps(around context: [String]) -> [[String]] {
        nodes.compactMap { node -> [String]? in
            guard node.repeat != nil, node.leftOut == nil else { return nil }
            let path = steps(node.path)
            return path.count <= context.count && Array(context.prefix(path.count)) == path ? path : nil
        }
    }

    private func steps(_ path: String) -> [String] {
        path.split(separator: "/").map(String.init)
    }

    /// The static type of a node's values, by its bind type.
    static func valueType(_ type: String?) -> XPathValueType? {
        switch type {
        case "date": .date
        case "dateTime": .dateTime
        case "time": .time
        case "int", "integer", "decimal": .number
        case "boolean": .boolean
        case "string", "select", "select1", "barcode": .string
        default: nil
        }
    }
}
