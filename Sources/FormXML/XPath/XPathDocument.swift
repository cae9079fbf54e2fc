internal import CLibXML2
import Foundation

/// An XML document libxml2's XPath engine evaluates against (`XPathEvaluator`): a submission's
/// instance, built from a form's primary instance, or a secondary instance (`instance('id')`).
///
/// Elements of the namespace dropped when it is made (the XForms default namespace) are put in
/// no namespace, as JavaRosa reads them, so `/data/age` finds them; elements of other namespaces
/// (`jr:`, `orx:`) keep theirs, `http://openrosa.org/xforms/` (with a trailing slash, which some
/// forms declare) becoming `http://openrosa.org/xforms`. Comments, processing instructions and
/// blank text between elements are left out: an instance holds data only.
///
/// A read-only document (`isReadOnly`, a secondary instance or a template) is never changed, so
/// any number of tasks may evaluate against it or `copy()` it at once; a writable one (a
/// submission's copy) belongs to one task at a time. Hence `@unchecked Sendable`.
///
/// A read-only document's nodes do not point back at it (their `doc` is NULL while it lives):
/// inside a predicate libxml2 makes the context node's document the root of `/`, so
/// `instance('cities')/root/item[country = /data/country]` would read `/data/country` in the
/// cities; without the pointer the root stays the submission's instance, as the ODK spec says.
/// Such a document holds no dictionary-owned strings (it is a dictionary-free copy), so nothing
/// frees them wrongly.
public final class XPathDocument: @unchecked Sendable {
    let doc: xmlDocPtr
    /// Whether `XPathNode`'s setters and `remove()` are refused (a programming error).
    public let isReadOnly: Bool
    /// Nodes taken out of the tree (`XPathNode.remove()`, text replaced by `XPathNode.text`):
    /// freed with the document, so an `XPathNode` still holding one never dangles.
    private var detached: [xmlNodePtr] = []

    private init(doc: xmlDocPtr, readOnly: Bool) {
        var doc = doc
        if readOnly, doc.pointee.dict != nil, let copy = xmlCopyDoc(doc, 1) {
            xmlFreeDoc(doc)
            doc = copy
        }
        precondition(!readOnly || doc.pointee.dict == nil, "a read-only XPathDocument must be dictionary-free")
        self.doc = doc
        self.isReadOnly = readOnly
        if readOnly { Self.setDocument(nil, below: xmlNodePtr(OpaquePointer(doc))) }
    }

    deinit {
        if isReadOnly { Self.setDocument(doc, below: xmlNodePtr(OpaquePointer(doc))) }
        // Those out of the tree, once each: a kept copy inserted since goes with its tree.
        var freed = Set<xmlNodePtr>()
        for node in detached where node.pointee.parent == nil && freed.insert(node).inserted { xmlFreeNode(node) }
        xmlFreeDoc(doc)
    }

    /// Sets the `doc` of every node below `parent` (elements, attributes, text).
    private static func setDocument(_ doc: xmlDocPtr?, below parent: xmlNodePtr) {
        var child = parent.pointee.children
        while let node = child {
            node.pointee.doc = doc
            var attribute = node.pointee.type == XML_ELEMENT_NODE ? node.pointee.properties : nil
            while let a = attribute {
                a.pointee.doc = doc
                var text = a.pointee.children
                while let t = text {
                    t.pointee.doc = doc
                    text = t.pointee.next
                }
                attribute = a.pointee.next
            }
            setDocument(doc, below: node)
            child = node.pointee.next
        }
    }

    /// Parses an instance document with the same guards as every FormXML parse (`XMLLimits`,
    /// no DOCTYPE, no entities, no network), putting elements of `droppingNamespace` in no namespace.
    public static func parse(
        _ bytes: [UInt8], droppingNamespace: String? = nil, readOnly: Bool = false
    ) throws(XMLParseError) -> XPathDocument {
        try ParseState.parse(bytes, lean: false) { parsed, _, _, _ throws(XMLParseError) in
            guard let parsed else { throw ParseState.malformed([]) }
            if parsed.pointee.intSubset != nil || parsed.pointee.extSubset != nil {
                xmlFreeDoc(parsed)
                throw XMLParseError(.doctype, line: 1)
            }
            if let root = xmlDocGetRootElement(parsed) { tidy(root, droppingNamespace: droppingNamespace) }
            return XPathDocument(doc: parsed, readOnly: readOnly)
        }
    }

    /// A document whose root is a copy of `element` and everything inside it (elements,
    /// attributes, the text of elements without child elements), e.g. a form's primary instance
    /// (the `instance` element's child), with the same namespace rule as `parse`.
    public convenience init(copying element: SafeXMLElement, droppingNamespace: String? = nil, readOnly: Bool = false) {
        LibXML2.ensureInitialised()
        guard let doc = LibXML2.withXMLChars("1.0", { xmlNewDoc($0) }) else {
            fatalError("libxml2 could not allocate a document")
        }
        let root = Self.element(named: element, in: doc)
        xmlDocSetRootElement(doc, root)
        var prefixes: [String: UnsafeMutablePointer<xmlNs>] = [:]
        Self.copyContent(of: element, into: root, root: root, droppingNamespace: droppingNamespace, prefixes: &prefixes)
        self.init(doc: doc, readOnly: readOnly)
    }

    /// A fresh copy of the whole document (a submission's instance from a form's template),
    /// writable unless asked otherwise. Cheap: one `xmlCopyDoc`.
    public func copy(readOnly: Bool = false) -> XPathDocument {
        guard let copied = withExtendedLifetime(self, { xmlCopyDoc(doc, 1) }) else {
            fatalError("libxml2 could not copy a document")
        }
        return XPathDocument(doc: copied, readOnly: readOnly)
    }

    /// The root element.
    public var root: XPathNode? {
        xmlDocGetRootElement(doc).map { XPathNode(document: self, node: $0) }
    }

    /// The element at a path of local names from the root, the root's own name first
    /// (`["data", "group", "age"]`); the first child of each name is taken.
    public func node(at path: [String]) -> XPathNode? {
        guard let first = path.first, let root, root.name == first else { return nil }
        return root.descendant(Array(path.dropFirst()))
    }

    /// The document as XML text (UTF-8, with an XML declaration), for the stored instance.
    public func serialized() -> String {
        // The serializer may want the nodes' `doc`: a copy has it.
        if isReadOnly { return copy().serialized() }
        var buffer: UnsafeMutablePointer<xmlChar>?
        var size: Int32 = 0
        withExtendedLifetime(self) { xmlDocDumpMemoryEnc(doc, &buffer, &size, "UTF-8") }
        guard let buffer else { return "" }
        defer { fieldwork_xmlFree(buffer) }
        return String(decoding: UnsafeBufferPointer(start: buffer, count: Int(size)), as: UTF8.self)
    }

    /// Takes `node` out of the tree for good; it is freed with the document.
    func detach(_ node: xmlNodePtr) {
        xmlUnlinkNode(node)
        detached.append(node)
    }

    /// Keeps a node made outside the tree (``XPathNode/copy()``), freed with the
    /// document unless it is in the tree by then.
    func keep(_ node: xmlNodePtr) {
        detached.append(node)
    }

    // MARK: - Building

    /// Drops the namespace and the non-data nodes `parse` promises to drop, below `root`.
    private static func tidy(_ root: xmlNodePtr, droppingNamespace: String?) {
        var dropped: [UnsafeMutablePointer<xmlNs>] = []
        tidy(root, droppingNamespace: droppingNamespace, dropped: &dropped)
        // Freed only now: a declaration on an ancestor may have been used by any descendant.
        for ns in dropped { xmlFreeNs(ns) }
    }

    private static func tidy(
        _ element: xmlNodePtr, droppingNamespace: String?, dropped: inout [UnsafeMutablePointer<xmlNs>]
    ) {
        // The element's own declarations: the dropped namespace goes, orx's is normalised.
        var kept: [UnsafeMutablePointer<xmlNs>] = []
        var declaration = element.pointee.nsDef
        while let ns = declaration {
            declaration = ns.pointee.next
            ns.pointee.next = nil
            guard let href = LibXML2.string(ns.pointee.href) else { continue }
            if href == droppingNamespace {
                dropped.append(ns)
                continue
            }
            if XPathNamespaces.normalized(href) != href {
                if let old = ns.pointee.href { fieldwork_xmlFree(UnsafeMutableRawPointer(mutating: old)) }
                ns.pointee.href = UnsafePointer(xmlStrdup(XPathNamespaces.openRosa))
            }
            kept.last?.pointee.next = ns
            kept.append(ns)
        }
        element.pointee.nsDef = kept.first
        if let droppingNamespace {
            if let ns = element.pointee.ns, LibXML2.string(ns.pointee.href) == droppingNamespace {
                element.pointee.ns = nil
            }
            var attribute = element.pointee.properties
            while let a = attribute {
                if let ns = a.pointee.ns, LibXML2.string(ns.pointee.href) == droppingNamespace { a.pointee.ns = nil }
                attribute = a.pointee.next
            }
        }
        var hasElements = false
        var child = element.pointee.children
        while let c = child {
            if c.pointee.type == XML_ELEMENT_NODE { hasElements = true }
            child = c.pointee.next
        }
        child = element.pointee.children
        while let c = child {
            child = c.pointee.next
            switch c.pointee.type {
            case XML_ELEMENT_NODE:
                tidy(c, droppingNamespace: droppingNamespace, dropped: &dropped)
            case XML_COMMENT_NODE, XML_PI_NODE:
                xmlUnlinkNode(c)
                xmlFreeNode(c)
            case XML_TEXT_NODE where hasElements && xmlIsBlankNode(c) != 0:
                xmlUnlinkNode(c)
                xmlFreeNode(c)
            default:
                break
            }
        }
    }

    /// A new element named as `source` (its namespace is set by `copyContent`).
    private static func element(named source: SafeXMLElement, in doc: xmlDocPtr) -> xmlNodePtr {
        guard let node = LibXML2.withXMLChars(source.localName, { xmlNewDocNode(doc, nil, $0, nil) }) else {
            fatalError("libxml2 could not allocate an element")
        }
        return node
    }

    /// Copies the namespace, attributes and content of `source` onto `node`, then its child
    /// elements, recursively. Namespaces are declared once, on the root, with ODK's usual prefixes.
    private static func copyContent(
        of source: SafeXMLElement, into node: xmlNodePtr, root: xmlNodePtr, droppingNamespace: String?,
        prefixes: inout [String: UnsafeMutablePointer<xmlNs>]
    ) {
        func namespace(_ uri: String?) -> UnsafeMutablePointer<xmlNs>? {
            guard let uri, uri != droppingNamespace else { return nil }
            let normalized = XPathNamespaces.normalized(uri)
            if let ns = prefixes[normalized] { return ns }
            let prefix = XPathNamespaces.usualPrefixes[normalized] ?? "ns\(prefixes.count + 1)"
            let ns = LibXML2.withXMLChars(normalized, prefix) { xmlNewNs(root, $0, $1) }
            prefixes[normalized] = ns
            return ns
        }
        xmlSetNs(node, namespace(source.namespaceURI))
        for attribute in source.attributes {
            let ns = namespace(attribute.namespaceURI)
            LibXML2.withXMLChars(attribute.localName, attribute.value) { _ = xmlSetNsProp(node, ns, $0, $1) }
        }
        let children = source.children
        guard !children.isEmpty else {
            let text = source.textContent
            if !text.isEmpty { xmlAddChild(node, LibXML2.withXMLChars(text) { xmlNewDocText(node.pointee.doc, $0) }) }
            return
        }
        for child in children {
            let copy = element(named: child, in: node.pointee.doc)
            xmlAddChild(node, copy)
            copyContent(of: child, into: copy, root: root, droppingNamespace: droppingNamespace, prefixes: &prefixes)
        }
    }
}
