internal import CLibXML2

/// A parsed XML document as a lean element tree built from libxml2's SAX events (`XMLNode`),
/// for element-only formats such as EDMX: element names, attributes and the elements' own text,
/// blank text between elements dropped as `XML_PARSE_NOBLANKS` drops it. Far fewer allocations
/// to make and free than libxml2's tree, but nothing to validate or query with XPath: that is
/// `SafeXMLDocument`. Not thread-safe: keep it inside one task.
public final class LeanXMLDocument {
    @usableFromInline let tree: LeanTree
    /// Parser warnings (errors make `parse` throw instead).
    public let warnings: [XMLDiagnostic]
    /// The text parsed (shared with the caller's bytes, not copied), to locate what the tree does not.
    private let source: ArraySlice<UInt8>

    private init(tree: LeanTree, warnings: [XMLDiagnostic], source: ArraySlice<UInt8>) {
        self.tree = tree
        self.warnings = warnings
        self.source = source
    }

    /// The line and column of the start tag of `element` (its local name) on `line`, or with
    /// `attribute` of that attribute's name, which may be on a later line of the tag; nil when
    /// the text does not show it (another encoding than UTF-8).
    public func locate(line: Int, element: String, attribute: String? = nil) -> (line: Int, column: Int)? {
        locator.locate(line: line, element: element, attribute: attribute)
    }

    /// Reads the text on the first question only.
    private lazy var locator = SourceLocator(source)

    /// Calls `body` with the root element, the document kept alive meanwhile (a parsed document
    /// always has one). `@inlinable` with `XMLNode`, so that the importers' walks stay as fast as
    /// in their own module.
    @inlinable
    public func withRoot<R>(_ body: (XMLNode) throws -> R) rethrows -> R {
        try withExtendedLifetime(self) {
            try body(XMLNode(tree: UnsafePointer(tree.storage), index: 0))
        }
    }

    /// Parses bytes into a lean tree under `XMLLimits`, refusing any DOCTYPE; throws why it
    /// refused (`XMLParseError`). The guards are `ParseState.parse`'s, shared with `SafeXMLDocument`.
    public static func parse(_ bytes: [UInt8]) throws(XMLParseError) -> LeanXMLDocument {
        try ParseState.parse(bytes, lean: true) { parsed, ctxt, state, body throws(XMLParseError) in
            // No tree is made from SAX events; a document libxml2 made anyway is not needed.
            if let parsed { xmlFreeDoc(parsed) }
            guard let lean = state.lean, lean.elements.count > 0, let dict = ctxt.pointee.dict else {
                throw ParseState.malformed([])
            }
            // Names are the parser's interned strings: the tree keeps the dictionary alive.
            xmlDictReference(dict)
            return LeanXMLDocument(tree: LeanTree(lean, dict: dict), warnings: state.warnings, source: body)
        }
    }
}
