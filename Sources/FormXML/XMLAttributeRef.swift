import Foundation

/// One attribute met by `XMLNode.forEachAttribute`; valid only inside that call.
public struct XMLAttributeRef {
    @usableFromInline let tree: UnsafePointer<LeanTree.Storage>
    @usableFromInline let index: Int

    @inlinable
    init(tree: UnsafePointer<LeanTree.Storage>, index: Int) {
        self.tree = tree
        self.index = index
    }

    @inlinable @inline(__always)
    var attribute: LeanTree.Attribute { tree.pointee.attributes[index] }

    @inlinable
    public var localNameKey: XMLNameKey { XMLNameKey(attribute.name) }
    @inlinable
    public var localName: String { String(cString: attribute.name) }
    /// Nil for an attribute in no namespace (every unprefixed attribute).
    @inlinable
    public var namespaceKey: XMLNamespaceKey? { attribute.uri.map(XMLNamespaceKey.init) }
    @inlinable
    public var value: String {
        let a = attribute
        return tree.pointee.string(start: a.valueStart, length: a.valueLength)
    }

    /// Calls `body` with the value's UTF-8 bytes in place, so a caller can look a value up without building a String.
    @inlinable
    public func withValueBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let a = attribute
        return body(UnsafeBufferPointer(start: tree.pointee.bytes + Int(a.valueStart), count: Int(a.valueLength)))
    }
}
