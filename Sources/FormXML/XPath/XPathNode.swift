internal import CLibXML2

/// A node of an `XPathDocument`, usually an element: what `XPathEvaluator` evaluates at and
/// what node-sets hold. Keeps its document alive; a node taken out of the tree (`remove()`)
/// stays valid, just detached, until the document goes.
public struct XPathNode: Hashable {
    /// What kind of node this is; node-sets may hold any of them.
    public enum Kind: Sendable, Hashable {
        /// The document node (`/`, `instance('id')`).
        case document
        case element
        case attribute
        case text
        /// Comments, processing instructions and the rest.
        case other
    }

    public let document: XPathDocument
    let node: xmlNodePtr

    init(document: XPathDocument, node: xmlNodePtr) {
        self.document = document
        self.node = node
    }

    public static func == (lhs: XPathNode, rhs: XPathNode) -> Bool { lhs.node == rhs.node }

    public func hash(into hasher: inout Hasher) { hasher.combine(node) }

    public var kind: Kind {
        switch node.pointee.type {
        case XML_DOCUMENT_NODE: .document
        case XML_ELEMENT_NODE: .element
        case XML_ATTRIBUTE_NODE: .attribute
        case XML_TEXT_NODE, XML_CDATA_SECTION_NODE: .text
        default: .other
        }
    }

    /// The local name of an element or attribute; "" for other nodes.
    public var name: String {
        guard kind == .element || kind == .attribute else { return "" }
        return LibXML2.string(node.pointee.name) ?? ""
    }

    /// The namespace of an element or attribute; nil when it has none.
    public var namespaceURI: String? {
        guard kind == .element || kind == .attribute else { return nil }
        return node.pointee.ns.flatMap { LibXML2.string($0.pointee.href) }
    }

    /// The element this node is in (for an attribute, its element); nil for the root element,
    /// the document node and a node taken out of the tree.
    public var parent: XPathNode? {
        guard let parent = node.pointee.parent, parent.pointee.type == XML_ELEMENT_NODE else { return nil }
        return XPathNode(document: document, node: parent)
    }

    /// The child elements in document order.
    public var children: [XPathNode] {
        var result: [XPathNode] = []
        var child = node.pointee.children
        while let c = child {
            if c.pointee.type == XML_ELEMENT_NODE { result.append(XPathNode(document: document, node: c)) }
            child = c.pointee.next
        }
        return result
    }

    /// The first child element named `name` (local name, any namespace).
    public func child(_ name: String) -> XPathNode? {
        LibXML2.withXMLChars(name) { wanted in
            var child = node.pointee.children
            while let c = child {
                if c.pointee.type == XML_ELEMENT_NODE, xmlStrEqual(c.pointee.name, wanted) != 0 {
                    return XPathNode(document: document, node: c)
                }
                child = c.pointee.next
            }
            return nil
        }
    }

    /// The element at a path of local names below this one (`["group", "age"]`); self for an
    /// empty path. The first child of each name is taken.
    public func descendant(_ path: [String]) -> XPathNode? {
        var current = self
        for name in path {
            guard let next = current.child(name) else { return nil }
            current = next
        }
        return current
    }

    /// The node's XPath string value: all the text inside it. Setting it replaces the node's
    /// content (child elements included) by that text, taken literally; the document must not
    /// be read-only.
    public var text: String {
        get { LibXML2.owned(xmlXPathCastNodeToString(node)) ?? "" }
        nonmutating set {
            precondition(!document.isReadOnly, "XPathNode.text set on a read-only XPathDocument")
            withExtendedLifetime(document) {
                switch node.pointee.type {
                case XML_ELEMENT_NODE:
                    while let child = node.pointee.children { document.detach(child) }
                    if !newValue.isEmpty {
                        xmlAddChild(node, LibXML2.withXMLChars(newValue) { xmlNewDocText(node.pointee.doc, $0) })
                    }
                case XML_ATTRIBUTE_NODE:
                    let attribute = UnsafeMutableRawPointer(node).assumingMemoryBound(to: xmlAttr.self)
                    // Its text node goes aside first (xmlSetNsProp would free it under any XPathNode).
                    while let child = node.pointee.children { document.detach(child) }
                    if let owner = node.pointee.parent {
                        LibXML2.withXMLChars(name, newValue) { _ = xmlSetNsProp(owner, attribute.pointee.ns, $0, $1) }
                    }
                case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                    LibXML2.withXMLChars(newValue) { xmlNodeSetContent(node, $0) }
                default:
                    preconditionFailure("XPathNode.text set on a node that holds no text")
                }
            }
        }
    }

    /// Takes the node (and everything inside it) out of the tree, e.g. a non-relevant node left
    /// out of the stored instance; the document must not be read-only.
    public func remove() {
        precondition(!document.isReadOnly, "XPathNode.remove on a read-only XPathDocument")
        precondition(kind != .document, "XPathNode.remove on the document node")
        document.detach(node)
    }

    /// Adds an element named `name` at the end of this element's children, in the namespace of
    /// `sibling` (nil: in this element's own), and returns it: `meta/deprecatedID` beside
    /// `meta/instanceID`. The document must not be read-only.
    @discardableResult
    public func appendElement(_ name: String, namespaceOf sibling: XPathNode? = nil) -> XPathNode {
        precondition(!document.isReadOnly, "XPathNode.appendElement on a read-only XPathDocument")
        precondition(kind == .element, "XPathNode.appendElement on a node that is no element")
        let ns = (sibling ?? self).node.pointee.ns
        guard
            let child = withExtendedLifetime(
                document, { LibXML2.withXMLChars(name) { xmlNewChild(node, ns, $0, nil) } })
        else { fatalError("libxml2 could not allocate an element") }
        return XPathNode(document: document, node: child)
    }

    /// Whether the element carries the attribute `name` in `namespaceURI` (`jr:template`).
    public func hasAttribute(_ name: String, namespaceURI: String) -> Bool {
        guard kind == .element else { return false }
        return LibXML2.withXMLChars(name, namespaceURI) { xmlHasNsProp(node, $0, $1) != nil }
    }

    /// Takes the attribute `name` in `namespaceURI` off the element, if it has it (a repeat's
    /// `jr:template`). The document must not be read-only.
    public func removeAttribute(_ name: String, namespaceURI: String) {
        precondition(!document.isReadOnly, "XPathNode.removeAttribute on a read-only XPathDocument")
        guard kind == .element else { return }
        withExtendedLifetime(document) {
            LibXML2.withXMLChars(name, namespaceURI) { name, uri in
                if let found = xmlHasNsProp(node, name, uri) { _ = xmlRemoveProp(found) }
            }
        }
    }

    /// A deep copy of this element, in the same document but not in its tree, for ``insert(_:)``:
    /// a repeat's template made an item. The document must not be read-only.
    public func copy() -> XPathNode {
        precondition(!document.isReadOnly, "XPathNode.copy on a read-only XPathDocument")
        precondition(kind == .element, "XPathNode.copy of a node that is no element")
        guard let copied = withExtendedLifetime(document, { xmlDocCopyNode(node, node.pointee.doc, 1) }) else {
            fatalError("libxml2 could not copy an element")
        }
        // Not in the tree until inserted: the document frees it if it never is.
        document.keep(copied)
        return XPathNode(document: document, node: copied)
    }

    /// Puts `element` (a ``copy()`` not yet inserted) just before this node, in the same
    /// parent. The document must not be read-only.
    public func insert(_ element: XPathNode) {
        precondition(!document.isReadOnly, "XPathNode.insert on a read-only XPathDocument")
        precondition(element.document === document && element.node.pointee.parent == nil)
        withExtendedLifetime(document) { _ = xmlAddPrevSibling(node, element.node) }
    }

    /// The node's path from the root by local names, e.g. `/data/group/age` (`@name` for an
    /// attribute), for messages.
    public var path: String {
        var steps: [String] = []
        var current: XPathNode? = self
        while let step = current, step.kind != .document {
            steps.append(step.kind == .attribute ? "@" + step.name : step.name)
            current = step.node.pointee.parent.map { XPathNode(document: document, node: $0) }
        }
        return "/" + steps.reversed().joined(separator: "/")
    }
}
