import CLibXML2
import FormModel
import Foundation

// The only file that talks to libxml2. Everything here follows the safe-parsing recipe of
// notes/stack-facts.md: a fresh parser context per document, no network, no entity
// substitution, no DTD loading, per-context error capture, a deny-all external entity loader,
// and any DOCTYPE refused as soon as the parser sees it.

/// A message libxml2 reported while parsing or validating, with where it points.
struct XMLDiagnostic: Sendable, Hashable {
    var isError: Bool
    /// libxml2's `xmlParserErrors` code.
    var code: Int
    /// libxml2's text, trimmed.
    var message: String
    /// 1-based, 0 when unknown.
    var line: Int
    /// 1-based, 0 when unknown (validation errors have none).
    var column: Int
    /// For validation errors: the element concerned, its parent and the attribute, when libxml2 names them.
    var element: String?
    var parentElement: String?
    var attribute: String?
}

/// One attribute of an element.
struct XMLAttribute: Sendable, Hashable {
    var namespaceURI: String?
    var localName: String
    var value: String
}

/// A parsed XML document that owns its libxml2 tree. Not thread-safe: keep it inside one task.
final class SafeXMLDocument {
    fileprivate let doc: xmlDocPtr
    /// Parser warnings (errors make `parse` throw instead).
    let warnings: [XMLDiagnostic]

    private init(doc: xmlDocPtr, warnings: [XMLDiagnostic]) {
        self.doc = doc
        self.warnings = warnings
    }

    deinit { xmlFreeDoc(doc) }

    /// The root element.
    var root: SafeXMLElement? {
        guard let node = xmlDocGetRootElement(doc) else { return nil }
        return SafeXMLElement(document: self, node: node)
    }

    /// Parses bytes under `XMLLimits`, refusing any DOCTYPE; throws `too-large`, `doctype`, `too-deep` or `malformed-xml`.
    /// - Parameter keepBlankText: false drops text nodes that are only whitespace between elements
    ///   (`XML_PARSE_NOBLANKS`): for element-only formats such as EDMX, a smaller tree to build and walk.
    static func parse(_ bytes: [UInt8], file: String?, keepBlankText: Bool = true) throws(ImportFailure) -> SafeXMLDocument {
        guard bytes.count <= XMLLimits.maximumDocumentBytes else {
            throw ImportFailure([
                ImportError(
                    code: "too-large",
                    message: "The document is \(ByteSize.describe(bytes.count)); documents over \(ByteSize.describe(XMLLimits.maximumDocumentBytes)) are refused.",
                    file: file)
            ])
        }
        LibXML2.ensureInitialised()

        // libxml2 copes with a UTF-8 byte order mark, but dropping it keeps the bytes we hand
        // over plain UTF-8 whatever the declaration says.
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }

        guard let ctxt = xmlNewParserCtxt() else {
            throw ImportFailure([ImportError(code: "internal", message: "libxml2 could not create a parser; try again.", file: file)])
        }
        defer { xmlFreeParserCtxt(ctxt) }

        let state = ParseState()
        ctxt.pointee._private = Unmanaged.passUnretained(state).toOpaque()
        state.install(on: ctxt)

        let options = Int32(
            XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_BIG_LINES.rawValue
                | (keepBlankText ? 0 : XML_PARSE_NOBLANKS.rawValue))
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
            throw ImportFailure([doctypeError(file: file, line: line)])
        }
        if let line = state.tooDeepLine {
            if let parsed { xmlFreeDoc(parsed) }
            throw ImportFailure([
                ImportError(
                    code: "too-deep",
                    message: "Elements are nested more than \(XMLLimits.maximumDepth) deep; a form spec needs far fewer levels.",
                    file: file, line: line)
            ])
        }
        let errors = state.diagnostics.filter(\.isError)
        guard let parsed, wellFormed, errors.isEmpty else {
            if let parsed { xmlFreeDoc(parsed) }
            throw ImportFailure(malformed(errors, file: file))
        }
        // Second wall: the SAX hook above should have stopped any DOCTYPE already.
        if parsed.pointee.intSubset != nil || parsed.pointee.extSubset != nil {
            xmlFreeDoc(parsed)
            throw ImportFailure([doctypeError(file: file, line: 1)])
        }
        return SafeXMLDocument(doc: parsed, warnings: state.diagnostics.filter { !$0.isError })
    }

    private static func doctypeError(file: String?, line: Int) -> ImportError {
        ImportError(
            code: "doctype",
            message: "The document has a DOCTYPE; form specs must not declare one (remove <!DOCTYPE ...> and any entities).",
            file: file, line: line)
    }

    private static func malformed(_ errors: [XMLDiagnostic], file: String?) -> [ImportError] {
        if errors.isEmpty {
            return [ImportError(code: "malformed-xml", message: "The document is not well-formed XML; fix it and import again.", file: file)]
        }
        // libxml2 keeps reporting after the first fatal error, but the rest are echoes of it
        // ("tag mismatch" for every enclosing element): the first one is the one to fix.
        return errors.prefix(1).map { error in
            // libxml2 stops at its own depth limit too; call it what it is.
            if error.code == Int(XML_ERR_INTERNAL_ERROR.rawValue), error.message.hasPrefix("Excessive depth") {
                return ImportError(
                    code: "too-deep",
                    message: "Elements are nested more than \(XMLLimits.maximumDepth) deep; a form spec needs far fewer levels.",
                    file: file, line: error.line, column: error.column)
            }
            return ImportError(
                code: "malformed-xml", message: "Malformed XML: \(error.message). Fix the XML and import again.",
                file: file, line: error.line, column: error.column)
        }
    }
}

/// One element of a `SafeXMLDocument`; keeps its document alive.
struct SafeXMLElement {
    let document: SafeXMLDocument
    private let node: xmlNodePtr

    fileprivate init(document: SafeXMLDocument, node: xmlNodePtr) {
        self.document = document
        self.node = node
    }

    var localName: String { LibXML2.string(node.pointee.name) ?? "" }

    var namespaceURI: String? { node.pointee.ns.flatMap { LibXML2.string($0.pointee.href) } }

    /// 1-based line of the start tag. libxml2 does not keep columns for nodes.
    var line: Int { Int(xmlGetLineNo(node)) }

    /// The attributes in document order.
    var attributes: [XMLAttribute] {
        var result: [XMLAttribute] = []
        var attr = node.pointee.properties
        while let a = attr {
            result.append(
                XMLAttribute(
                    namespaceURI: a.pointee.ns.flatMap { LibXML2.string($0.pointee.href) },
                    localName: LibXML2.string(a.pointee.name) ?? "",
                    value: LibXML2.owned(xmlNodeListGetString(node.pointee.doc, a.pointee.children, 1)) ?? ""))
            attr = a.pointee.next
        }
        return result
    }

    /// The value of an attribute in no namespace, as unprefixed attributes are.
    func attribute(_ name: String) -> String? {
        XMLNode(node: node).attribute(name)
    }

    /// The child elements in document order (text, comments and processing instructions left out).
    var children: [SafeXMLElement] {
        var result: [SafeXMLElement] = []
        var child = node.pointee.children
        while let c = child {
            if c.pointee.type == XML_ELEMENT_NODE { result.append(SafeXMLElement(document: document, node: c)) }
            child = c.pointee.next
        }
        return result
    }

    /// All text inside the element.
    var textContent: String { LibXML2.owned(xmlNodeGetContent(node)) ?? "" }
}

/// An element or attribute name as libxml2 holds it, compared by identity: a cheap dictionary
/// key. Equal names of one document share one pointer when libxml2 interns them (it does by
/// default), but two keys that differ may still spell the same name, so use a key only to
/// cache what its text says, never to decide that two names differ.
struct XMLNameKey: Hashable {
    private let pointer: UnsafeRawPointer?

    fileprivate init(_ name: UnsafePointer<xmlChar>?) { pointer = name.map(UnsafeRawPointer.init) }

    /// The address, for caches of their own (`IdentityCache`); 0 for no name.
    var identity: UInt { UInt(bitPattern: pointer) }
}

/// An element seen without owning its document: what the OData reader walks, thousands of
/// elements at a time, without a retain and release per element. Valid only inside
/// `SafeXMLDocument.withRoot(_:)`, which keeps the document alive.
struct XMLNode {
    fileprivate let node: xmlNodePtr

    var localName: String { LibXML2.string(node.pointee.name) ?? "" }

    var namespaceURI: String? { node.pointee.ns.flatMap { LibXML2.string($0.pointee.href) } }

    /// 1-based line of the start tag.
    var line: Int { Int(xmlGetLineNo(node)) }

    /// The value of an attribute in no namespace.
    func attribute(_ name: String) -> String? {
        name.withCString { wanted in
            attributeNode { a in
                guard let n = a.pointee.name else { return false }
                return strcmp(UnsafeRawPointer(n).assumingMemoryBound(to: CChar.self), wanted) == 0
            }
        }.map(LibXML2.attributeValue)
    }

    /// The value of an attribute in no namespace, compared as C strings without building the name.
    func attribute(_ name: StaticString) -> String? {
        attributeNode { a in
            guard let n = a.pointee.name else { return false }
            return strcmp(UnsafeRawPointer(n).assumingMemoryBound(to: CChar.self), UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self)) == 0
        }.map(LibXML2.attributeValue)
    }

    /// Whether an attribute in no namespace is present.
    func hasAttribute(_ name: StaticString) -> Bool {
        attributeNode { a in
            guard let n = a.pointee.name else { return false }
            return strcmp(UnsafeRawPointer(n).assumingMemoryBound(to: CChar.self), UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self)) == 0
        } != nil
    }

    private func attributeNode(where matches: (xmlAttrPtr) -> Bool) -> xmlAttrPtr? {
        var attr = node.pointee.properties
        while let a = attr {
            if a.pointee.ns == nil, matches(a) { return a }
            attr = a.pointee.next
        }
        return nil
    }

    /// Calls `body` with each attribute in document order; names and values are built only when asked for.
    func forEachAttribute(_ body: (XMLAttributeRef) -> Void) {
        var attr = node.pointee.properties
        while let a = attr {
            body(XMLAttributeRef(attr: a))
            attr = a.pointee.next
        }
    }

    /// Whether the element's local name is `name`, compared as C strings.
    func hasLocalName(_ name: StaticString) -> Bool {
        guard let n = node.pointee.name else { return false }
        return strcmp(UnsafeRawPointer(n).assumingMemoryBound(to: CChar.self), UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self)) == 0
    }

    /// The local name as libxml2 interns it: equal names of one document usually share one
    /// pointer, so a dictionary keyed by it classifies elements without building strings.
    var localNameKey: XMLNameKey { XMLNameKey(node.pointee.name) }

    /// The element's namespace declaration, for the same kind of look-up; nil in no namespace.
    var namespaceKey: XMLNamespaceKey? { node.pointee.ns.map(XMLNamespaceKey.init) }

    /// The first child element (text, comments and processing instructions skipped).
    var firstChildElement: XMLNode? {
        LibXML2.element(from: node.pointee.children).map { XMLNode(node: $0) }
    }

    /// The next sibling element.
    var nextSiblingElement: XMLNode? {
        LibXML2.element(from: node.pointee.next).map { XMLNode(node: $0) }
    }

    /// Calls `body` with each child element in document order, without building an array.
    func forEachChild(_ body: (XMLNode) throws -> Void) rethrows {
        var child = LibXML2.element(from: node.pointee.children)
        while let c = child {
            try body(XMLNode(node: c))
            child = LibXML2.element(from: c.pointee.next)
        }
    }

    /// The text of the element's own text children (no descendants' text), joined.
    var ownText: String {
        if let only = node.pointee.children, only.pointee.next == nil, only.pointee.type == XML_TEXT_NODE {
            return only.pointee.content.map { String(cString: $0) } ?? ""
        }
        var result = ""
        var child = node.pointee.children
        while let c = child {
            if c.pointee.type == XML_TEXT_NODE || c.pointee.type == XML_CDATA_SECTION_NODE, let content = c.pointee.content {
                result += String(cString: content)
            }
            child = c.pointee.next
        }
        return result
    }

}

extension SafeXMLDocument {
    /// Calls `body` with the root element as an `XMLNode`, the document kept alive meanwhile;
    /// nil for a document without a root.
    func withRoot<R>(_ body: (XMLNode) throws -> R) rethrows -> R? {
        try withExtendedLifetime(self) {
            guard let root = xmlDocGetRootElement(doc) else { return nil }
            return try body(XMLNode(node: root))
        }
    }
}

/// One attribute met by `XMLNode.forEachAttribute`; valid only inside that call.
struct XMLAttributeRef {
    fileprivate let attr: xmlAttrPtr

    var localNameKey: XMLNameKey { XMLNameKey(attr.pointee.name) }
    var localName: String { LibXML2.string(attr.pointee.name) ?? "" }
    /// Nil for an attribute in no namespace (every unprefixed attribute).
    var namespaceKey: XMLNamespaceKey? { attr.pointee.ns.map(XMLNamespaceKey.init) }
    var value: String { LibXML2.attributeValue(attr) }

    /// Calls `body` with the value's UTF-8 bytes in place when libxml2 holds it as one text
    /// node (it almost always does), so a caller can look a value up without building a String.
    func withValueBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let text = attr.pointee.children, text.pointee.next == nil, text.pointee.type == XML_TEXT_NODE, let content = text.pointee.content {
            return body(UnsafeBufferPointer(start: content, count: strlen(UnsafeRawPointer(content).assumingMemoryBound(to: CChar.self))))
        }
        var copy = value
        return copy.withUTF8(body)
    }
}

/// A namespace declaration of a document, compared by identity (one per `xmlns` attribute).
struct XMLNamespaceKey: Hashable {
    private let ns: xmlNsPtr

    fileprivate init(_ ns: xmlNsPtr) { self.ns = ns }

    /// The address, for caches of their own (`IdentityCache`).
    var identity: UInt { UInt(bitPattern: ns) }

    /// The namespace URI it declares.
    var uri: String { LibXML2.string(ns.pointee.href) ?? "" }
}

/// The compiled native XSD, shared by every import.
final class SpecSchemaValidator: @unchecked Sendable {
    // @unchecked: `schema` is written once in init and libxml2 only reads a compiled xmlSchema
    // during validation (stack-facts.md: it can be shared across tasks); each validation uses
    // its own xmlSchemaValidCtxt.
    private let schema: xmlSchemaPtr

    private init(schema: xmlSchemaPtr) { self.schema = schema }

    deinit { xmlSchemaFree(schema) }

    /// The native format's validator, compiled once from the bundled `fieldwork-form-1.xsd`.
    static let native: Result<SpecSchemaValidator, ImportError> = {
        guard let url = Bundle.module.url(forResource: "fieldwork-form-1", withExtension: "xsd"),
            let data = try? Data(contentsOf: url)
        else {
            return .failure(ImportError(code: "internal", message: "The bundled fieldwork-form-1.xsd is missing; reinstall Fieldwork."))
        }
        return compile(Array(data)).mapError {
            ImportError(code: "internal", message: "The bundled fieldwork-form-1.xsd does not compile: \($0)")
        }
    }()

    struct CompileError: Error, CustomStringConvertible {
        var description: String
    }

    /// Compiles an XSD held in memory.
    static func compile(_ xsd: [UInt8]) -> Result<SpecSchemaValidator, CompileError> {
        LibXML2.ensureInitialised()
        let parsed: (xmlSchemaPtr?, [XMLDiagnostic]) = xsd.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                guard let parserCtxt = xmlSchemaNewMemParserCtxt(chars.baseAddress, Int32(chars.count)) else { return (nil, []) }
                defer { xmlSchemaFreeParserCtxt(parserCtxt) }
                let sink = DiagnosticSink()
                return withExtendedLifetime(sink) {
                    xmlSchemaSetParserStructuredErrors(parserCtxt, LibXML2.collect, Unmanaged.passUnretained(sink).toOpaque())
                    return (xmlSchemaParse(parserCtxt), sink.diagnostics)
                }
            }
        }
        guard let schema = parsed.0 else {
            return .failure(CompileError(description: parsed.1.map(\.message).joined(separator: "; ")))
        }
        return .success(SpecSchemaValidator(schema: schema))
    }

    /// Validates a document; returns every error found (empty when valid).
    func validate(_ document: SafeXMLDocument) -> [XMLDiagnostic] {
        document.withDocPointer { doc in
            guard let validCtxt = xmlSchemaNewValidCtxt(schema) else {
                return [XMLDiagnostic(isError: true, code: -1, message: "libxml2 could not create a validation context", line: 0, column: 0)]
            }
            defer { xmlSchemaFreeValidCtxt(validCtxt) }
            let sink = DiagnosticSink()
            return withExtendedLifetime(sink) {
                xmlSchemaSetValidStructuredErrors(validCtxt, LibXML2.collect, Unmanaged.passUnretained(sink).toOpaque())
                let status = xmlSchemaValidateDoc(validCtxt, doc)
                let errors = sink.diagnostics.filter(\.isError)
                if status != 0 && errors.isEmpty {
                    return [XMLDiagnostic(isError: true, code: Int(status), message: "The document does not match the form schema", line: 0, column: 0)]
                }
                return errors
            }
        }
    }
}

extension SafeXMLDocument {
    fileprivate func withDocPointer<T>(_ body: (xmlDocPtr) -> T) -> T {
        withExtendedLifetime(self) { body(doc) }
    }
}

/// Collects diagnostics from one libxml2 context; reached through the context's user data.
private final class DiagnosticSink {
    var diagnostics: [XMLDiagnostic] = []
}

/// Byte tests eight bytes at a time.
enum ByteScan {
    /// Whether any of the eight bytes of `word` is `byte` (the classic zero-byte test on `word ^ byte…byte`).
    @inline(__always)
    static func hasByte(_ word: UInt64, _ byte: UInt8) -> Bool {
        let x = word ^ (0x0101_0101_0101_0101 &* UInt64(byte))
        return (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080 != 0
    }
}

/// Per-parse state, reached from the SAX callbacks through the parser context's `_private`.
private final class ParseState {
    var diagnostics: [XMLDiagnostic] = []
    var depth = 0
    var tooDeepLine: Int?
    var doctypeLine: Int?
    var startElement: startElementNsSAX2Func?
    var endElement: endElementNsSAX2Func?

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
        guard let node = ctxt.pointee.node, let input = ctxt.pointee.input,
            var p = input.pointee.cur, let base = input.pointee.base
        else { return }
        var newlines: UInt16 = 0
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
                if p.pointee == UInt8(ascii: "<") {
                    // Lines past 65535 are kept elsewhere by BIG_LINES; leave those alone.
                    let line = node.pointee.line
                    if newlines > 0, line < UInt16.max, line > newlines { node.pointee.line = line - newlines }
                    return
                }
                if p.pointee == UInt8(ascii: "\n") { newlines += 1 }
            }
        }
    }


    /// Hooks this state into the context's own SAX handler (a per-context copy, so nothing global changes).
    func install(on ctxt: xmlParserCtxtPtr) {
        guard let sax = ctxt.pointee.sax else { return }
        startElement = sax.pointee.startElementNs
        endElement = sax.pointee.endElementNs

        // With the default SAX2 handler the callbacks' user data is the parser context itself.
        sax.pointee.serror = { userData, error in
            guard let (_, state) = ParseState.from(userData), let error else { return }
            state.diagnostics.append(LibXML2.diagnostic(error))
        }
        // Called for every DOCTYPE, before its internal subset is read: stopping here refuses
        // XXE, parameter entities and entity expansion bombs before any entity is declared.
        sax.pointee.internalSubset = { ctx, _, _, _ in
            guard let (ctxt, state) = ParseState.from(ctx) else { return }
            state.doctypeLine = max(1, ParseState.currentLine(ctxt))
            xmlStopParser(ctxt)
        }
        sax.pointee.startElementNs = { ctx, localName, prefix, uri, nsCount, namespaces, attrCount, defaulted, attributes in
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

/// Process-wide libxml2 set-up and small conversions.
private enum LibXML2 {
    private static let initialised: Bool = {
        xmlInitParser()
        // A second wall behind NONET and the DOCTYPE refusal: no external entity, DTD or
        // schema import is ever loaded, from disk or network.
        xmlSetExternalEntityLoader { _, _, _ in nil }
        return true
    }()

    static func ensureInitialised() { _ = initialised }

    static func string(_ chars: UnsafePointer<xmlChar>?) -> String? {
        chars.map { String(cString: $0) }
    }

    /// The first element node among `node` and its following siblings.
    static func element(from node: xmlNodePtr?) -> xmlNodePtr? {
        var current = node
        while let c = current {
            if c.pointee.type == XML_ELEMENT_NODE { return c }
            current = c.pointee.next
        }
        return nil
    }

    /// An attribute's value. With no DTD there are no entity references left in it, so it is
    /// almost always one text node whose content can be read in place.
    static func attributeValue(_ attr: xmlAttrPtr) -> String {
        if let text = attr.pointee.children, text.pointee.next == nil, text.pointee.type == XML_TEXT_NODE {
            return text.pointee.content.map { String(cString: $0) } ?? ""
        }
        return owned(xmlNodeListGetString(attr.pointee.doc, attr.pointee.children, 1)) ?? ""
    }

    /// Converts and frees a string libxml2 allocated for us.
    static func owned(_ chars: UnsafeMutablePointer<xmlChar>?) -> String? {
        guard let chars else { return nil }
        defer { fieldwork_xmlFree(chars) }
        return String(cString: chars)
    }

    /// Structured-error callback for schema contexts; the user data is a `DiagnosticSink`.
    static let collect: xmlStructuredErrorFunc = { userData, error in
        guard let userData, let error else { return }
        Unmanaged<DiagnosticSink>.fromOpaque(userData).takeUnretainedValue().diagnostics.append(diagnostic(error))
    }

    static func diagnostic(_ error: xmlErrorPtr) -> XMLDiagnostic {
        let e = error.pointee
        var diagnostic = XMLDiagnostic(
            isError: e.level.rawValue >= XML_ERR_ERROR.rawValue,
            code: Int(e.code),
            message: (e.message.map { String(cString: $0) } ?? "unknown error").trimmingCharacters(in: .whitespacesAndNewlines),
            line: Int(e.line),
            column: Int(e.int2))
        // Validation errors point at the node concerned: an element, or an attribute of one.
        if let raw = e.node {
            var node = raw.assumingMemoryBound(to: xmlNode.self)
            if node.pointee.type == XML_ATTRIBUTE_NODE {
                diagnostic.attribute = string(node.pointee.name)
                if let owner = node.pointee.parent { node = owner }
            }
            if node.pointee.type == XML_ELEMENT_NODE {
                diagnostic.element = string(node.pointee.name)
                if let parent = node.pointee.parent, parent.pointee.type == XML_ELEMENT_NODE {
                    diagnostic.parentElement = string(parent.pointee.name)
                }
                if diagnostic.line == 0 { diagnostic.line = Int(xmlGetLineNo(node)) }
            }
        }
        return diagnostic
    }
}
