import NIOCore
import Synchronization

/// A request body that notes when the HTTP client first asks for it. The client asks only once
/// the connection stands and the request head is written, so a failure before that means the
/// service cannot have acted (unreachable, safe to send again), and a failure after it that it
/// may have (outcome unknown, never sent again by itself).
package final class SentMarker: Sendable {
    private let sent = Mutex(false)

    package init() {}

    package var wasSent: Bool { sent.withLock { $0 } }

    /// The bytes as a stream that marks this marker when read.
    package func body(_ bytes: [UInt8]) -> Chunks { Chunks(bytes: bytes, marker: self) }

    fileprivate func mark() { sent.withLock { $0 = true } }

    /// The body as one chunk.
    package struct Chunks: AsyncSequence, Sendable {
        package typealias Element = ByteBuffer
        let bytes: [UInt8]
        let marker: SentMarker

        package func makeAsyncIterator() -> Iterator { Iterator(bytes: bytes, marker: marker) }

        package struct Iterator: AsyncIteratorProtocol {
            var bytes: [UInt8]?
            let marker: SentMarker

            package mutating func next() async -> ByteBuffer? {
                marker.mark()
                guard let pending = bytes else { return nil }
                bytes = nil
                return pending.isEmpty ? nil : ByteBuffer(bytes: pending)
            }
        }
    }
}
