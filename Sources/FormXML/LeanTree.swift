internal import CLibXML2
import Foundation

/// The element tree of a `LeanXMLDocument`: elements, attributes and text
/// in flat arrays, names as the parser's interned strings (kept alive with its dictionary).
///
/// `@usableFromInline` with `XMLNode`, which the importers call thousands of times per document:
/// inlined into them, a walk costs what it cost when the tree was in the importers' own module.
/// Names are `UInt8` pointers (libxml2's `xmlChar`) so that inlined code needs no libxml2 types.
@usableFromInline
final class LeanTree {
    @usableFromInline
    struct Element {
        @usableFromInline var name: UnsafePointer<UInt8>
        @usableFromInline var uri: UnsafePointer<UInt8>?
        @usableFromInline var firstChild: Int32 = -1
        @usableFromInline var nextSibling: Int32 = -1
        @usableFromInline var firstAttribute: Int32
        @usableFromInline var attributeCount: Int32
        /// The own text in `bytes`, -1 for none.
        @usableFromInline var textStart: Int32 = -1
        @usableFromInline var textLength: Int32 = 0
        @usableFromInline var line: Int
    }

    @usableFromInline
    struct Attribute {
        @usableFromInline var name: UnsafePointer<UInt8>
        @usableFromInline var uri: UnsafePointer<UInt8>?
        /// The value in `bytes`, followed by a NUL.
        @usableFromInline var valueStart: Int32
        @usableFromInline var valueLength: Int32
    }

    /// Where the arrays are: `XMLNode` reads them through this without retaining anything.
    @usableFromInline
    struct Storage {
        @usableFromInline var elements: UnsafeMutablePointer<Element>
        @usableFromInline var elementCount: Int
        @usableFromInline var attributes: UnsafeMutablePointer<Attribute>
        /// Attribute values and texts, each followed by a NUL.
        @usableFromInline var bytes: UnsafeMutablePointer<UInt8>
    }

    @usableFromInline let storage: UnsafeMutablePointer<Storage>
    private let dict: xmlDictPtr

    /// Takes over the builder's buffers.
    init(_ builder: LeanBuilder, dict: xmlDictPtr) {
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
    @inlinable @inline(__always)
    func string(start: Int32, length: Int32) -> String {
        String(decoding: UnsafeBufferPointer(start: bytes + Int(start), count: Int(length)), as: UTF8.self)
    }
}
