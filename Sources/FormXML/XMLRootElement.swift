internal import CLibXML2

/// A document's root element as its start tag gives it, read before the document is parsed
/// (`probe`), so that the document is parsed once, into the representation its format needs:
/// libxml2's tree (`SafeXMLDocument`) or the lean one (`LeanXMLDocument`).
public struct XMLRootElement: Sendable, Hashable {
    public var localName: String
    /// The namespace its prefix (or the default namespace) is bound to; nil in no namespace.
    public var namespaceURI: String?
    /// 1-based line of the start tag's `<`.
    public var line: Int

    public init(localName: String, namespaceURI: String?, line: Int) {
        self.localName = localName
        self.namespaceURI = namespaceURI
        self.line = line
    }

    /// The root element of a document, read by libxml2 up to the root's start tag and no further:
    /// whatever the encoding (a byte order mark, UTF-16, a declared one), past a prolog of any
    /// length (declaration, comments, processing instructions). The same parser under the same
    /// guards as `SafeXMLDocument.parse` (no network, no entities, the size limit), in a context
    /// of its own, fed a few kilobytes at a time; a DOCTYPE stops it unread.
    ///
    /// Nil when the bytes do not reach a root that way (too large, a DOCTYPE, an error before the
    /// root, no root at all): the parse that follows then refuses the document and says why.
    public static func probe(_ bytes: [UInt8]) -> XMLRootElement? {
        guard bytes.count <= XMLLimits.maximumDocumentBytes else { return nil }
        LibXML2.ensureInitialised()
        let body = ParseState.body(bytes)
        guard let ctxt = xmlNewParserCtxt() else { return nil }
        defer { xmlFreeParserCtxt(ctxt) }

        let state = ParseState()
        ctxt.pointee._private = Unmanaged.passUnretained(state).toOpaque()
        state.installProbe(on: ctxt)
        withExtendedLifetime(state) {
            body.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                // libxml2 asks for more as it parses (4000 bytes at a time) and copies only what it
                // was given: reading a memory buffer instead would copy the whole document first.
                var reader = Reader(base: base, count: buffer.count)
                withUnsafeMutablePointer(to: &reader) { reader in
                    let parsed = xmlCtxtReadIO(
                        ctxt, Reader.read, nil, reader, nil, nil, Int32(ParseState.options))
                    if let parsed { xmlFreeDoc(parsed) }
                }
            }
        }
        return state.root
    }

    /// The bytes handed to libxml2 as it asks for them.
    private struct Reader {
        var base: UnsafePointer<UInt8>
        var count: Int
        var offset = 0

        static let read: xmlInputReadCallback = { context, buffer, length in
            guard let context, let buffer, length > 0 else { return 0 }
            let reader = context.assumingMemoryBound(to: Reader.self)
            let n = min(Int(length), reader.pointee.count - reader.pointee.offset)
            guard n > 0 else { return 0 }
            UnsafeMutableRawPointer(buffer).copyMemory(from: reader.pointee.base + reader.pointee.offset, byteCount: n)
            reader.pointee.offset += n
            return Int32(n)
        }
    }
}
