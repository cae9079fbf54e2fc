/// Why `SafeXMLDocument.parse` or `LeanXMLDocument.parse` refused a document, and where. The XML layer only says what
/// happened; the importers word it for their users (`ImportError(_:file:)` in `FormImport`).
public struct XMLParseError: Error, Sendable, Hashable {
    public enum Reason: Sendable, Hashable {
        /// Over `XMLLimits.maximumDocumentBytes` (`size` bytes), refused before parsing.
        case tooLarge(size: Int)
        /// The document declares a DOCTYPE: refused as soon as the parser sees it.
        case doctype
        /// Elements nested deeper than `XMLLimits.maximumDepth` (or libxml2's own depth limit).
        case tooDeep
        /// Not well-formed: libxml2's first error (its others are echoes of it), nil when it gave none.
        case malformed(message: String?)
        /// libxml2 could not create a parser (out of memory): not the document's fault.
        case noParser
    }

    public var reason: Reason
    /// 1-based, 0 when unknown.
    public var line: Int
    /// 1-based, 0 when unknown.
    public var column: Int

    public init(_ reason: Reason, line: Int = 0, column: Int = 0) {
        self.reason = reason
        self.line = line
        self.column = column
    }
}
