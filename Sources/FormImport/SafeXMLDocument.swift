import CLibXML2
import FormModel
import Foundation

// The only file that talks to libxml2. Everything here follows one safe-parsing recipe: a
// fresh parser context per document, no network, no entity substitution, no DTD loading,
// per-context error capture, a deny-all external entity loader, and any DOCTYPE refused as soon
// as the parser sees it. Never pass XML_PARSE_NOENT: despite its name it turns entity
// substitution on (an XXE payload then reads local files). libxml2's structured-error function
// is per thread, useless under Swift concurrency, so errors are captured per context (the
// parser's `sax->serror`, the schema contexts' handlers).

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

/// A parsed XML document that owns its libxml2 tree, or for element-only formats (EDMX) a lean
/// element tree built from libxml2's SAX events (`XMLNode`). Not thread-safe: keep it inside one task.
final class SafeXMLDocument {
    /// The libxml2 tree; nil for a lean document.
    fileprivate let doc: xmlDocPtr?
    /// The lean element tree; nil for a libxml2 tree.
    fileprivate let tree: LeanTree?
    /// Parser warnings (errors make `parse` throw instead).
    let warnings: [XMLDiagnostic]

    private init(doc: xmlDocPtr?, tree: LeanTree?, warnings: [XMLDiagnostic]) {
        self.doc = doc
        self.tree = tree
        self.warnings = warnings
    }

    deinit { if let doc { xmlFreeDoc(doc) } }

    /// The root element of a libxml2 tree; nil for a lean document (see `withRoot`).
    var root: SafeXMLElement? {
        guard let doc, let node = xmlDocGetRootElement(doc) else { return nil }
        return SafeXMLElement(document: self, node: node)
    }

    /// Whether the document was parsed into a lean element tree (`XMLNode`) rather than libxml2's.
    var isLean: Bool { tree != nil }

    /// The root element's local name, namespace and line, however the document was parsed.
    var rootName: (localName: String, namespaceURI: String?, line: Int)? {
        if let root { return (root.localName, root.namespaceURI, root.line) }
        return withRoot { ($0.localName, $0.namespaceURI, $0.line) }
    }

    /// Parses bytes under `XMLLimits`, refusing any DOCTYPE; throws `too-large`, `doctype`, `too-deep` or `malformed-xml`.
    /// - Parameter elementsOnly: true builds no libxml2 tree but a lean element tree (`XMLNode`,
    ///   through `withRoot`) for element-only formats such as EDMX: element names, attributes and
    ///   the elements' own text, blank text between elements dropped as `XML_PARSE_NOBLANKS` does.
    ///   Far fewer allocations to make and free than a libxml2 tree.
    static func parse(
        _ bytes: [UInt8], file: String?, elementsOnly: Bool = false
    ) throws(ImportFailure) -> SafeXMLDocument {
        guard bytes.count <= XMLLimits.maximumDocumentBytes else {
            throw ImportFailure([
                ImportError(
                    code: .tooLarge,
                    message:
                        "The document is \(ByteSize.describe(bytes.count)); documents over \(ByteSize.describe(XMLLimits.maximumDocumentBytes)) are refused.",
                    file: file)
            ])
        }
        LibXML2.ensureInitialised()

        // libxml2 copes with a UTF-8 byte order mark, but dropping it keeps the bytes we hand
        // over plain UTF-8 whatever the declaration says.
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }

        guard let ctxt = xmlNewParserCtxt() else {
            throw ImportFailure([
                ImportError(code: .internal, message: "libxml2 could not create a parser; try again.", file: file)
            ])
        }
        defer { xmlFreeParserCtxt(ctxt) }

        let state = ParseState()
        ctxt.pointee._private = Unmanaged.passUnretained(state).toOpaque()
        if elementsOnly {
            state.installLean(on: ctxt, documentSize: body.count)
        } else {
            state.install(on: ctxt)
        }

        let options = Int32(
            XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_BIG_LINES.rawValue
                | (elementsOnly ? XML_PARSE_NOBLANKS.rawValue : 0))
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
                    code: .tooDeep,
                    message:
                        "Elements are nested more than \(XMLLimits.maximumDepth) deep; a form spec needs far fewer levels.",
                    file: file, line: line)
            ])
        }
        let errors = state.diagnostics.filter(\.isError)
        if let lean = state.lean {
            // No tree is made from SAX events; a document libxml2 made anyway is not needed.
            if let parsed { xmlFreeDoc(parsed) }
            guard wellFormed, errors.isEmpty, lean.elements.count > 0, let dict = ctxt.pointee.dict else {
                throw ImportFailure(malformed(errors, file: file))
            }
            // Names are the parser's interned strings: the tree keeps the dictionary alive.
            xmlDictReference(dict)
            return SafeXMLDocument(
                doc: nil, tree: LeanTree(lean, dict: dict), warnings: state.diagnostics.filter { !$0.isError })
        }
        guard let parsed, wellFormed, errors.isEmpty else {
            if let parsed { xmlFreeDoc(parsed) }
            throw ImportFailure(malformed(errors, file: file))
        }
        // Second wall: the SAX hook above should have stopped any DOCTYPE already.
        if parsed.pointee.intSubset != nil || parsed.pointee.extSubset != nil {
            xmlFreeDoc(parsed)
            throw ImportFailure([doctypeError(file: file, line: 1)])
        }
        return SafeXMLDocument(doc: parsed, tree: nil, warnings: state.diagnostics.filter { !$0.isError })
    }

    private static func doctypeError(file: String?, line: Int) -> ImportError {
        ImportError(
            code: .doctype,
            message:
                "The document has a DOCTYPE; form specs must not declare one (remove <!DOCTYPE ...> and any entities).",
            file: file, line: line)
    }

    private static func malformed(_ errors: [XMLDiagnostic], file: String?) -> [ImportError] {
        if errors.isEmpty {
            return [
                ImportError(
                    code: .malformedXML, message: "The document is not well-formed XML; fix it and import again.",
                    file: file)
            ]
        }
        // libxml2 keeps reporting after the first fatal error, but the rest are echoes of it
        // ("tag mismatch" for every enclosing element): the first one is the one to fix.
        return errors.prefix(1).map { error in
            // libxml2 stops at its own depth limit too; call it what it is.
            if error.code == Int(XML_ERR_INTERNAL_ERROR.rawValue), error.message.hasPrefix("Excessive depth") {
                return ImportError(
                    code: .tooDeep,
                    message:
                        "Elements are nested more than \(XMLLimits.maximumDepth) deep; a form spec needs far fewer levels.",
                    file: file, line: error.line, column: error.column)
            }
            return ImportError(
                code: .malformedXML, message: "Malformed XML: \(error.message). Fix the XML and import again.",
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
        name.withCString { wanted in
            var attr = node.pointee.properties
            while let a = attr {
                if a.pointee.ns == nil, let n = a.pointee.name,
                    strcmp(UnsafeRawPointer(n).assumingMemoryBound(to: CChar.self), wanted) == 0
                {
                    return LibXML2.attributeValue(a)
                }
                attr = a.pointee.next
            }
            return nil
        }
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

/// The element tree of a document parsed with `elementsOnly`: elements, attributes and text
/// in flat arrays, names as the parser's interned strings (kept alive with its dictionary).
final class LeanTree {
    struct Element {
        var name: UnsafePointer<xmlChar>
        var uri: UnsafePointer<xmlChar>?
        var firstChild: Int32 = -1
        var nextSibling: Int32 = -1
        var firstAttribute: Int32
        var attributeCount: Int32
        /// The own text in `bytes`, -1 for none.
        var textStart: Int32 = -1
        var textLength: Int32 = 0
        var line: Int
    }

    struct Attribute {
        var name: UnsafePointer<xmlChar>
        var uri: UnsafePointer<xmlChar>?
        /// The value in `bytes`, followed by a NUL.
        var valueStart: Int32
        var valueLength: Int32
    }

    /// Where the arrays are: `XMLNode` reads them through this without retaining anything.
    struct Storage {
        var elements: UnsafeMutablePointer<Element>
        var elementCount: Int
        var attributes: UnsafeMutablePointer<Attribute>
        /// Attribute values and texts, each followed by a NUL.
        var bytes: UnsafeMutablePointer<UInt8>
    }

    let storage: UnsafeMutablePointer<Storage>
    private let dict: xmlDictPtr

    /// Takes over the builder's buffers.
    fileprivate init(_ builder: LeanBuilder, dict: xmlDictPtr) {
        let elementCount = builder.elements.count
        storage = .allocate(capacity: 1)
        storage.initialize(
            to: Storage(
                elements: builder.elements.take(), elementCount: elementCount, attributes: builder.attributes.take(),
                bytes: builder.bytes.take()))
        self.dict = dict
    }

    deinit {
        // Elements and attributes hold only pointers and numbers: nothing to deinitialise.
        free(storage.pointee.elements)
        free(storage.pointee.attributes)
        free(storage.pointee.bytes)
        storage.deallocate()
        xmlDictFree(dict)
    }
}

extension LeanTree.Storage {
    @inline(__always)
    func string(start: Int32, length: Int32) -> String {
        String(decoding: UnsafeBufferPointer(start: bytes + Int(start), count: Int(length)), as: UTF8.self)
    }
}

/// A growable buffer of plain values (pointers and numbers) in memory of its own, handed over
/// to a `LeanTree` without copying.
fileprivate struct PlainBuffer<Element> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        base = malloc(self.capacity * MemoryLayout<Element>.stride)!.assumingMemoryBound(to: Element.self)
    }

    @inline(__always)
    subscript(_ i: Int) -> Element {
        get { base[i] }
        nonmutating set { base[i] = newValue }
    }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { grow(to: count + 1) }
        (base + count).initialize(to: element)
        count += 1
    }

    mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
        if count + elements.count > capacity { grow(to: count + elements.count) }
        if let source = elements.baseAddress { (base + count).initialize(from: source, count: elements.count) }
        count += elements.count
    }

    mutating func removeLast() { count -= 1 }

    var isEmpty: Bool { count == 0 }

    private mutating func grow(to needed: Int) {
        capacity = max(capacity * 2, needed)
        base = realloc(base, capacity * MemoryLayout<Element>.stride)!.assumingMemoryBound(to: Element.self)
    }

    /// The memory, now the caller's to `free`; the buffer is left empty.
    mutating func take() -> UnsafeMutablePointer<Element> {
        let taken = base
        base = malloc(MemoryLayout<Element>.stride)!.assumingMemoryBound(to: Element.self)
        count = 0
        capacity = 1
        return taken
    }

    func release() { free(base) }
}

/// Builds a `LeanTree` from SAX events while libxml2 parses.
fileprivate final class LeanBuilder {
    @exclusivity(unchecked) var elements: PlainBuffer<LeanTree.Element>
    @exclusivity(unchecked) var attributes: PlainBuffer<LeanTree.Attribute>
    @exclusivity(unchecked) var bytes: PlainBuffer<UInt8>

    /// An open element: what libxml2's tree builder would know of its children, so blank text is
    /// dropped exactly where `XML_PARSE_NOBLANKS` drops it.
    struct Open {
        var index: Int32
        var lastChild: Int32 = -1
        var hasChildNodes = false
        var firstChildIsText = false
        var lastChildIsText = false
        /// libxml2's `xml:space` state of the element: -1 default, 0 `default`, 1 `preserve`, -2 text seen.
        var space: Int32
    }
    @exclusivity(unchecked) var open: PlainBuffer<Open>

    init(capacity: Int) {
        // Room from the document size, so that the buffers seldom grow: growing copies them, and
        // memory reserved but never written costs next to nothing. Values and texts are parts of
        // the document, so `bytes` hardly ever needs more than its size; real EDMX files have an
        // element per 95–130 bytes and an attribute per 45–65.
        elements = PlainBuffer(capacity: capacity / 64)
        attributes = PlainBuffer(capacity: capacity / 32)
        bytes = PlainBuffer(capacity: capacity)
        open = PlainBuffer(capacity: 64)
    }

    deinit {
        elements.release()
        attributes.release()
        bytes.release()
        open.release()
    }

    func start(
        name: UnsafePointer<xmlChar>, uri: UnsafePointer<xmlChar>?, line: Int, space: Int32,
        attributeCount: Int, attributes values: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        let index = Int32(elements.count)
        if !open.isEmpty {
            let parent = open.count - 1
            let last = open[parent].lastChild
            if last < 0 {
                elements[Int(open[parent].index)].firstChild = index
            } else {
                elements[Int(last)].nextSibling = index
            }
            open[parent].lastChild = index
            childNode(isText: false)
        }
        let first = Int32(attributes.count)
        if let values {
            for i in 0..<attributeCount {
                // localname, prefix, URI, value, end of value.
                let base = values + 5 * i
                guard let attributeName = base[0], let valueStart = base[3], let valueEnd = base[4] else { continue }
                let value = UnsafeBufferPointer(start: valueStart, count: valueEnd - valueStart)
                let offset = bytes.count
                if value.count > 0 && memchr(valueStart, Int32(UInt8(ascii: "&")), value.count) != nil {
                    // Without entity substitution libxml2 hands over an `&` (from `&amp;` or
                    // `&#38;`) as `&#38;`, for its tree builder to read again; nothing else is left.
                    var i = 0
                    while i < value.count {
                        if value[i] == UInt8(ascii: "&"), i + 4 < value.count, value[i + 1] == UInt8(ascii: "#"),
                            value[i + 2] == UInt8(ascii: "3"),
                            value[i + 3] == UInt8(ascii: "8"), value[i + 4] == UInt8(ascii: ";")
                        {
                            bytes.append(UInt8(ascii: "&"))
                            i += 5
                        } else {
                            bytes.append(value[i])
                            i += 1
                        }
                    }
                } else {
                    bytes.append(contentsOf: value)
                }
                let length = bytes.count - offset
                bytes.append(0)
                attributes.append(
                    LeanTree.Attribute(
                        name: attributeName, uri: base[2], valueStart: Int32(offset), valueLength: Int32(length)))
            }
        }
        elements.append(
            LeanTree.Element(
                name: name, uri: uri, firstAttribute: first, attributeCount: Int32(attributes.count) - first, line: line
            ))
        open.append(Open(index: index, space: space))
    }

    func end() {
        if !open.isEmpty { open.removeLast() }
    }

    /// A child node other than an element's own text chunk (element, comment, processing instruction).
    func childNode(isText: Bool) {
        guard !open.isEmpty else { return }
        let parent = open.count - 1
        if !open[parent].hasChildNodes {
            open[parent].hasChildNodes = true
            open[parent].firstChildIsText = isText
        }
        open[parent].lastChildIsText = isText
    }

    /// Character data of the innermost open element. `next` is the parser's position after it,
    /// `isReference` whether it came from a character or entity reference (`&#32;`, `&amp;`).
    func text(_ chars: UnsafePointer<xmlChar>, _ length: Int, next: UnsafePointer<xmlChar>, isReference: Bool) {
        guard !open.isEmpty, length > 0 else { return }
        let top = open.count - 1
        if !isReference {
            var blank = true
            for i in 0..<length where !isASCIIWhitespace(chars[i]) {
                blank = false
                break
            }
            // libxml2's areBlanks(), as it decides with a tree: blank character data is dropped
            // unless xml:space says otherwise, it is the whole content of an element, or it
            // stands beside text.
            if blank, open[top].space == -1 || open[top].space == 0 {
                let raw = next[0]
                let keep =
                    (raw != UInt8(ascii: "<") && raw != 0x0D)
                    || (!open[top].hasChildNodes && raw == UInt8(ascii: "<") && next[1] == UInt8(ascii: "/"))
                    || open[top].lastChildIsText || open[top].firstChildIsText
                if !keep { return }
            }
            if open[top].space == -1 { open[top].space = -2 }
        }
        childNode(isText: true)
        let e = Int(open[top].index)
        if elements[e].textStart >= 0 && Int(elements[e].textStart + elements[e].textLength) + 1 != bytes.count {
            // Text after a child: move the element's text to the end first (rare in element-only formats).
            let start = Int(elements[e].textStart)
            let old = Array(UnsafeBufferPointer(start: bytes.base + start, count: Int(elements[e].textLength)))
            elements[e].textStart = Int32(bytes.count)
            old.withUnsafeBufferPointer { bytes.append(contentsOf: $0) }
            bytes.append(0)
        }
        if elements[e].textStart < 0 {
            elements[e].textStart = Int32(bytes.count)
        } else {
            bytes.removeLast()  // the NUL
        }
        bytes.append(contentsOf: UnsafeBufferPointer(start: chars, count: length))
        bytes.append(0)
        elements[e].textLength += Int32(length)
    }
}

/// An element name as the parser interned it, compared by identity: a cheap dictionary key.
/// Equal names of one document share one pointer when libxml2 interns them (it does by
/// default), but two keys that differ may still spell the same name, so use a key only to
/// cache what its text says, never to decide that two names differ.
struct XMLNameKey: Hashable {
    private let pointer: UnsafeRawPointer?

    fileprivate init(_ name: UnsafePointer<xmlChar>?) { pointer = name.map(UnsafeRawPointer.init) }

    /// The address, for caches of their own (`IdentityCache`); 0 for no name.
    var identity: UInt { UInt(bitPattern: pointer) }
}

/// An element of a lean document (`SafeXMLDocument.parse(_:file:elementsOnly:)`): what the
/// OData reader walks, thousands of elements at a time, without a retain and release per
/// element. Valid only inside `SafeXMLDocument.withRoot(_:)`, which keeps the document alive.
struct XMLNode {
    fileprivate let tree: UnsafePointer<LeanTree.Storage>
    fileprivate let index: Int

    @inline(__always)
    private var element: LeanTree.Element { tree.pointee.elements[index] }

    var localName: String { String(cString: element.name) }

    var namespaceURI: String? { element.uri.map { String(cString: $0) } }

    /// 1-based line of the start tag.
    var line: Int { element.line }

    /// The value of an attribute in no namespace.
    func attribute(_ name: String) -> String? {
        name.withCString { wanted in
            attributeIndex { strcmp(UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self), wanted) == 0 }
        }.map(attributeValue)
    }

    private func attributeValue(_ i: Int) -> String {
        let a = tree.pointee.attributes[i]
        return tree.pointee.string(start: a.valueStart, length: a.valueLength)
    }

    private func attributeIndex(where matches: (UnsafePointer<xmlChar>) -> Bool) -> Int? {
        let e = element
        var i = Int(e.firstAttribute)
        let end = i + Int(e.attributeCount)
        while i < end {
            let a = tree.pointee.attributes[i]
            if a.uri == nil, matches(a.name) { return i }
            i += 1
        }
        return nil
    }

    /// Calls `body` with each attribute in document order; names and values are built only when asked for.
    func forEachAttribute(_ body: (XMLAttributeRef) -> Void) {
        let e = element
        var i = Int(e.firstAttribute)
        let end = i + Int(e.attributeCount)
        while i < end {
            body(XMLAttributeRef(tree: tree, index: i))
            i += 1
        }
    }

    /// Whether the element's local name is `name`, compared as C strings.
    func hasLocalName(_ name: StaticString) -> Bool {
        strcmp(
            UnsafeRawPointer(element.name).assumingMemoryBound(to: CChar.self),
            UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self)) == 0
    }

    /// The local name as libxml2 interns it: equal names of one document usually share one
    /// pointer, so a dictionary keyed by it classifies elements without building strings.
    var localNameKey: XMLNameKey { XMLNameKey(element.name) }

    /// The element's namespace, for the same kind of look-up; nil in no namespace.
    var namespaceKey: XMLNamespaceKey? { element.uri.map(XMLNamespaceKey.init) }

    /// The first child element.
    var firstChildElement: XMLNode? {
        let child = element.firstChild
        return child < 0 ? nil : XMLNode(tree: tree, index: Int(child))
    }

    /// The next sibling element.
    var nextSiblingElement: XMLNode? {
        let next = element.nextSibling
        return next < 0 ? nil : XMLNode(tree: tree, index: Int(next))
    }

    /// Calls `body` with each child element in document order, without building an array.
    func forEachChild(_ body: (XMLNode) throws -> Void) rethrows {
        var child = element.firstChild
        while child >= 0 {
            try body(XMLNode(tree: tree, index: Int(child)))
            child = tree.pointee.elements[Int(child)].nextSibling
        }
    }

    /// The text of the element's own text children (no descendants' text), joined.
    var ownText: String {
        let e = element
        return e.textStart < 0 ? "" : tree.pointee.string(start: e.textStart, length: e.textLength)
    }
}

extension SafeXMLDocument {
    /// Calls `body` with the root element of a lean document as an `XMLNode`, the document kept
    /// alive meanwhile; nil for a document without a root or not parsed `elementsOnly`.
    func withRoot<R>(_ body: (XMLNode) throws -> R) rethrows -> R? {
        try withExtendedLifetime(self) {
            guard let tree, tree.storage.pointee.elementCount > 0 else { return nil }
            return try body(XMLNode(tree: UnsafePointer(tree.storage), index: 0))
        }
    }
}

/// One attribute met by `XMLNode.forEachAttribute`; valid only inside that call.
struct XMLAttributeRef {
    fileprivate let tree: UnsafePointer<LeanTree.Storage>
    fileprivate let index: Int

    @inline(__always)
    private var attribute: LeanTree.Attribute { tree.pointee.attributes[index] }

    var localNameKey: XMLNameKey { XMLNameKey(attribute.name) }
    var localName: String { String(cString: attribute.name) }
    /// Nil for an attribute in no namespace (every unprefixed attribute).
    var namespaceKey: XMLNamespaceKey? { attribute.uri.map(XMLNamespaceKey.init) }
    var value: String {
        let a = attribute
        return tree.pointee.string(start: a.valueStart, length: a.valueLength)
    }

    /// Calls `body` with the value's UTF-8 bytes in place, so a caller can look a value up without building a String.
    func withValueBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let a = attribute
        return body(UnsafeBufferPointer(start: tree.pointee.bytes + Int(a.valueStart), count: Int(a.valueLength)))
    }
}

/// A namespace of a document as the parser interned its URI, compared by identity.
struct XMLNamespaceKey: Hashable {
    private let uriPointer: UnsafePointer<xmlChar>

    fileprivate init(_ uri: UnsafePointer<xmlChar>) { uriPointer = uri }

    /// The address, for caches of their own (`IdentityCache`).
    var identity: UInt { UInt(bitPattern: uriPointer) }

    /// The namespace URI.
    var uri: String { String(cString: uriPointer) }
}

/// The compiled native XSD, shared by every import.
final class SpecSchemaValidator: @unchecked Sendable {
    // @unchecked: `schema` is written once in init and libxml2 only reads a compiled xmlSchema
    // during validation, so one compiled schema can be shared across tasks; each validation uses
    // its own xmlSchemaValidCtxt.
    private let schema: xmlSchemaPtr

    private init(schema: xmlSchemaPtr) { self.schema = schema }

    deinit { xmlSchemaFree(schema) }

    /// The native format's validator, compiled once from the bundled `fieldwork-form-1.xsd`.
    static let native: Result<SpecSchemaValidator, ImportError> = {
        guard let url = Bundle.module.url(forResource: "fieldwork-form-1", withExtension: "xsd"),
            let data = try? Data(contentsOf: url)
        else {
            return .failure(
                ImportError(
                    code: .internal, message: "The bundled fieldwork-form-1.xsd is missing; reinstall Fieldwork."))
        }
        return compile(Array(data)).mapError {
            ImportError(code: .internal, message: "The bundled fieldwork-form-1.xsd does not compile: \($0)")
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
                guard let parserCtxt = xmlSchemaNewMemParserCtxt(chars.baseAddress, Int32(chars.count)) else {
                    return (nil, [])
                }
                defer { xmlSchemaFreeParserCtxt(parserCtxt) }
                let sink = DiagnosticSink()
                return withExtendedLifetime(sink) {
                    xmlSchemaSetParserStructuredErrors(
                        parserCtxt, LibXML2.collect, Unmanaged.passUnretained(sink).toOpaque())
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
                return [
                    XMLDiagnostic(
                        isError: true, code: -1, message: "libxml2 could not create a validation context", line: 0,
                        column: 0)
                ]
            }
            defer { xmlSchemaFreeValidCtxt(validCtxt) }
            let sink = DiagnosticSink()
            return withExtendedLifetime(sink) {
                xmlSchemaSetValidStructuredErrors(validCtxt, LibXML2.collect, Unmanaged.passUnretained(sink).toOpaque())
                let status = xmlSchemaValidateDoc(validCtxt, doc)
                let errors = sink.diagnostics.filter(\.isError)
                if status != 0 && errors.isEmpty {
                    return [
                        XMLDiagnostic(
                            isError: true, code: Int(status), message: "The document does not match the form schema",
                            line: 0, column: 0)
                    ]
                }
                return errors
            }
        }
    }
}

extension SafeXMLDocument {
    fileprivate func withDocPointer<T>(_ body: (xmlDocPtr) -> T) -> T {
        // Only native specs are validated, and they are never parsed `elementsOnly`.
        withExtendedLifetime(self) { body(doc!) }
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
    /// The lean tree being built, for a parse `elementsOnly`.
    @exclusivity(unchecked) var lean: LeanBuilder?
    /// `lean`, for the SAX callbacks to use without retaining it.
    @exclusivity(unchecked) var leanRef: Unmanaged<LeanBuilder>?
    /// The parser's line at the last start tag, for `startTagLine`.
    @exclusivity(unchecked) var lastStartLine = 0

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
        // Nothing of libxml2's own tree is made: no document, no nodes.
        sax.pointee.startDocument = nil
        sax.pointee.endDocument = nil
        sax.pointee.reference = nil
        sax.pointee.cdataBlock = nil
        sax.pointee.externalSubset = nil
        sax.pointee.startElement = nil
        sax.pointee.endElement = nil
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

    /// Error capture and the DOCTYPE refusal, for either kind of parse.
    private func installGuards(_ sax: UnsafeMutablePointer<xmlSAXHandler>) {
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
            message: (e.message.map { String(cString: $0) } ?? "unknown error").trimmingCharacters(
                in: .whitespacesAndNewlines),
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
