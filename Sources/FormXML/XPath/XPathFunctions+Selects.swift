internal import CLibXML2

extension XPathFunctions {
    /// The space-separated tokens of a select's value (any XML blank separates; empty tokens
    /// are not tokens).
    static func tokens(_ list: String) -> [Substring] {
        list.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
    }

    /// `selected(list, v)`: whether `v` (blanks around it ignored) is one of the tokens of
    /// `list`. An empty `v` is never selected (JavaRosa's text search finds "" in a list with
    /// two spaces in a row).
    static func selected(_ call: XPathCall) -> XPathCall.Result {
        let value = call.string(1).trimmingCharacters(in: .whitespacesAndNewlines)
        return .boolean(!value.isEmpty && tokens(call.string(0)).contains { $0 == value })
    }

    /// `count-selected(list)`: the number of tokens.
    static func countSelected(_ call: XPathCall) -> XPathCall.Result {
        .number(Double(tokens(call.string(0)).count))
    }

    /// `selected-at(list, i)`: the token at 0-based `i` (toward zero), "" when out of range,
    /// negative or NaN (JavaRosa reads NaN as 0).
    static func selectedAt(_ call: XPathCall) -> XPathCall.Result {
        let index = call.number(1)
        let list = tokens(call.string(0))
        guard !index.isNaN else { return .string("") }
        let i = integer(index)
        return .string(list.indices.contains(i) ? String(list[i]) : "")
    }

    /// `count-non-empty(nodes)`: the nodes whose value is not "".
    static func countNonEmpty(_ call: XPathCall) -> XPathCall.Result {
        guard let nodes = call.nodes(0) else { return call.invalid("takes a node-set") }
        return .number(Double(nodes.count { !XPathCall.string(of: $0).isEmpty }))
    }

    /// `position(node)`: the first node's 1-based position among its siblings of the same name
    /// (a repeat instance's index); 0 for an empty node-set (as JavaRosa). Without an argument
    /// libxml2's own `position()` runs instead (`XPathFunctionLibrary`).
    static func position(_ call: XPathCall) -> XPathCall.Result {
        guard let nodes = call.nodes(0) else { return call.invalid("takes a node") }
        guard let node = nodes.first else { return .number(0) }
        guard node.pointee.type == XML_ELEMENT_NODE else { return .number(1) }
        var position = 1
        var sibling = node.pointee.prev
        while let s = sibling {
            if s.pointee.type == XML_ELEMENT_NODE, xmlStrEqual(s.pointee.name, node.pointee.name) != 0,
                s.pointee.ns?.pointee.href.map({ xmlStrEqual($0, node.pointee.ns?.pointee.href) != 0 })
                    ?? (node.pointee.ns == nil)
            {
                position += 1
            }
            sibling = s.pointee.prev
        }
        return .number(Double(position))
    }

    /// `checklist(min, max, v...)`: whether the number of true `v` is within [min, max]
    /// (-1: no bound). Every node of a node-set given alone as `v` counts (`checklist(1, 2,
    /// /data/flags/*)`).
    static func checklist(_ call: XPathCall) -> XPathCall.Result {
        let minimum = integer(call.number(0))
        let maximum = integer(call.number(1))
        let flags: [Bool]
        if call.count == 3, let nodes = call.nodes(2) {
            flags = nodes.map { isTrue(XPathCall.string(of: $0)) }
        } else {
            flags = (2..<call.count).map { flag(call, $0) }
        }
        let count = flags.count { $0 }
        return .boolean((minimum < 0 || count >= minimum) && (maximum < 0 || count <= maximum))
    }

    /// `weighted-checklist(min, max, v1, w1, v2, w2, ...)`: whether the sum of the weights of
    /// the true `v` is within [min, max] (no -1 rule). With two node-sets (`v` and `w`), their
    /// nodes pair up, and must be as many.
    static func weightedChecklist(_ call: XPathCall) -> XPathCall.Result {
        let minimum = call.number(0)
        let maximum = call.number(1)
        var pairs: [(flag: Bool, weight: Double)] = []
        if call.count == 4, let flags = call.nodes(2), let weights = call.nodes(3) {
            guard flags.count == weights.count else {
                return call.invalid("the two node-sets hold \(flags.count) and \(weights.count) nodes")
            }
            pairs = zip(flags, weights).map {
                (isTrue(XPathCall.string(of: $0)), XPathValue.number(XPathCall.string(of: $1)))
            }
        } else {
            guard call.count % 2 == 0 else {
                return .failure(
                    code: XPathEvaluationError.arityCode,
                    message: "takes an even number of arguments, not \(call.count)")
            }
            pairs = stride(from: 2, to: call.count, by: 2).map { (flag(call, $0), call.number($0 + 1)) }
        }
        let sum = pairs.reduce(0.0) { $0 + ($1.flag ? $1.weight : 0) }
        return .boolean(sum >= minimum && sum <= maximum)
    }

    /// Whether a checklist argument is true: a node's value by `isTrue`, anything else by
    /// XPath's `boolean()`.
    private static func flag(_ call: XPathCall, _ index: Int) -> Bool {
        call.isNodeSet(index) ? isTrue(call.string(index)) : call.boolean(index)
    }

    /// Whether a node's value counts as a true answer in a checklist. JavaRosa reads typed
    /// values (an int 0 and a boolean `false` are false, any text is true); our values are
    /// untyped text, so: a number is true unless 0, `true`/`false` are what they say, other
    /// non-empty text is true, "" is false.
    static func isTrue(_ value: String) -> Bool {
        let text = value.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty || text == "false" { return false }
        if text == "true" { return true }
        let number = XPathValue.number(text)
        return number.isNaN || number != 0
    }
}

extension XPathFunctions {
    /// `indexed-repeat(name, repeat1, index1[, repeat2, index2, …])`: the nodes of `name` inside
    /// the `index1`th item (from 1) of `repeat1`, and within it the `index2`th of `repeat2`…, as
    /// ODK reads a value of one item from outside it. Empty when an index is past the items.
    static func indexedRepeat(_ call: XPathCall) -> XPathCall.Result {
        guard call.count % 2 == 1, let candidates = call.nodes(0) else {
            return call.invalid("takes a node-set, then repeats and their indices in pairs")
        }
        var item: xmlNodePtr?
        for pair in stride(from: 1, to: call.count, by: 2) {
            guard let repeats = call.nodes(pair) else { return call.invalid("takes repeats as node-sets") }
            let index = call.number(pair + 1)
            let inScope = repeats.filter { node in item.map { isWithin(node, $0) } ?? true }
            guard index.isFinite, index >= 1, Int(index) <= inScope.count else { return .nodes([]) }
            item = inScope[Int(index) - 1]
        }
        guard let item else { return .nodes([]) }
        return .nodes(candidates.filter { isWithin($0, item) })
    }

    /// Whether `node` is `ancestor` or below it.
    private static func isWithin(_ node: xmlNodePtr, _ ancestor: xmlNodePtr) -> Bool {
        var current: xmlNodePtr? = node
        while let step = current {
            if step == ancestor { return true }
            current = step.pointee.parent
        }
        return false
    }
}
