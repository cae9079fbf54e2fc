/// The bytes of a page being written from its plan: appended to an array, then handed over as
/// the response body in one piece.
///
/// Not a `ByteBuffer` while the page is written: each write to a ByteBuffer, a class's storage
/// underneath, checked exclusive access at run time, and a create view makes some 130 writes;
/// those checks cost as much as the rest of the writing. An array's are checked when compiled.
struct PageBuffer {
    private(set) var bytes: [UInt8]

    init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Empties it, keeping its capacity for the next writes.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    mutating func writeBytes(_ more: [UInt8]) {
        bytes.append(contentsOf: more)
    }

    mutating func writeBytes(_ more: ArraySlice<UInt8>) {
        bytes.append(contentsOf: more)
    }

    mutating func writeBytes(_ more: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: more)
    }

    mutating func writeStaticString(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func writeString(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }
}
