internal import CLibXML2
import Foundation

/// Per-parse state, reached from the SAX callbacks through the parser context's `_private`, and
/// the one parse both documents share (`parse(_:lean:make:)`): every guard is here.
final class ParseState {
    var diagnostics: [XMLDiagnostic] = []
    var depth = 0
    var tooDeepLine: Int?
    var doctypeLine: Int?
    var startElement: startElementNsSAX2Func?
    var endElement: endElementNsSAX2Func?
    /// The lean tree being built, for a lean parse (`LeanXMLDocument`).
    @exclusivity(unchecked) var lean: LeanBuilder?
    /// `lean`, for the SAX callbacks to use without retaining it.
    @exclusivity(unchecked) var leanRef: Unmanaged<LeanBuilder>?
    /// The root element's start tag, for a probe (`installProbe`).
    var root: XMLRootElement?
    /// The parser's line at the last start tag, for `startTagLine`.
    @exclusivity(unchecked) var lastStartLine = 0

    /// libxml2's options for every parse: no network, CDATA as text, line numbers past 65535.
    /// Never XML_PARSE_NOENT (it turns entity substitution on) nor XML_PARSE_DTDLOAD.
    static let options = XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_BIG_LINES.rawValue

    /// The bytes libxml2 is given: a UTF-8 byte order mark dropped (libxml2 copes with one, but
    /// without it the bytes are plain UTF-8 whatever the declaration says); a slice, not a copy.
    static func body(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
    }

    /// Parses bytes under `XMLLimits` in a fresh parser context, refusing any DOCTYPE, into
    /// libxml2's tree or (`lean`) into a `LeanBuilder`, then hands a parse that passed every guard
    /// to `make`, with the tree libxml2 made (nil for a lean parse; `make` owns it), the context
    /// (freed when `make` returns) and the bytes parsed. Throws why it refused (`XMLParseError`).
    static func parse<Document>(
        _ bytes: [UInt8], lean: Bool,
        make: (_ parsed: xmlDocPtr?, _ ctxt: xmlParserCtxtPtr, _ state: ParseState, _ body: ArraySlice<UInt8>)
            throws(XMLParseError) -> Document
    ) throws(XMLParseError) -> Document {
        guard bytes.count <= XMLLimits.maximumDocumentBytes else {
            throw XMLParseError(.tooLarge(size: bytes.count))
        }
        LibXML2.ensureInitialised()
        let body = body(bytes)

        guard let ctxt = xmlNewParserCtxt() else { throw XMLParseError(.noParser) }
        defer { xmlFreeParserCtxt(ctxt) }

        let state = ParseState()
        ctxt.pointee._private = Unmanaged.passUnretained(state).toOpaque()
        if lean {
            state.installLean(on: ctxt, documentSize: body.count)
        } else {
            state.install(on: ctxt)
        }

        // NOBLANKS for the lean tree: element-only formats keep no blank text between elements.
        let options = Int32(Self.options | (lean ? XML_PARSE_NOBLANKS.rawValue : 0))
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

        func refused(_ error: XMLParseError) -> XMLParseError {
            if let parsed { xmlFreeDoc(parsed) }
            return error
        }
        if let line = state.doctypeLine { throw refused(XMLParseError(.doctype, line: line)) }
        if let line = state.tooDeepLine { throw refused(XMLParseError(.tooDeep, line: line)) }
        let errors = state.diagnostics.filter(\.isError)
        guard wellFormed, errors.isEmpty else { throw refused(malformed(errors)) }
        return try make(parsed, ctxt, state, body)
    }

    /// What libxml2 reported that is not an error (errors make `parse` throw instead).
    var warnings: [XMLDiagnostic] { diagnostics.filter { !$0.isError } }

    /// The refusal of a document that is not well-formed.
    static func malformed(_ errors: [XMLDiagnostic]) -> XMLParseError {
        // libxml2 keeps reporting after the first fatal error, but the rest are echoes of it
        // ("tag mismatch" for every enclosing element): the first one is the one to fix.
        guard let error = errors.first else { return XMLParseError(.malformed(message: nil)) }
        // libxml2 stops at its own depth limit too; call it what it is.
        if error.code == Int(XML_ERR_INTERNAL_ERROR.rawValue), error.message.hasPrefix("Excessive depth") {
            return XMLParseError(.tooDeep, line: error.line, column: error.column)
        }
        return XMLParseError(.malformed(message: error.message), line: error.line, column: error.column)
    }

    static func from(_ ctx: UnsafeMutableRawPointer?) -> (xmlParserCtxtPtr, ParseState)? {
        guard let ctx else { return nil }
        let ctxt = ctx.assumingMemoryBound(to: xmlParserCtxt.self)
        guard let state = ctxt.pointee._private else { return nil }
        return (ctxt, Unmanaged<ParseState>.fromOpaque(state).takeUnretainedValue())
    }

    static func currentLine(_ ctxt: xmlParserCtxtPtr) -> Int {
        ctxt.pointee.input.map { Int($0.pointee.line) } ?? 0
    }

    /// libxml2 stamps a new element with the line where its start tag *ends*; errors should point
    /// where it begins. The start tag's `<` is the nearest one before the parser's position,
    /// since `<` cannot occur inside a tag (not even in attribute values).
    static func moveLineToTagStart(_ ctxt: xmlParserCtxtPtr) {
        guard let node = ctxt.pointee.node else { return }
        let newlines = newlinesInStartTag(ctxt)
        // Lines past 65535 are kept elsewhere by BIG_LINES; leave those alone.
        let line = node.pointee.line
        if newlines > 0, line < UInt16.max, Int(line) > newlines { node.pointee.line = line - UInt16(newlines) }
    }

    /// The line where the start tag being parsed begins. `previous` is the parser's line at the
    /// previous start tag: when the line has not changed since, no tag can span lines.
    static func startTagLine(_ ctxt: xmlParserCtxtPtr, previous: inout Int) -> Int {
        let line = currentLine(ctxt)
        if line == previous { return line }
        previous = line
        let newlines = newlinesInStartTag(ctxt)
        return newlines > 0 && line > newlines ? line - newlines : line
    }

    /// The line breaks between the start tag's `<` and the parser's position.
    private static func newlinesInStartTag(_ ctxt: xmlParserCtxtPtr) -> Int {
        guard let input = ctxt.pointee.input, var p = input.pointee.cur, let base = input.pointee.base else { return 0 }
        var newlines = 0
        while p > base {
            // Most bytes of a tag are neither `<` nor a line break: pass them eight at a time.
            while p - base >= 8 {
                let word = UnsafeRawPointer(p - 8).loadUnaligned(as: UInt64.self)
                if ByteScan.hasByte(word, UInt8(ascii: "<")) || ByteScan.hasByte(word, UInt8(ascii: "\n")) { break }
                p -= 8
            }
            var left = min(8, p - base)
            while left > 0 {
                p -= 1
                left -= 1
                if p.pointee == UInt8(ascii: "<") { return newlines }
                if p.pointee == UInt8(ascii: "\n") { newlines += 1 }
            }
        }
        return 0
    }

    /// Replaces the context's tree-building SAX callbacks with ones that build a `LeanTree`
    /// (a per-context copy of the handler, so nothing global changes).
    func installLean(on ctxt: xmlParserCtxtPtr, documentSize: Int) {
        guard let sax = ctxt.pointee.sax else { return }
        installGuards(sax)
        lean = LeanBuilder(capacity: max(documentSize, 4096))
        Self.buildNoTree(sax)
        leanRef = Unmanaged.passUnretained(lean!)
        sax.pointee.startElementNs = { ctx, localName, _, uri, _, _, attributeCount, _, attributes in
            ParseState.withLean(ctx) { ctxt, state, lean in
                guard let localName else { return }
                state.depth += 1
                if state.depth > XMLLimits.maximumDepth {
                    state.tooDeepLine = ParseState.currentLine(ctxt)
                    xmlStopParser(ctxt)
                    return
                }
                lean.start(
                    name: localName, uri: uri, line: ParseState.startTagLine(ctxt, previous: &state.lastStartLine),
                    space: ctxt.pointee.space.map { $0.pointee } ?? -1, attributeCount: Int(attributeCount),
                    attributes: attributes)
            }
        }
        sax.pointee.endElementNs = { ctx, _, _, _ in
            ParseState.withLean(ctx) { _, state, lean in
                state.depth -= 1
                lean.end()
            }
        }
        sax.pointee.characters = { ctx, chars, length in
            ParseState.withLean(ctx) { ctxt, _, lean in
                guard let chars, let input = ctxt.pointee.input, let cur = input.pointee.cur,
                    let base = input.pointee.base,
                    let end = input.pointee.end
                else { return }
                // Character data comes from the input (or from a buffer of it); a reference's text
                // comes from elsewhere, the parser just past its `;`.
                let inInput = chars >= base && chars < end
                lean.text(
                    chars, Int(length), next: cur, isReference: !inInput && cur > base && cur[-1] == UInt8(ascii: ";"))
            }
        }
        sax.pointee.ignorableWhitespace = sax.pointee.characters
        sax.pointee.comment = { ctx, _ in
            ParseState.withLean(ctx) { _, _, lean in lean.childNode(isText: false) }
        }
        sax.pointee.processingInstruction = { ctx, _, _ in
            ParseState.withLean(ctx) { _, _, lean in lean.childNode(isText: false) }
        }
    }

    /// Replaces the context's SAX callbacks with the guards and one that records the root
    /// element's start tag in `root` and stops the parser there (`XMLRootElement.probe`): nothing
    /// is built, no DOCTYPE is followed, and nothing after the root's start tag is read.
    func installProbe(on ctxt: xmlParserCtxtPtr) {
        guard let sax = ctxt.pointee.sax else { return }
        installGuards(sax)
        Self.buildNoTree(sax)
        sax.pointee.endElementNs = nil
        sax.pointee.characters = nil
        sax.pointee.ignorableWhitespace = nil
        sax.pointee.comment = nil
        sax.pointee.processingInstruction = nil
        sax.pointee.startElementNs = { ctx, localName, _, uri, _, _, _, _, _ in
            guard let (ctxt, state) = ParseState.from(ctx), let localName else { return }
            state.root = XMLRootElement(
                localName: String(cString: localName), namespaceURI: uri.map { String(cString: $0) },
                line: ParseState.startTagLine(ctxt, previous: &state.lastStartLine))
            xmlStopParser(ctxt)
        }
    }

    /// Calls `body` with the state and lean builder of a parse, retaining neither (the parse
    /// keeps both alive): SAX callbacks run thousands of times.
    @inline(__always)
    static func withLean(_ ctx: UnsafeMutableRawPointer?, _ body: (xmlParserCtxtPtr, ParseState, LeanBuilder) -> Void) {
        guard let ctx else { return }
        let ctxt = ctx.assumingMemoryBound(to: xmlParserCtxt.self)
        guard let state = ctxt.pointee._private else { return }
        Unmanaged<ParseState>.fromOpaque(state)._withUnsafeGuaranteedRef { state in
            state.leanRef?._withUnsafeGuaranteedRef { body(ctxt, state, $0) }
        }
    }

    /// Takes away the callbacks that build libxml2's own tree: no document, no nodes.
    private static func buildNoTree(_ sax: UnsafeMutablePointer<xmlSAXHandler>) {
        sax.pointee.startDocument = nil
        sax.pointee.endDocument = nil
        sax.pointee.reference = nil
        sax.pointee.cdataBlock = nil
        sax.pointee.externalSubset = nil
        sax.pointee.startElement = nil
        sax.pointee.endElement = nil
    }

    /// Error capture and the DOCTYPE refusal, for every kind of parse.
    private func installGuards(_ sax: UnsafeMutablePointer<xmlSAXHandler>) {
        // With the default SAX2 handler the callbacks' user data is the parser context itself.
        sax.pointee.serror = { userData, error in
            guard let (_, state) = ParseState.from(userData), let error else { return }
            state.diagnostics.append(XMLDiagnostic(error))
        }
        // Called for every DOCTYPE, before its internal subset is read: stopping here refuses
        // XXE, parameter entities and entity expansion bombs before any entity is declared.
        sax.pointee.internalSubset = { ctx, _, _, _ in
            guard let (ctxt, state) = ParseState.from(ctx) else { return }
            state.doctypeLine = max(1, ParseState.currentLine(ctxt))
            xmlStopParser(ctxt)
        }
    }

    /// Hooks this state into the context's own SAX handler (a per-context copy, so nothing global changes).
    func install(on ctxt: xmlParserCtxtPtr) {
        guard let sax = ctxt.pointee.sax else { return }
        startElement = sax.pointee.startElementNs
        endElement = sax.pointee.endElementNs
        installGuards(sax)
        sax.pointee.startElementNs = {
            ctx, localName, prefix, uri, nsCount, namespaces, attrCount, defaulted, attributes in
            guard let (ctxt, state) = ParseState.from(ctx) else { return }
            state.depth += 1
            if state.depth > XMLLimits.maximumDepth {
                state.tooDeepLine = ParseState.currentLine(ctxt)
                xmlStopParser(ctxt)
                return
            }
            state.startElement?(ctx, localName, prefix, uri, nsCount, namespaces, attrCount, defaulted, attributes)
            ParseState.moveLineToTagStart(ctxt)
        }
        sax.pointee.endElementNs = { ctx, localName, prefix, uri in
            guard let (_, state) = ParseState.from(ctx) else { return }
            state.depth -= 1
            state.endElement?(ctx, localName, prefix, uri)
        }
    }
}
