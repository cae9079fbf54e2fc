internal import CLibXML2

/// A parsed XML document that owns its libxml2 tree: what XSD validation (`XMLSchemaValidator`)
/// and, for XForms, XPath read. Element-only formats read faster from a `LeanXMLDocument`.
/// Not thread-safe: keep it inside one task.
public final class SafeXMLDocument {
    private let doc: xmlDocPtr
    /// Parser warnings (errors make `parse` throw instead).
    public let warnings: [XMLDiagnostic]
    /// The text parsed (shared with the caller's bytes, not copied), to locate what libxml2 does not.
    private let source: ArraySlice<UInt8>

    private init(doc: xmlDocPtr, warnings: [XMLDiagnostic], source: ArraySlice<UInt8>) {
        self.doc = doc
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

    deinit { xmlFreeDoc(doc) }

    /// The root element.
    public var root: SafeXMLElement? {
        guard let node = xmlDocGetRootElement(doc) else { return nil }
        return SafeXMLElement(document: self, node: node)
    }

    /// Parses bytes into libxml2's tree under `XMLLimits`, refusing any DOCTYPE; throws why it
    /// refused (`XMLParseError`). The guards are `ParseState.parse`'s, shared with `LeanXMLDocument`.
    public static func parse(_ bytes: [UInt8]) throws(XMLParseError) -> SafeXMLDocument {
        try ParseState.parse(bytes, lean: false) { parsed, _, state, body throws(XMLParseError) in
            guard let parsed else { throw ParseState.malformed([]) }
            // Second wall: the SAX hook should have stopped any DOCTYPE already.
            if parsed.pointee.intSubset != nil || parsed.pointee.extSubset != nil {
                xmlFreeDoc(parsed)
                throw XMLParseError(.doctype, line: 1)
            }
            return SafeXMLDocument(doc: parsed, warnings: state.warnings, source: body)
        }
    }

    /// The libxml2 tree, for the schema validator.
    func withDocPointer<T>(_ body: (xmlDocPtr) -> T) -> T {
        withExtendedLifetime(self) { body(doc) }
    }
}
