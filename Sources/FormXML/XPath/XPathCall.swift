internal import CLibXML2

/// One call of an ODK function from libxml2: the arguments, already evaluated, popped off the
/// value stack in their written order, with conversions by XPath 1.0's rules (libxml2's own).
/// `run` checks the count, calls the function and pushes what it returns; the popped objects
/// are freed after, except one handed back as the result (`if()`, `coalesce()`).
struct XPathCall {
    let ctxt: xmlXPathParserContextPtr
    let state: XPathEvaluationState
    let arguments: [xmlXPathObjectPtr]

    /// What a function gives back.
    enum Result {
        case number(Double)
        case string(String)
        case boolean(Bool)
        case nodes([xmlNodePtr])
        /// The argument at this index, as it is (its type kept).
        case argument(Int)
        /// An error: libxml2's code (1200 + `xmlXPathError`) and our message.
        case failure(code: Int, message: String)
    }

    /// Runs `body` as the function `name` (qualified: `jr:itext`), with the arguments
    /// ``ODKFunctions`` says it takes.
    static func run(
        _ ctxt: xmlXPathParserContextPtr?, _ nargs: Int32, _ name: String, _ body: (XPathCall) -> Result
    ) {
        guard let ctxt, let state = XPathEvaluationState.of(ctxt),
            accepts(ctxt, state, nargs, name, ODKFunctions.arguments(of: name))
        else {
            return
        }
        let count = Int(nargs)
        var popped: [xmlXPathObjectPtr] = []
        popped.reserveCapacity(count)
        for _ in 0..<count {
            guard let object = valuePop(ctxt) else { break }
            popped.append(object)
        }
        let call = XPathCall(ctxt: ctxt, state: state, arguments: popped.reversed())
        var kept: Int?
        if popped.count == count {
            switch body(call) {
            case .number(let value):
                valuePush(ctxt, xmlXPathNewFloat(value))
            case .string(let value):
                valuePush(ctxt, LibXML2.withXMLChars(value) { xmlXPathNewString($0) })
            case .boolean(let value):
                valuePush(ctxt, xmlXPathNewBoolean(value ? 1 : 0))
            case .nodes(let nodes):
                let set = xmlXPathNodeSetCreate(nil)
                for node in nodes { xmlXPathNodeSetAdd(set, node) }
                valuePush(ctxt, xmlXPathWrapNodeSet(set))
            case .argument(let index):
                kept = index
                valuePush(ctxt, call.arguments[index])
            case .failure(let code, let message):
                fail(ctxt, state, code: code, message: "\(name)(): \(message)")
            }
        }
        for (index, object) in call.arguments.enumerated() where index != kept { xmlXPathFreeObject(object) }
    }

    /// Whether a call has an argument count `arity` allows, and its arguments are on the stack
    /// (CHECK_ARITY); raises the error when not.
    static func accepts(
        _ ctxt: xmlXPathParserContextPtr, _ state: XPathEvaluationState, _ nargs: Int32, _ name: String,
        _ arity: ClosedRange<Int>
    ) -> Bool {
        guard arity.contains(Int(nargs)) else {
            fail(ctxt, state, code: XPathEvaluationError.arityCode, message: arityMessage(name, arity, Int(nargs)))
            return false
        }
        guard ctxt.pointee.valueNr >= ctxt.pointee.valueFrame + nargs else {
            fail(ctxt, state, code: 1223, message: "\(name)(): XPath stack error")
            return false
        }
        return true
    }

    /// `accepts` for a function libxml2 runs itself once the count is right.
    static func accepts(_ ctxt: xmlXPathParserContextPtr?, _ nargs: Int32, _ name: String) -> Bool {
        guard let ctxt, let state = XPathEvaluationState.of(ctxt) else { return false }
        return accepts(ctxt, state, nargs, name, ODKFunctions.arguments(of: name))
    }

    /// Raises an XPath error on the run, with our message recorded first.
    static func fail(_ ctxt: xmlXPathParserContextPtr, _ state: XPathEvaluationState, code: Int, message: String) {
        state.record(code: code, message: message)
        xmlXPathErr(ctxt, Int32(code - 1200))
    }

    /// "round() takes 1 or 2 arguments, not 3".
    static func arityMessage(_ name: String, _ arity: ClosedRange<Int>, _ count: Int) -> String {
        let expected: String
        if arity.upperBound == Int.max {
            expected = "at least \(arity.lowerBound) argument" + (arity.lowerBound == 1 ? "" : "s")
        } else if arity.lowerBound == arity.upperBound {
            expected = "\(arity.lowerBound) argument" + (arity.lowerBound == 1 ? "" : "s")
        } else if arity.upperBound == arity.lowerBound + 1 {
            expected = "\(arity.lowerBound) or \(arity.upperBound) arguments"
        } else {
            expected = "\(arity.lowerBound) to \(arity.upperBound) arguments"
        }
        return "\(name)() takes \(expected), not \(count)"
    }

    // MARK: - Arguments

    var count: Int { arguments.count }

    /// XPath's `string()` of an argument (a node-set: its first node in document order).
    func string(_ index: Int) -> String {
        LibXML2.owned(xmlXPathCastToString(arguments[index])) ?? ""
    }

    /// XPath's `number()` of an argument (no date extension; see `XPathFunctions.number`).
    func number(_ index: Int) -> Double {
        xmlXPathCastToNumber(arguments[index])
    }

    /// XPath's `boolean()` of an argument (a node-set: whether it is non-empty).
    func boolean(_ index: Int) -> Bool {
        xmlXPathCastToBoolean(arguments[index]) != 0
    }

    func isNodeSet(_ index: Int) -> Bool {
        let type = arguments[index].pointee.type
        return type == XPATH_NODESET || type == XPATH_XSLT_TREE
    }

    func isNumber(_ index: Int) -> Bool { arguments[index].pointee.type == XPATH_NUMBER }

    func isString(_ index: Int) -> Bool { arguments[index].pointee.type == XPATH_STRING }

    /// A node-set argument's nodes in document order (namespace nodes left out); nil for
    /// another type.
    func nodes(_ index: Int) -> [xmlNodePtr]? {
        guard isNodeSet(index) else { return nil }
        guard let set = arguments[index].pointee.nodesetval else { return [] }
        xmlXPathNodeSetSort(set)
        var result: [xmlNodePtr] = []
        result.reserveCapacity(Int(set.pointee.nodeNr))
        for i in 0..<Int(set.pointee.nodeNr) {
            if let node = set.pointee.nodeTab[i], node.pointee.type != XML_NAMESPACE_DECL { result.append(node) }
        }
        return result
    }

    /// The values an argument stands for when a function takes "every node": each node's string
    /// value for a node-set, else its one string.
    func strings(_ index: Int) -> [String] {
        guard let nodes = nodes(index) else { return [string(index)] }
        return nodes.map(Self.string(of:))
    }

    /// XPath's string value of a node.
    static func string(of node: xmlNodePtr) -> String {
        LibXML2.owned(xmlXPathCastNodeToString(node)) ?? ""
    }

    /// Whether an argument counts as empty for `coalesce()`: an empty string (a node-set's first
    /// node's value, "" for none) or NaN.
    func isEmptyValue(_ index: Int) -> Bool {
        isNumber(index) ? number(index).isNaN : string(index).isEmpty
    }

    /// An invalid-argument error.
    func invalid(_ message: String) -> Result {
        .failure(code: XPathEvaluationError.invalidTypeCode, message: message)
    }
}
