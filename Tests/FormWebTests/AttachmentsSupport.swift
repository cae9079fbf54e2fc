import FormModel
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import TestSupport

@testable import FormPages
@testable import FormStore
@testable import FormWeb

/// Hand-built multipart bodies, fed in small chunks.
extension AttachmentFixtures {
    static var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    enum Part {
        case field(String, String)
        case file(String, filename: String, type: String = "application/octet-stream", bytes: [UInt8])
    }

    /// A body as a browser writes it: CRLF line ends, a closing `--boundary--`.
    static func body(_ parts: [Part]) -> [UInt8] {
        var out: [UInt8] = []
        func line(_ text: String) { out += Array(text.utf8) + [13, 10] }
        for part in parts {
            line("--\(boundary)")
            switch part {
            case .field(let name, let value):
                line("Content-Disposition: form-data; name=\"\(name)\"")
                line("")
                out += Array(value.utf8)
            case .file(let name, let filename, let type, let bytes):
                line("Content-Disposition: form-data; name=\"\(name)\"; filename=\"\(filename)\"")
                line("Content-Type: \(type)")
                line("")
                out += bytes
            }
            out += [13, 10]
        }
        line("--\(boundary)--")
        return out
    }
}

/// A request body delivered in fixed-size chunks, counting what the reader pulled.
struct ChunkedBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let bytes: [UInt8]
    let chunkSize: Int
    let delivered = NIOLockedValueBox(0)

    init(_ bytes: [UInt8], chunkSize: Int) {
        self.bytes = bytes
        self.chunkSize = chunkSize
    }

    var deliveredBytes: Int { delivered.withLockedValue { $0 } }

    struct AsyncIterator: AsyncIteratorProtocol {
        let body: ChunkedBody
        var offset = 0
        mutating func next() async -> ByteBuffer? {
            guard offset < body.bytes.count else { return nil }
            let end = Swift.min(offset + body.chunkSize, body.bytes.count)
            defer { offset = end }
            body.delivered.withLockedValue { $0 += end - offset }
            return ByteBuffer(bytes: body.bytes[offset..<end])
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(body: self) }
}
