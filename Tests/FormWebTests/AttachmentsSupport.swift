import FormModel
import Foundation
import NIOConcurrencyHelpers
import NIOCore

@testable import FormPages
@testable import FormStore
@testable import FormWeb

/// Hand-built multipart bodies, fed in small chunks, and a store on a fresh data folder.
enum AttachmentFixtures {
    static let boundary = "----FieldworkBoundary7MA4YWxkTrZu0gW"
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

    static let png: [UInt8] =
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0x0D, count: 40) + [1, 2, 3]
    static let pdf: [UInt8] = Array("%PDF-1.7\r\n%\u{E2}\u{E3}\r\n1 0 obj\r\n<<>>\r\nendobj\r\n".utf8)
    /// Text with a CRLF and something like a boundary inside, which must come through as it was.
    static let lookalike: [UInt8] = Array("plain words\r\n--\(boundary.dropLast())\r\n--".utf8)
    static let html: [UInt8] = Array("<!DOCTYPE html><html><script>alert(document.cookie)</script></html>".utf8)

    /// A form with one attachments field `files` (at most 3 files of at most 1 KB) and `tags`.
    static let schema = Fixtures.schema([
        Field(name: "tags", kind: .text),
        Field(name: "files", kind: .attachments, constraints: Constraints(maxCount: 3, maxSize: 1024)),
    ])

    /// Opens a store on a fresh data folder (``TestDatabases/run(instances:_:)``: PostgreSQL
    /// with `FIELDWORK_TEST_POSTGRES`), runs `test`, closes and removes everything.
    static func withStore(
        limits: AttachmentLimits = AttachmentLimits(), clock: TestClock = TestClock(),
        _ test: (AttachmentStore, FieldworkDatabase) async throws -> Void
    ) async throws {
        try await TestDatabases.run { data, databases in
            let store = AttachmentStore(database: databases[0], dataFolder: data, limits: limits, now: { clock.now })
            try await test(store, databases[0])
        }
    }

    /// The files in a folder (not sub-folders), by name.
    static func files(in folder: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { name in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(
                atPath: folder.appendingPathComponent(name).path, isDirectory: &isFolder)
                && !isFolder.boolValue
        }.sorted()
    }
}

/// A clock tests move by hand.
final class TestClock: Sendable {
    private let box = NIOLockedValueBox(Date(timeIntervalSince1970: 1_795_000_000))
    var now: Date { box.withLockedValue { $0 } }
    func advance(by seconds: TimeInterval) { box.withLockedValue { $0 += seconds } }
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
