import Foundation

/// An element name as the parser interned it, compared by identity: a cheap dictionary key.
/// Equal names of one document share one pointer when libxml2 interns them (it does by
/// default), but two keys that differ may still spell the same name, so use a key only to
/// cache what its text says, never to decide that two names differ.
public struct XMLNameKey: Hashable {
    @usableFromInline let pointer: UnsafeRawPointer?

    @inlinable
    init(_ name: UnsafePointer<UInt8>?) { pointer = name.map(UnsafeRawPointer.init) }

    /// The address, for caches of their own (`IdentityCache`); 0 for no name.
    @inlinable
    public var identity: UInt { UInt(bitPattern: pointer) }
}
