import FluentKit
import FormModel
import Foundation
import Hummingbird
import TestSupport
import Testing

@testable import FormPages
@testable import FormStore
@testable import FormWeb

@Suite("Attachments: streaming multipart reader")
struct AttachmentsReaderTests {
    typealias F = AttachmentFixtures

    @Test(
        "repeated plain `files` parts give several files under one name, beside repeated text fields",
        arguments: [1, 7, 4096])
    func repeatedFiles(chunkSize: Int) async throws {
        try await F.withStore { store, database in
            let body = ChunkedBody(
                F.body([
                    .field("title", "Broken hinge"),
                    .file("files", filename: "photo.png", type: "image/png", bytes: F.png),
                    .field("tags", "door"),
                    .file("files", filename: "manual.pdf", type: "application/pdf", bytes: F.pdf),
                    .field("tags", "kitchen"),
                    .file("files", filename: "notes.txt", type: "text/plain", bytes: F.lookalike),
                ]), chunkSize: chunkSize)
            let submission = try await store.receive(
                body, contentType: F.contentType, contentLength: nil, schema: F.schema, owner: "browser-a")

            #expect(submission.fields["title"] == ["Broken hinge"])
            #expect(submission.fields["tags"] == ["door", "kitchen"])
            let files = try #require(submission.files["files"])
            #expect(files.map(\.name) == ["photo.png", "manual.pdf", "notes.txt"])
            #expect(files.map(\.size) == [F.png.count, F.pdf.count, F.lookalike.count])
            #expect(files.map(\.contentType) == ["image/png", "application/pdf", "text/plain"])
            // Every byte arrived intact, under the id only; staging is empty again.
            #expect(try Array(Data(contentsOf: store.folder.appendingPathComponent(files[0].id))) == F.png)
            #expect(try Array(Data(contentsOf: store.folder.appendingPathComponent(files[1].id))) == F.pdf)
            #expect(try Array(Data(contentsOf: store.folder.appendingPathComponent(files[2].id))) == F.lookalike)
            #expect(F.files(in: store.folder) == files.map(\.id).sorted())
            #expect(F.files(in: store.stagingFolder).isEmpty)
            let staged = try await store.stagedFiles(ids: files.map(\.id), owner: "browser-a")
            #expect(staged.map(\.submitted) == files)
            #expect(
                staged.allSatisfy { $0.staged && $0.formID == "test-form" && $0.field == "files" && $0.objectID == nil }
            )
            #expect(body.deliveredBytes == body.bytes.count)
        }
    }

    @Test("an empty file input (no name, no bytes) is ignored; an empty chosen file is kept")
    func emptyInput() async throws {
        try await F.withStore { store, _ in
            let submission = try await store.receive(
                ChunkedBody(F.body([.field("title", "x"), .file("files", filename: "", bytes: [])]), chunkSize: 5),
                contentType: F.contentType, contentLength: nil, schema: F.schema, owner: "a")
            #expect(submission.files.isEmpty)
            #expect(submission.fields["title"] == ["x"])
            #expect(F.files(in: store.folder).isEmpty)

            let chosen = try await store.receive(
                ChunkedBody(F.body([.file("files", filename: "empty.txt", bytes: [])]), chunkSize: 5),
                contentType: F.contentType, contentLength: nil, schema: F.schema, owner: "a")
            let file = try #require(chosen.files["files"]?.first)
            #expect(file.size == 0 && file.name == "empty.txt")
            #expect(F.files(in: store.folder) == [file.id])
        }
    }

    @Test("files under names that are not attachments fields are dropped")
    func foreignFiles() async throws {
        try await F.withStore { store, database in
            let submission = try await store.receive(
                ChunkedBody(
                    F.body([
                        .file("title", filename: "a.png", bytes: F.png),
                        .file("other", filename: "b.png", bytes: F.png),
                    ]), chunkSize: 64),
                contentType: F.contentType, contentLength: nil, schema: F.schema, owner: "a")
            #expect(submission.files.isEmpty)
            #expect(submission.fields.isEmpty)
            #expect(F.files(in: store.folder).isEmpty)
            #expect(try await AttachmentRecord.query(on: database.database()).count() == 0)
        }
    }

    @Test("a body over the limit is refused with 413 while streaming, leaving nothing staged")
    func tooLarge() async throws {
        // 4 KB of text allowance + 3 × 1 KB files = 7 KB for this form.
        let limits = AttachmentLimits(maxRequestBytes: 1 << 20, textAllowance: 4096)
        try await F.withStore(limits: limits) { store, database in
            #expect(limits.requestLimit(for: F.schema) == 7168)
            let big = Array(repeating: UInt8(ascii: "a"), count: 1000)
            let body = ChunkedBody(
                F.body((1...40).map { .file("files", filename: "\($0).txt", bytes: big) }),
                chunkSize: 512)
            let error = await #expect(throws: UploadError.self) {
                try await store.receive(
                    body, contentType: F.contentType, contentLength: nil, schema: F.schema, owner: "a")
            }
            #expect(error == .tooLarge(limit: 7168))
            #expect(error?.status == .contentTooLarge)
            #expect(
                error?.message == "The files you sent are larger than 7 KB altogether. Send fewer or smaller files.")
            // It stopped reading at the limit, not at the end of the 40 KB body.
            #expect(body.deliveredBytes <= 7168 + 512)
            #expect(body.bytes.count > 30_000)
            #expect(F.files(in: store.folder).isEmpty)
            #expect(F.files(in: store.stagingFolder).isEmpty)
            let rows = try await AttachmentRecord.query(on: database.database()).count()
            #expect(rows == 0)

            // A declared length over the limit is refused before a byte is read.
            let declared = ChunkedBody(F.body([.field("title", "x")]), chunkSize: 16)
            await #expect(throws: UploadError.tooLarge(limit: 7168)) {
                try await store.receive(
                    declared, contentType: F.contentType, contentLength: 7169, schema: F.schema, owner: "a")
            }
            #expect(declared.deliveredBytes == 0)
        }
    }

    @Test("a file over max-size is flagged with its real size, nothing of it kept, the rest of the form kept")
    func oversized() async throws {
        try await F.withStore { store, _ in
            let big = Array(repeating: UInt8(0x0D), count: 3000)
            let submission = try await store.receive(
                ChunkedBody(
                    F.body([
                        .field("title", "kept"), .file("files", filename: "big.bin", bytes: big),
                        .file("files", filename: "small.png", bytes: F.png),
                    ]), chunkSize: 100),
                contentType: F.contentType, contentLength: nil, schema: F.schema, owner: "a")
            #expect(submission.fields["title"] == ["kept"])
            let files = try #require(submission.files["files"])
            #expect(files.map(\.name) == ["big.bin", "small.png"])
            #expect(files[0].size == 3000)
            #expect(files[0].size > AttachmentFixtures.schema.field(named: "files")!.constraints.maxSize!)
            #expect(F.files(in: store.folder) == [files[1].id])
            #expect(F.files(in: store.stagingFolder).isEmpty)
            #expect(try await store.stagedFiles(ids: files.map(\.id), owner: "a").map(\.id) == [files[1].id])
            // The real size is the mark validation reads.
            let issues = FormValidator.validate(F.schema, submission).issues.filter { $0.field == "files" }
            #expect(issues.map(\.code) == ["file-size"])
        }
    }

    @Test("files past max-count plus one are dropped unread")
    func tooMany() async throws {
        try await F.withStore { store, _ in
            let parts: [AttachmentFixtures.Part] = (1...6).map { .file("files", filename: "\($0).png", bytes: F.png) }
            let submission = try await store.receive(
                ChunkedBody(F.body(parts), chunkSize: 33), contentType: F.contentType, contentLength: nil,
                schema: F.schema, owner: "a")
            #expect(submission.files["files"]?.map(\.name) == ["1.png", "2.png", "3.png", "4.png"])
            #expect(F.files(in: store.folder).count == 4)
            // One over max-count is enough for validation to say so.
            let issues = FormValidator.validate(F.schema, submission).issues.filter { $0.field == "files" }
            #expect(issues.map(\.code) == ["max-count"])
        }
    }

    @Test("the type comes from the content: an HTML file named .png sent as image/png is text/html")
    func sniffedType() async throws {
        try await F.withStore { store, _ in
            let submission = try await store.receive(
                ChunkedBody(
                    F.body([.file("files", filename: "cat.png", type: "image/png", bytes: F.html)]), chunkSize: 9),
                contentType: F.contentType, contentLength: nil, schema: F.schema, owner: "a")
            let file = try #require(submission.files["files"]?.first)
            #expect(file.contentType == "text/html")
            #expect(file.name == "cat.png")
        }
    }

    @Test("file names are sanitised and never become paths")
    func names() async throws {
        try await F.withStore { store, _ in
            let submission = try await store.receive(
                ChunkedBody(F.body([.file("files", filename: "../../etc/passwd", bytes: F.png)]), chunkSize: 9),
                contentType: F.contentType, contentLength: nil, schema: F.schema, owner: "a")
            let file = try #require(submission.files["files"]?.first)
            #expect(file.name == "passwd")
            #expect(UUID(uuidString: file.id) != nil)
            #expect(F.files(in: store.folder) == [file.id])
        }
    }

    @Test("a body cut off inside a part is malformed and leaves nothing behind")
    func truncated() async throws {
        try await F.withStore { store, _ in
            let whole = F.body([
                .file("files", filename: "a.png", bytes: F.png), .file("files", filename: "b.pdf", bytes: F.pdf),
            ])
            let cut = Array(whole.prefix(whole.count - 30))
            await #expect(throws: UploadError.malformed) {
                try await store.receive(
                    ChunkedBody(cut, chunkSize: 10), contentType: F.contentType, contentLength: nil, schema: F.schema,
                    owner: "a")
            }
            #expect(F.files(in: store.folder).isEmpty)
            #expect(F.files(in: store.stagingFolder).isEmpty)

            // A body that never contains its boundary is no form either.
            await #expect(throws: UploadError.malformed) {
                try await store.receive(
                    ChunkedBody(F.body([.field("title", "x")]), chunkSize: 10),
                    contentType: "multipart/form-data; boundary=other", contentLength: nil, schema: F.schema, owner: "a"
                )
            }
        }
    }

    @Test("a text field over the per-field limit is refused with 413")
    func longText() async throws {
        let limits = AttachmentLimits(maxFieldBytes: 100)
        try await F.withStore(limits: limits) { store, _ in
            let error = await #expect(throws: UploadError.self) {
                try await store.receive(
                    ChunkedBody(F.body([.field("title", String(repeating: "x", count: 101))]), chunkSize: 16),
                    contentType: F.contentType, contentLength: nil, schema: F.schema, owner: "a")
            }
            #expect(error?.code == "text-too-large")
            #expect(error?.message == "The text you sent is longer than 100 bytes. Shorten it and send the form again.")
        }
    }

    @Test("a request that is not multipart/form-data is refused with 415")
    func notMultipart() async throws {
        try await F.withStore { store, _ in
            await #expect(throws: UploadError.notMultipart) {
                try await store.receive(
                    ChunkedBody(Array("title=x".utf8), chunkSize: 16), contentType: "application/x-www-form-urlencoded",
                    contentLength: nil, schema: F.schema, owner: "a")
            }
        }
    }

    @Test("content types and dispositions are read with quoting and case as browsers and clients send them")
    func headers() {
        #expect(MultipartHeader.boundary(ofContentType: "Multipart/Form-Data; boundary=\"a b;c\"") == "a b;c")
        #expect(MultipartHeader.boundary(ofContentType: "multipart/form-data") == nil)
        #expect(MultipartHeader.boundary(ofContentType: "multipart/mixed; boundary=x") == nil)
        let file = MultipartHeader.disposition(#"form-data; name="files"; filename="a \"quoted\" name.png""#)
        #expect(file?.name == "files")
        #expect(file?.filename == #"a "quoted" name.png"#)
        #expect(MultipartHeader.disposition(#"form-data; name="title""#)?.filename == nil)
        #expect(
            MultipartHeader.disposition("form-data; name=files; filename*=UTF-8''na%C3%AFve.txt")?.filename
                == "naïve.txt")
        #expect(MultipartHeader.disposition("attachment; name=x") == nil)
    }

    @Test("limits: FIELDWORK_MAX_UPLOAD takes bytes or KB/MB/GB; a form's limit follows its fields")
    func limits() {
        #expect(AttachmentLimits.fromEnvironment(["FIELDWORK_MAX_UPLOAD": "10MB"]).maxRequestBytes == 10 << 20)
        #expect(AttachmentLimits.fromEnvironment(["FIELDWORK_MAX_UPLOAD": "2048"]).maxRequestBytes == 2048)
        #expect(AttachmentLimits.fromEnvironment(["FIELDWORK_MAX_UPLOAD": "lots"]).maxRequestBytes == 64 << 20)
        let limits = AttachmentLimits()
        #expect(limits.requestLimit(for: Fixtures.schema([])) == 1 << 20)
        #expect(limits.requestLimit(for: F.schema) == (1 << 20) + 3 * 1024)
        let unbounded = Fixtures.schema([Field(name: "f", kind: .attachments)])
        #expect(limits.requestLimit(for: unbounded) == 64 << 20)
        #expect(AttachmentLimits.describe(10 << 20) == "10 MB")
        #expect(AttachmentLimits.describe(1536) == "1.5 KB")
    }
}
