internal import CLibXML2

/// One submission's evaluation: a fresh libxml2 XPath context on its instance document, with
/// the ODK function library (`XPathFunctionLibrary`) and the program's namespace prefixes
/// registered, the secondary instances reachable by `instance('id')`, and an operation limit on
/// every evaluation.
///
/// Errors come from the context's own structured error callback and from the result (libxml2
/// gives no result without a word for an unbound prefix), never from stderr: libxml2's generic
/// error handler is silenced on the evaluating thread for the length of each call.
///
/// Use it from one task at a time (it is not Sendable). The instance document must be writable
/// by that task alone; the secondary ones may be shared read-only documents.
public final class XPathEvaluator {
    private let program: XPathProgram
    /// Checked out of the program's pool on the first `evaluate(_:at:)` by index, returned in deinit.
    private var compiled: XPathProgram.CompiledSet?
    private let context: xmlXPathContextPtr
    private let state: XPathEvaluationState
    /// The documents whose nodes results may hold, by libxml2 document (kept alive here).
    private let documents: [xmlDocPtr: XPathDocument]
    /// The most operations libxml2 may run for one evaluation (`ctx->opLimit`).
    public let operationLimit: Int
    /// What is left of the work this submission's `regex()` calls share.
    var patternWorkLeft: Int { state.patternWork }

    /// - Parameters:
    ///   - program: the form version's compiled expressions and namespaces.
    ///   - instance: the submission's instance document; absolute paths (`/data/age`) start at its root.
    ///   - secondary: the secondary instances by id, for `instance('id')`: read-only documents
    ///     (`XPathDocument.isReadOnly`), so that `/` inside their predicates stays `instance`'s root.
    ///   - host: itext, option labels, the clock and the zone.
    ///   - operationLimit: libxml2 operations one evaluation may run (`ctx->opLimit`, counted
    ///     afresh for each); past it the evaluation fails with code 1225.
    public init(
        program: XPathProgram, instance: XPathDocument, secondary: [String: XPathDocument], host: any XPathHost,
        operationLimit: Int = 100_000
    ) {
        LibXML2.ensureInitialised()
        precondition(secondary.values.allSatisfy(\.isReadOnly), "secondary instances must be read-only XPathDocuments")
        self.program = program
        self.operationLimit = operationLimit
        var documents = [instance.doc: instance]
        for document in secondary.values { documents[document.doc] = document }
        self.documents = documents
        guard let context = xmlXPathNewContext(instance.doc) else { fatalError("libxml2 could not allocate") }
        self.context = context
        state = XPathEvaluationState(host: host, secondary: secondary.mapValues(\.doc))
        state.install(on: context)
        state.watchLookups(on: context)
        XPathFunctionLibrary.register(on: context, namespaces: program.namespaces)
    }

    deinit {
        xmlXPathFreeContext(context)
        if let compiled { program.checkIn(compiled) }
    }

    /// Evaluates the program's expression `index` with `.` and `current()` = `node` (a node of
    /// the instance or of a secondary instance, e.g. an itemset's item).
    public func evaluate(_ index: Int, at node: XPathNode) throws(XPathEvaluationError) -> XPathValue {
        precondition(program.expressions.indices.contains(index), "no expression \(index) in the program")
        let set = compiled ?? program.checkOut()
        compiled = set
        let expression = set.expressions[index]
        return try run(at: node, source: program.expressions[index]) {
            fieldwork_xpath_eval(expression, context, UInt(operationLimit))
        }
    }

    /// Compiles and evaluates an expression that is not in the program (an `<output value>`),
    /// with `.` and `current()` = `node`; a syntax error is an `XPathEvaluationError` too (1207…).
    public func evaluate(_ expression: String, at node: XPathNode) throws(XPathEvaluationError) -> XPathValue {
        guard let compiled = state.compile(expression, on: context) else {
            let error = state.error ?? (XPathEvaluationError.syntaxCode, "Invalid expression", 0)
            throw XPathEvaluationError(message: error.message, code: error.code)
        }
        defer { xmlXPathFreeCompExpr(compiled) }
        return try run(at: node, source: expression) { fieldwork_xpath_eval(compiled, context, UInt(operationLimit)) }
    }

    private func run(
        at node: XPathNode, source: String, _ body: () -> xmlXPathObjectPtr?
    )
        throws(XPathEvaluationError) -> XPathValue
    {
        precondition(document(of: node.node) != nil, "the node is in none of this evaluator's documents")
        state.error = nil
        state.lookedUp = (nil, nil)
        state.boundNode = node.node
        context.pointee.node = node.node
        context.pointee.contextSize = 1
        context.pointee.proximityPosition = 1
        let result = withExtendedLifetime(node) { body() }
        state.boundNode = nil
        guard let result else { throw failure(source) }
        defer { xmlXPathFreeObject(result) }
        return value(of: result)
    }

    /// Why libxml2 gave no result: the error it reported (an unknown function named), else (it
    /// reports none for a prefix bound to no namespace) the first prefix of the expression the
    /// context does not know.
    private func failure(_ source: String) -> XPathEvaluationError {
        if let error = state.error {
            if error.code == XPathEvaluationError.unknownFunctionCode, let name = state.lookedUp.name {
                var qualified = String(cString: name)
                if let uri = state.lookedUp.uri.map({ String(cString: $0) }) {
                    let prefix = program.namespaces.filter { $0.value == uri }.keys.min()
                    qualified = (prefix.map { $0 + ":" } ?? "{\(uri)}") + qualified
                }
                return XPathEvaluationError(message: "Unregistered function \(qualified)()", code: error.code)
            }
            return XPathEvaluationError(message: error.message, code: error.code)
        }
        if let prefix = Self.prefixes(in: source).first(where: { program.namespaces[$0] == nil }) {
            return XPathEvaluationError(
                message: "Undefined namespace prefix '\(prefix)'", code: XPathEvaluationError.unboundPrefixCode)
        }
        return XPathEvaluationError(message: "The expression gave no result", code: XPathEvaluationError.syntaxCode)
    }

    /// The namespace prefixes an expression uses (`jr` in `jr:itext(...)`, `orx` in `orx:meta`),
    /// outside string literals; an axis (`child::`) is not one.
    static func prefixes(in expression: String) -> [String] {
        let bytes = Array(expression.utf8)
        var result: [String] = []
        var index = 0
        func isNameByte(_ byte: UInt8) -> Bool {
            byte >= 0x80 || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
                || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                index += 1
                while index < bytes.count, bytes[index] != byte { index += 1 }
                index += 1
                continue
            }
            guard isNameByte(byte) else {
                index += 1
                continue
            }
            let start = index
            while index < bytes.count, isNameByte(bytes[index]) { index += 1 }
            if index + 1 < bytes.count, bytes[index] == UInt8(ascii: ":"), bytes[index + 1] != UInt8(ascii: ":"),
                isNameByte(bytes[index + 1]) || bytes[index + 1] == UInt8(ascii: "*")
            {
                result.append(String(decoding: bytes[start..<index], as: UTF8.self))
            } else if index + 1 < bytes.count, bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == UInt8(ascii: ":")
            {
                index += 2
            }
        }
        return result
    }

    /// The document a node is in: its `doc`, or, for a read-only document whose nodes have
    /// none (`XPathDocument`), the document node at the top of its ancestors.
    private func document(of node: xmlNodePtr) -> XPathDocument? {
        if let doc = node.pointee.doc { return documents[doc] }
        var top = node
        while let parent = top.pointee.parent { top = parent }
        guard top.pointee.type == XML_DOCUMENT_NODE else { return nil }
        return documents[xmlDocPtr(OpaquePointer(top))]
    }

    /// A libxml2 result as a Swift value (before the result is freed).
    private func value(of result: xmlXPathObjectPtr) -> XPathValue {
        switch result.pointee.type {
        case XPATH_BOOLEAN:
            return .boolean(result.pointee.boolval != 0)
        case XPATH_NUMBER:
            return .number(result.pointee.floatval)
        case XPATH_STRING:
            return .string(result.pointee.stringval.map { String(cString: $0) } ?? "")
        case XPATH_NODESET, XPATH_XSLT_TREE:
            guard let set = result.pointee.nodesetval else { return .nodes([]) }
            xmlXPathNodeSetSort(set)
            var nodes: [XPathNode] = []
            nodes.reserveCapacity(Int(set.pointee.nodeNr))
            for i in 0..<Int(set.pointee.nodeNr) {
                guard let node = set.pointee.nodeTab[i], node.pointee.type != XML_NAMESPACE_DECL,
                    let document = document(of: node)
                else { continue }
                nodes.append(XPathNode(document: document, node: node))
            }
            return .nodes(nodes)
        default:
            return .string(LibXML2.owned(xmlXPathCastToString(result)) ?? "")
        }
    }
}
