import FormModel
import FormXML
import Foundation

/// Judges submissions of an imported XForm by its rules, on the server, from the submitted
/// values alone (`../shared/spec/xforms-mapping.md`, "Evaluation on the server"): built once per
/// form version (every checked expression compiled by libxml2, the secondary instances parsed, the
/// nodes put in dependency order), then one `judge` per submission on a fresh copy of the primary
/// instance.
///
/// For each node, in an order where every node comes after the nodes its `relevant`, `calculate`
/// and `readonly` read and after its group: its relevance (its own `relevant` and its group's),
/// then its calculated value, then whether it is read-only; a node that is not relevant reads as
/// empty in every later expression. Then every relevant node's `required` and `constraint` (the
/// latter only on a value), and a select's value among the options its itemset offers for this
/// submission. Rules the importer marked not enforced are skipped.
package final class XFormJudge: Sendable {
    /// One node's compiled rules, by expression index in ``program``.
    /// A class: each submission walks the steps several times, and a copy of a struct holding a
    /// whole `XFormNode` retained and released every string in it each time.
    final class Step: Sendable {
        let path: [String]
        let node: XFormNode
        let parent: Int?
        let relevant: Int?
        let calculate: Int?
        let readonly: Int?
        let required: Int?
        let constraint: Int?
        let itemset: Int?
        /// The innermost repeat the node is in (or is), by index in ``repeats``, and its path by
        /// local names from that repeat's node.
        let scope: Int?
        let relative: [String]
        /// The path of the node's group (its parent), as ``XFormNode/path`` writes it.
        let parentPath: String?

        init(
            path: [String], node: XFormNode, parent: Int?, relevant: Int?, calculate: Int?, readonly: Int?,
            required: Int?, constraint: Int?, itemset: Int?, scope: Int?, relative: [String]
        ) {
            self.path = path
            self.node = node
            self.parent = parent
            self.relevant = relevant
            self.calculate = calculate
            self.readonly = readonly
            self.required = required
            self.constraint = constraint
            self.itemset = itemset
            self.scope = scope
            self.relative = relative
            parentPath = node.path.lastIndex(of: "/").map { String(node.path[..<$0]) }
        }
    }

    /// What a submission came to.
    package struct Verdict: Sendable {
        /// A rule the submission breaks, on a field.
        package struct Issue: Sendable, Hashable {
            package var field: String
            /// `required`, `constraint` or `choice`.
            package var code: String
            package var message: String
        }

        package var issues: [Issue]
        /// The relevant fields whose `required` holds for these values.
        package var required: Set<String> = []
        /// What each relevant field's label and hint `<output>`s read, in order, by field.
        package var outputs: [String: [String]] = [:]
        /// The option values each relevant select with an itemset offers for these values (its
        /// filter applied), in the itemset's order.
        package var offered: [String: [String]] = [:]
        /// The instance's `meta/instanceID`.
        package var instanceID: String? = nil
        /// The relevant fields' values as stored: calculated and read-only ones the server's own,
        /// empty ones left out.
        package var values: [String: String]
        /// The fields relevant to these values.
        package var relevant: Set<String>
        /// The instance as ODK tools store it: non-relevant nodes removed.
        package var instanceXML: String
        /// Expressions that failed to evaluate (the operation limit, a value libxml2 refuses),
        /// with their node: the rule reads as not met (relevance false, a constraint broken).
        package var errors: [String] = []
        /// How many items each list whose count the rules give (`jr:count`) has, by list path.
        package var itemCounts: [String: Int] = [:]
    }

    let rules: XFormRules
    let program: XPathProgram
    let template: XPathDocument
    let secondary: [String: XPathDocument]
    let steps: [Step]
    /// The form's repeats, outer first.
    let repeats: [Repeat]
    /// The `setvalue`s on `odk-instance-first-load`, in document order: each target's path, and
    /// its value's expression index in ``program`` or its literal.
    let firstLoad: [(path: [String], node: XFormNode?, value: Int?, literal: String)]
    /// The `<output>`s of each field's label and hint in the default language, in order, by
    /// node path: each one's index in ``outputProgram``, nil for one libxml2 does not compile
    /// (it shows nothing).
    let outputs: [String: [Int?]]
    let outputProgram: XPathProgram
    /// Whether a verdict depends on the answers alone: no expression it evaluates reads the
    /// clock or chance (``ODKFunctions/varying``: `today()`, `now()`, `random()`…, or the
    /// record's new `instanceID`) and no preloaded value (the time, the user's name, a new id) is
    /// shown or read. Then the same answers always get the same verdict, whoever asks and whenever.
    package let judgesAnswersAlone: Bool
    /// The words of each formatted label without its marks (the field's `label` when its
    /// `labelFormat` is set), by node path: messages name a question by them.
    let plainLabels: [String: String]

    /// Compiles a version's rules: the expressions the importer checked (`compiled`; one not
    /// enforced, or never checked, has none and is skipped). Throws when an instance does not
    /// parse or libxml2 refuses an expression: the import checks both, so that is a stored
    /// version gone bad.
    /// - Parameter plainLabels: the words of formatted labels, by node path (``plainLabels``).
    package init(rules: XFormRules, plainLabels: [String: String] = [:]) throws {
        self.rules = rules
        self.plainLabels = plainLabels
        let template = try XPathDocument.parse(Array(rules.primaryInstance.utf8))
        var secondary: [String: XPathDocument] = [:]
        for (id, instance) in rules.secondaryInstances {
            // An external instance (never fetched) or an empty one gives no items.
            guard let xml = instance.xml, !xml.isEmpty else { continue }
            secondary[id] = try XPathDocument.parse(
                Array(xml.utf8), droppingNamespace: XPathNamespaces.xforms, readOnly: true)
        }
        self.secondary = secondary
        var expressions: [String] = []
        func index(_ expression: XFormExpression?) -> Int? {
            guard let compiled = expression?.compiled else { return nil }
            expressions.append(compiled)
            return expressions.count - 1
        }
        let repeats = Self.repeats(of: rules, program: index)
        self.repeats = repeats
        Self.keepTemplates(of: repeats, in: template)
        self.template = template
        var byPath: [String: Int] = [:]
        var unordered: [Step] = []
        // A repeat's nodes stand in the instance once per item there: one step each, the first
        // (the template's, which binds name).
        for node in rules.nodes where node.leftOut == nil && byPath[node.path] == nil {
            let scope = Self.scope(of: node.path, in: repeats)
            let path = Self.localPath(node.path)
            let parentPath = "/" + path.dropLast().joined(separator: "/")
            let relevant = index(node.bind?.relevant)
            let calculate = index(node.bind?.calculate)
            let readonly = index(node.bind?.readonly)
            let required = index(node.bind?.required)
            let constraint = index(node.bind?.constraint)
            // Options from an external instance (never fetched) are judged by the itemset once an
            // admin uploaded the file (``XFormRules/withUploadedInstances(_:)``), by the field's
            // own rule until then; an inline one's (even an empty one) by the itemset.
            var itemset: Int?
            if let items = node.itemset,
                items.instance.map({ rules.secondaryInstances[$0]?.src == nil || secondary[$0] != nil }) ?? true
            {
                itemset = index(items.nodeset)
            }
            let step = Step(
                path: path, node: node, parent: byPath[parentPath], relevant: relevant, calculate: calculate,
                readonly: readonly, required: required, constraint: constraint, itemset: itemset, scope: scope,
                relative: scope.map { Array(path.dropFirst(repeats[$0].path.count)) } ?? [])
            byPath[node.path] = unordered.count
            unordered.append(step)
        }
        firstLoad = rules.firstLoad.map { action in
            (
                Self.localPath(action.target), rules.node(at: action.target), index(action.value),
                action.literal ?? ""
            )
        }
        program = try XPathProgram(expressions: expressions, namespaces: rules.namespaces)
        steps = Self.ordered(unordered, byPath: byPath)
        var outputSources: [String] = []
        var outputs: [String: [Int?]] = [:]
        for node in rules.nodes where node.field != nil && node.leftOut == nil {
            let segments = Self.textSegments(of: node, in: rules.translations)
            let found = segments.compactMap { segment -> Int? in
                guard case .output(let expression) = segment else { return nil }
                let source = expression.compiled ?? expression.source
                guard (try? XPathProgram(expressions: [source], namespaces: rules.namespaces)) != nil else {
                    return -1
                }
                outputSources.append(source)
                return outputSources.count - 1
            }
            if !found.isEmpty { outputs[node.path] = found.map { $0 < 0 ? nil : $0 } }
        }
        self.outputs = outputs
        outputProgram = try XPathProgram(expressions: outputSources, namespaces: rules.namespaces)
        // The messages' outputs too: a refused answer's message is in the verdict.
        let messageSources = rules.nodes.flatMap { node in
            [node.bind?.constraintMessage, node.bind?.requiredMessage].flatMap { text in
                (text?.segments(in: rules.translations) ?? []).compactMap { segment -> String? in
                    guard case .output(let expression) = segment else { return nil }
                    return expression.compiled ?? expression.source
                }
            }
        }
        // The record's ids are new for every record: an expression naming them reads chance
        // too. A preloaded value (the time, the user's name, a new id) counts when a question
        // shows it or an expression may read it (its name is in one, or a step reads nodes
        // without naming them: `meta/*`, `//`); the usual one, a hidden `meta/instanceID`, does not.
        let sources = expressions + outputSources + messageSources
        let readsUnnamed = sources.contains { $0.contains("/*") || $0.contains("//") }
        let preloadsRead = rules.nodes.contains { node in
            guard node.preload != nil else { return false }
            let name = String(node.path.split(separator: "/").last ?? "")
            return node.field != nil || readsUnnamed || sources.contains { $0.contains(name) }
        }
        judgesAnswersAlone =
            !preloadsRead
            && !sources.contains { source in
                ODKFunctions.callsVarying(source) || source.contains("instanceID") || source.contains("deprecatedID")
            }
    }

    /// A node's label then hint in the default language, as text and outputs.
    package static func textSegments(of node: XFormNode, in translations: XFormTranslations) -> [XFormSegment] {
        (node.label?.segments(in: translations) ?? []) + (node.hint?.segments(in: translations) ?? [])
    }

    /// A node path as the instance is walked: by local names (`orx:meta` is `meta` there).
    static func localPath(_ path: String) -> [String] {
        path.split(separator: "/").map { String($0.split(separator: ":").last ?? $0) }
    }

    /// The steps in dependency order: each after its group and after the nodes its `relevant`,
    /// `calculate` and `readonly` read (document order among the free ones; a cycle, which the
    /// importer refuses among calculates, keeps document order).
    static func ordered(_ steps: [Step], byPath: [String: Int]) -> [Step] {
        // Each path's node and every node below it, worked out once: a group read is read whole.
        var within: [String: [Int]] = [:]
        for (path, index) in byPath {
            var prefix = Substring(path)
            while !prefix.isEmpty {
                within[String(prefix), default: []].append(index)
                guard let slash = prefix.lastIndex(of: "/") else { break }
                prefix = prefix[..<slash]
            }
        }
        var reads: [[Int]] = Array(repeating: [], count: steps.count)
        for (index, step) in steps.enumerated() {
            var before: Set<Int> = []
            if let parent = step.parent { before.insert(parent) }
            // What they read was resolved at import (`XFormExpression.reads`).
            for expression in [step.node.bind?.relevant, step.node.bind?.calculate, step.node.bind?.readonly] {
                for prefix in expression?.reads ?? [] {
                    // A group read is read whole: every node below it first.
                    for other in within[prefix] ?? [] where other != index { before.insert(other) }
                }
            }
            reads[index] = before.sorted()
        }
        var done = Array(repeating: false, count: steps.count)
        var visiting = Array(repeating: false, count: steps.count)
        var order: [Int] = []
        func visit(_ index: Int) {
            guard !done[index], !visiting[index] else { return }
            visiting[index] = true
            for before in reads[index] { visit(before) }
            visiting[index] = false
            done[index] = true
            order.append(index)
        }
        for index in steps.indices { visit(index) }
        return order.map { steps[$0] }
    }

    /// Judges one submission: `submitted` holds each field's value in ODK's lexical form
    /// (`2024-05-15`, `a b` for a multiple select, `OK` for an acknowledged trigger), an item's
    /// under its input name (`members[1].age`); unknown names are ignored. Each evaluation may run
    /// at most `operationLimit` libxml2 operations.
    /// - Parameters:
    ///   - counts: how many items each list has, by its path (`members`, `members[0].doses`); a
    ///     list whose count the rules give (`jr:count`) has theirs instead.
    ///   - meta: who submits and what it replaces: the preloads' values and the instance's
    ///     `meta/instanceID` (and `deprecatedID` for an edit).
    package func judge(
        _ submitted: [String: String], counts: [String: Int] = [:], host: any XPathHost,
        meta: XFormMeta = XFormMeta(), operationLimit: Int = XFormJudge.operationLimit
    ) -> Verdict {
        var counts = counts
        var verdict = judgeOnce(submitted, counts: counts, host: host, meta: meta, operationLimit: operationLimit)
        // A count the rules give may read answers of the items it counts (rarely): judged again
        // with it, a few times at most.
        for _ in 0..<3 where verdict.itemCounts.contains(where: { counts[$0.key] != $0.value }) {
            counts.merge(verdict.itemCounts) { _, fixed in fixed }
            verdict = judgeOnce(submitted, counts: counts, host: host, meta: meta, operationLimit: operationLimit)
        }
        return verdict
    }

    private func judgeOnce(
        _ submitted: [String: String], counts: [String: Int], host: any XPathHost, meta: XFormMeta,
        operationLimit: Int
    ) -> Verdict {
        let instance = template.copy()
        let (items, lists) = placeItems(in: instance, counts: counts)
        let placed = placed(in: instance, items: items)
        let evaluator = XPathEvaluator(
            program: program, instance: instance, secondary: secondary, host: host, operationLimit: operationLimit)
        let meta = meta.identified()
        let previous = meta.previous.flatMap { try? XPathDocument.parse(Array($0.utf8)) }
        // What a node read-only for these values keeps: its default or preload.
        var kept: [String: String] = [:]
        for place in placed {
            let step = place.step
            if let preload = step.node.preload {
                place.node.text = meta.value(of: preload, kept: previous?.node(at: step.path)?.text, host: host)
            } else if let previous, step.scope == nil, step.node.field == nil, step.calculate == nil,
                !step.node.isGroup, let old = previous.node(at: step.path)
            {
                // An edit keeps the hidden values the first load gave the instance it replaces.
                place.node.text = old.text
            }
        }
        var errors: [String] = []
        // A new instance: the first-load `setvalue`s, after the preloads, before the answers.
        if previous == nil { loadFirst(instance, evaluator: evaluator, errors: &errors) }
        for place in placed {
            let step = place.step
            if step.readonly != nil, !step.node.isGroup { kept[place.key] = place.node.text }
            // Calculated values are the server's own; a submitted one is ignored, as is one for a
            // node read-only outright (a dynamic readonly is judged in order below).
            let fixed = step.calculate != nil || XFormBind.isTrue(step.node.bind?.readonly) || step.node.preload != nil
            if let field = place.field, !fixed, let value = submitted[field] { place.node.text = value }
        }
        let identity = meta.identify(instance, previous: previous)
        var relevant: [String: Bool] = [:]
        var issues: [Verdict.Issue] = []
        func evaluate(_ index: Int, at node: XPathNode) -> XPathValue? {
            do {
                return try evaluator.evaluate(index, at: node)
            } catch {
                errors.append("\(program.expressions[index]) at \(node.path): \(error.message)")
                return nil
            }
        }
        for place in placed {
            let step = place.step
            // Its group's relevance, decided before it (the group comes first in the order).
            var isRelevant = place.parentKey.flatMap { relevant[$0] } ?? true
            if isRelevant, let index = step.relevant {
                isRelevant = evaluate(index, at: place.node)?.booleanValue ?? false
            }
            relevant[place.key] = isRelevant
            guard isRelevant else {
                // Not relevant: empty in every later expression (kept aside by the caller's page).
                if !step.node.isGroup { place.node.text = "" }
                continue
            }
            if let index = step.calculate, let value = evaluate(index, at: place.node) {
                place.node.text = Self.stored(value, type: step.node.type)
            } else if let index = step.readonly, step.calculate == nil, let original = kept[place.key],
                evaluate(index, at: place.node)?.booleanValue == true
            {
                place.node.text = original
            }
        }
        var required: Set<String> = []
        var offered: [String: [String]] = [:]
        for place in placed where relevant[place.key] == true && !place.step.node.isGroup {
            guard let field = place.field else { continue }
            let step = place.step
            let node = place.node
            let value = node.text
            // The options the itemset offers for these answers (its filter applied), in its order.
            if let index = step.itemset, case .nodes(let items)? = evaluate(index, at: node) {
                let valueRef = step.node.itemset?.value ?? "value"
                var seen = Set<String>()
                offered[field] = items.compactMap { item in
                    guard let value = (try? evaluator.evaluate(valueRef, at: item))?.stringValue,
                        seen.insert(value).inserted
                    else { return nil }
                    return value
                }
            }
            let isRequired = step.required.map { evaluate($0, at: node)?.booleanValue == true } ?? false
            if isRequired { required.insert(field) }
            if value.isEmpty {
                if isRequired {
                    issues.append(
                        Verdict.Issue(
                            field: field, code: "required",
                            message: message(step.node.bind?.requiredMessage, at: node, evaluator: evaluator)
                                ?? XFormWording.required(label(step.node), control: step.node.control)))
                }
                continue
            }
            if let index = step.constraint, evaluate(index, at: node)?.booleanValue != true {
                issues.append(
                    Verdict.Issue(
                        field: field, code: "constraint",
                        message: message(step.node.bind?.constraintMessage, at: node, evaluator: evaluator)
                            ?? XFormWording.constraint(label(step.node))))
            }
            if let allowed = offered[field].map(Set.init) {
                // A multiple select's answer is its space-separated choices, whatever its bind's type.
                let several = step.node.control == "select" || step.node.type == "select"
                let chosen = several ? value.split(separator: " ").map(String.init) : [value]
                if chosen.contains(where: { !allowed.contains($0) }) {
                    issues.append(
                        Verdict.Issue(field: field, code: "choice", message: XFormWording.choice(label(step.node))))
                }
            }
        }
        var values: [String: String] = [:]
        var relevantFields = relevantLists(lists, items: items, relevant: relevant, evaluate: evaluate)
        for place in placed {
            guard let field = place.field, relevant[place.key] == true else { continue }
            relevantFields.insert(field)
            if !place.node.text.isEmpty { values[field] = place.node.text }
        }
        // What the relevant fields' labels and hints show, from the values as they now stand.
        var shown: [String: [String]] = [:]
        if !outputs.isEmpty {
            let texts = XPathEvaluator(
                program: outputProgram, instance: instance, secondary: secondary, host: host,
                operationLimit: operationLimit)
            for place in placed where relevant[place.key] == true {
                guard let indices = outputs[place.step.node.path], let field = place.field else { continue }
                shown[field] = indices.map { index in
                    index.flatMap { try? texts.evaluate($0, at: place.node).stringValue } ?? ""
                }
            }
        }
        let itemCounts = fixedCounts(lists, evaluate: evaluate)
        // The stored instance: non-relevant nodes removed, as ODK tools expect.
        for place in placed.reversed() where relevant[place.key] == false {
            place.node.remove()
        }
        return Verdict(
            issues: issues, required: required, outputs: shown, offered: offered, instanceID: identity?.text,
            values: values, relevant: relevantFields, instanceXML: instance.serialized(), errors: errors,
            itemCounts: itemCounts)
    }

    /// The form's own message in the default language, its outputs evaluated at the node.
    private func message(_ text: XFormText?, at node: XPathNode, evaluator: XPathEvaluator) -> String? {
        guard let segments = text?.segments(in: rules.translations) else { return nil }
        let message = segments.map { segment -> String in
            switch segment {
            case .text(let text): text
            case .output(let expression):
                (try? evaluator.evaluate(expression.compiled ?? expression.source, at: node))?.stringValue ?? ""
            }
        }.joined()
        return message.isEmpty ? nil : message
    }

    /// A node's label in the default language, outputs left out; its name when it has none.
    private func label(_ node: XFormNode) -> String {
        if let plain = plainLabels[node.path] { return plain }
        let text = node.label?.segments(in: rules.translations).map { XFormSegment.joined($0, placeholder: "") }
        let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        return trimmed.isEmpty ? node.field ?? node.path : trimmed
    }
}
