import Foundation

/// A namespace of a document as the parser interned its URI, compared by identity.
public struct XMLNamespaceKey: Hashable {
    @usableFromInline let uriPointer: UnsafePointer<UInt8>

    @inlinable
    init(_ uri: UnsafePointer<UInt8>) { uriPointer = uri }

    /// The address, for caches of their own (`IdentityCache`).
    @inlinable
    public var identity: UInt { UInt(bitPattern: uriPointer) }

    /// The namespace URI.
    @inlinable
    public var uri: String { String(cString: uriPointer) }
}
