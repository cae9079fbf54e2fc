import Foundation

/// An element of a lean document (`LeanXMLDocument`): what the OData reader walks, thousands
/// of elements at a time, without a retain and release per element. Valid only inside
/// `LeanXMLDocument.withRoot(_:)`, which keeps the document alive.
public struct XMLNode {
    @usableFromInline let tree: UnsafePointer<LeanTree.Storage>
    @usableFromInline let index: Int

    @inlinable
    init(tree: UnsafePointer<LeanTree.Storage>, index: Int) {
        self.tree = tree
        self.index = index
    }

    @inlinable @inline(__always)
    var element: LeanTree.Element { tree.pointee.elements[index] }

    @inlinable
    public var localName: String { String(cString: element.name) }

    @inlinable
    public var namespaceURI: String? { element.uri.map { String(cString: $0) } }

    /// 1-based line of the start tag.
    @inlinable
    public var line: Int { element.line }

    /// The value of an attribute in no namespace.
    @inlinable
    public func attribute(_ name: String) -> String? {
        name.withCString { wanted in
            attributeIndex { strcmp(UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self), wanted) == 0 }
        }.map(attributeValue)
    }

    @inlinable
    func attributeValue(_ i: Int) -> String {
        let a = tree.pointee.attributes[i]
        return tree.pointee.string(start: a.valueStart, length: a.valueLength)
    }

    @inlinable
    func attributeIndex(where matches: (UnsafePointer<UInt8>) -> Bool) -> Int? {
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
    @inlinable
    public func forEachAttribute(_ body: (XMLAttributeRef) -> Void) {
        let e = element
        var i = Int(e.firstAttribute)
        let end = i + Int(e.attributeCount)
        while i < end {
            body(XMLAttributeRef(tree: tree, index: i))
            i += 1
        }
    }

    /// Whether the element's local name is `name`, compared as C strings.
    @inlinable
    public func hasLocalName(_ name: StaticString) -> Bool {
        strcmp(
            UnsafeRawPointer(element.name).assumingMemoryBound(to: CChar.self),
            UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self)) == 0
    }

    /// The local name as libxml2 interns it: equal names of one document usually share one
    /// pointer, so a dictionary keyed by it classifies elements without building strings.
    @inlinable
    public var localNameKey: XMLNameKey { XMLNameKey(element.name) }

    /// The element's namespace, for the same kind of look-up; nil in no namespace.
    @inlinable
    public var namespaceKey: XMLNamespaceKey? { element.uri.map(XMLNamespaceKey.init) }

    /// The first child element.
    @inlinable
    public var firstChildElement: XMLNode? {
        let child = element.firstChild
        return child < 0 ? nil : XMLNode(tree: tree, index: Int(child))
    }

    /// The next sibling element.
    @inlinable
    public var nextSiblingElement: XMLNode? {
        let next = element.nextSibling
        return next < 0 ? nil : XMLNode(tree: tree, index: Int(next))
    }

    /// Calls `body` with each child element in document order, without building an array.
    @inlinable
    public func forEachChild(_ body: (XMLNode) throws -> Void) rethrows {
        var child = element.firstChild
        while child >= 0 {
            try body(XMLNode(tree: tree, index: Int(child)))
            child = tree.pointee.elements[Int(child)].nextSibling
        }
    }

    /// The text of the element's own text children (no descendants' text), joined.
    @inlinable
    public var ownText: String {
        let e = element
        return e.textStart < 0 ? "" : tree.pointee.string(start: e.textStart, length: e.textLength)
    }
}
