import FormModel
import FormStore
import Foundation

/// Files of known kinds, a form with an attachments field, and an attachment store on a fresh
/// data folder. FormWebTests adds the multipart bodies browsers send.
package enum AttachmentFixtures {
    package static let boundary = "----FieldworkBoundary7MA4YWxkTrZu0gW"

    package static let png: [UInt8] =
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0x0D, count: 40) + [1, 2, 3]
    package static let pdf: [UInt8] = Array("%PDF-1.7\r\n%\u{E2}\u{E3}\r\n1 0 obj\r\n<<>>\r\nendobj\r\n".utf8)
    /// Text with a CRLF and something like a boundary inside, which must come through as it was.
    package static let lookalike: [UInt8] = Array("plain words\r\n--\(boundary.dropLast())\r\n--".utf8)
    package static let html: [UInt8] = Array(
        "<!DOCTYPE html><html><script>alert(document.cookie)</script></html>".utf8)

    /// A form with one attachments field `files` (at most 3 files of at most 1 KB) and `tags`.
    package static let schema = Fixtures.schema([
        Field(name: "tags", kind: .text),
        Field(name: "files", kind: .attachments, constraints: Constraints(maxCount: 3, maxSize: 1024)),
    ])

    /// Opens a store on a fresh data folder (``TestDatabases/run(instances:_:)``: PostgreSQL
    /// with `FIELDWORK_TEST_POSTGRES`), runs `test`, closes and removes everything.
    package static func withStore(
        limits: AttachmentLimits = AttachmentLimits(), clock: TestClock = TestClock(),
        _ test: (AttachmentStore, FieldworkDatabase) async throws -> Void
    ) async throws {
        try await TestDatabases.run { data, databases in
            let store = AttachmentStore(database: databases[0], dataFolder: data, limits: limits, now: { clock.now })
            try await test(store, databases[0])
        }
    }

    /// The files in a folder (not sub-folders), by name.
    package static func files(in folder: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { name in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(
                atPath: folder.appendingPathComponent(name).path, isDirectory: &isFolder)
                && !isFolder.boolValue
        }.sorted()
    }
}
