internal import CLibXML2

/// A parsed XML document that owns its libxml2 tree, or for element-only formats (EDMX) a lean
/// element tree built from libxml2's SAX events (`XMLNode`). Not thread-safe: keep it inside one task.
public final class SafeXMLDocument {
    /// The libxml2 tree; nil for a lean document.
    let doc: xmlDocPtr?
    /// The lean element tree; nil for a libxml2 tree.
    @usableFromInline let tree: LeanTree?
    /// Parser warnings (errors make `parse` throw instead).
    public let warnings: [XMLDiagnostic]
    /// The text parsed (shared with the caller's bytes, not copied), to locate what libxml2 does not.
    private let source: ArraySlice<UInt8>

    private init(doc: xmlDocPtr?, tree: LeanTree?, warnings: [XMLDiagnostic], source: ArraySlice<UInt8>) {
        self.doc = doc
        self.tree = tree
        self.warnings = warnings
        self.source = source
    }

    /// The line and column of the start tag of `element` (its local name) that libxml2 put on
    /// `line`, or with `attribute` of that attribute's name, which may be on a later line of the
    /// tag; nil when the text does not show it (another encoding than UTF-8).
    public func locate(line: Int, element: String, attribute: String? = nil) -> (line: Int, column: Int)? {
        locator.locate(line: line, element: element, attribute: attribute)
    }

    /// Reads the text on the first question only.
    private lazy var locator = SourceLocator(source)

    deinit { if let doc { xmlFreeDoc(doc) } }

    /// The root element of a libxml2 tree; nil for a lean document (see `withRoot`).
    public var root: SafeXMLElement? {
        guard let doc, let node = xmlDocGetRootElement(doc) else { return nil }
        return SafeXMLElement(document: self, node: node)
    }

    /// Whether the document was parsed into a lean element tree (`XMLNode`) rather than libxml2's.
    public var isLean: Bool { tree != nil }

    /// The root element's local name, namespace and line, however the document was parsed.
    public var rootName: (localName: String, namespaceURI: String?, line: Int)? {
        if let root { return (root.localName, root.namespaceURI, root.line) }
        return withRoot { ($0.localName, $0.namespaceURI, $0.line) }
    }

    /// Calls `body` with the root element of a lean document as an `XMLNode`, the document kept
    /// alive meanwhile; nil for a document without a root or not parsed `elementsOnly`.
    @inlinable
    public func withRoot<R>(_ body: (XMLNode) throws -> R) rethrows -> R? {
        try withExtendedLifetime(self) {
            guard let tree, tree.storage.pointee.elementCount > 0 else { return nil }
            return try body(XMLNode(tree: UnsafePointer(tree.storage), index: 0))
        }
    }

    /// Parses bytes under `XMLLimits`, refusing any DOCTYPE; throws why it refused (`XMLParseError`).
    /// - Parameter elementsOnly: true builds no libxml2 tree but a lean element tree (`XMLNode`,
    ///   through `withRoot`) for element-only formats such as EDMX: element names, attributes and
    ///   the elements' own text, blank text between elements dropped as `XML_PARSE_NOBLANKS` does.
    ///   Far fewer allocations to make and free than a libxml2 tree.
    public static func parse(_ bytes: [UInt8], elementsOnly: Bool = false) throws(XMLParseError) -> SafeXMLDocument {
        guard bytes.count <= XMLLimits.maximumDocumentBytes else {
            throw XMLParseError(.tooLarge(size: bytes.count))
        }
        LibXML2.ensureInitialised()

        let body = ParseState.body(bytes)

        guard let ctxt = xmlNewParserCtxt() else { throw XMLParseError(.noParser) }
        defer { xmlFreeParserCtxt(ctxt) }

        let state = ParseState()
        ctxt.pointee._private = Unmanaged.passUnretained(state).toOpaque()
        if elementsOnly {
            state.installLean(on: ctxt, documentSize: body.count)
        } else {
            state.install(on: ctxt)
        }

        let options = Int32(ParseState.options | (elementsOnly ? XML_PARSE_NOBLANKS.rawValue : 0))
        let parsed: xmlDocPtr? = withExtendedLifetime(state) {
            body.withUnsafeBufferPointer { buffer in
                buffer.baseAddress.flatMap { base in
                    base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                        xmlCtxtReadMemory(ctxt, $0, Int32(buffer.count), nil, nil, options)
                    }
                }
            }
        }
        let wellFormed = ctxt.pointee.wellFormed != 0

        if let line = state.doctypeLine {
            if let parsed { xmlFreeDoc(parsed) }
            throw XMLParseError(.doctype, line: line)
        }
        if let line = state.tooDeepLine {
            if let parsed { xmlFreeDoc(parsed) }
            throw XMLParseError(.tooDeep, line: line)
        }
        let errors = state.diagnostics.filter(\.isError)
        if let lean = state.lean {
            // No tree is made from SAX events; a document libxml2 made anyway is not needed.
            if let parsed { xmlFreeDoc(parsed) }
            guard wellFormed, errors.isEmpty, lean.elements.count > 0, let dict = ctxt.pointee.dict else {
                throw malformed(errors)
            }
            // Names are the parser's interned strings: the tree keeps the dictionary alive.
            xmlDictReference(dict)
            return SafeXMLDocument(
                doc: nil, tree: LeanTree(lean, dict: dict), warnings: state.diagnostics.filter { !$0.isError },
                source: body)
        }
        guard let parsed, wellFormed, errors.isEmpty else {
            if let parsed { xmlFreeDoc(parsed) }
            throw malformed(errors)
        }
        // Second wall: the SAX hook above should have stopped any DOCTYPE already.
        if parsed.pointee.intSubset != nil || parsed.pointee.extSubset != nil {
            xmlFreeDoc(parsed)
            throw XMLParseError(.doctype, line: 1)
        }
        return SafeXMLDocument(
            doc: parsed, tree: nil, warnings: state.diagnostics.filter { !$0.isError }, source: body)
    }

    private static func malformed(_ errors: [XMLDiagnostic]) -> XMLParseError {
        // libxml2 keeps reporting after the first fatal error, but the rest are echoes of it
        // ("tag mismatch" for every enclosing element): the first one is the one to fix.
        guard let error = errors.first else { return XMLParseError(.malformed(message: nil)) }
        // libxml2 stops at its own depth limit too; call it what it is.
        if error.code == Int(XML_ERR_INTERNAL_ERROR.rawValue), error.message.hasPrefix("Excessive depth") {
            return XMLParseError(.tooDeep, line: error.line, column: error.column)
        }
        return XMLParseError(.malformed(message: error.message), line: error.line, column: error.column)
    }

    /// The libxml2 tree, for the schema validator; nil for a lean tree (parsed `elementsOnly`, which keeps no DOM).
    func withDocPointer<T>(_ body: (xmlDocPtr?) -> T) -> T {
        withExtendedLifetime(self) { body(doc) }
    }
}
