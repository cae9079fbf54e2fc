import FormModel
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import FormPages
@testable import FormStore
@testable import FormWeb

@Suite("Attachments: serving files")
struct AttachmentsResponseTests {
    typealias F = AttachmentFixtures

    static func file(_ name: String, type: String?) -> StoredAttachment {
        let record = AttachmentRecord()
        record.id = UUID().uuidString.lowercased()
        record.owner = "a"
        record.formID = "f"
        record.field = "files"
        record.name = name
        record.size = 1
        record.contentType = type
        record.createdAt = Date()
        record.staged = false
        record.position = 0
        return StoredAttachment(record)
    }

    @Test(
        "only raster images are inline; PDF, SVG, HTML, XML and unknown files are downloads, markup as plain bytes",
        arguments: [
            ("image/png", "image/png", "inline"), ("image/jpeg", "image/jpeg", "inline"),
            ("image/gif", "image/gif", "inline"),
            ("image/webp", "image/webp", "inline"), ("application/pdf", "application/pdf", "attachment"),
            ("image/svg+xml", "application/octet-stream", "attachment"),
            ("text/html", "application/octet-stream", "attachment"),
            ("application/xhtml+xml", "application/octet-stream", "attachment"),
            ("application/xml", "application/octet-stream", "attachment"),
            ("text/javascript", "application/octet-stream", "attachment"),
        ])
    func types(sniffed: String, served: String, disposition: String) {
        let headers = AttachmentResponse.headers(for: Self.file("x.bin", type: sniffed))
        #expect(headers[.contentType] == served)
        #expect(headers[.contentDisposition] == #"\#(disposition); filename="x.bin"; filename*=UTF-8''x.bin"#)
    }

    @Test("an unrecognised file is application/octet-stream, a download")
    func unknown() {
        let headers = AttachmentResponse.headers(for: Self.file("data", type: nil))
        #expect(headers[.contentType] == "application/octet-stream")
        #expect(headers[.contentDisposition]?.hasPrefix("attachment;") == true)
    }

    @Test("file names with quotes, backslashes and non-ASCII stay inside the header")
    func filenames() {
        let headers = AttachmentResponse.headers(for: Self.file(#"a "b" \ naïve;.pdf"#, type: "application/pdf"))
        #expect(
            headers[.contentDisposition]
                == #"attachment; filename="a _b_ _ na_ve;.pdf"; filename*=UTF-8''a%20%22b%22%20%5C%20na%C3%AFve%3B.pdf"#
        )
    }

    @Test(
        "a stored file is served from disk with nosniff, a sandboxing policy (kept by the site-wide headers) and private caching"
    )
    func served() async throws {
        try await F.withStore { store, _ in
            let submission = try await store.receive(
                ChunkedBody(
                    F.body([.file("files", filename: "page.html", type: "text/html", bytes: F.html)]), chunkSize: 50),
                contentType: F.contentType, contentLength: nil, schema: F.schema, owner: "a")
            let id = try #require(submission.files["files"]?.first?.id)
            let stored = try #require(try await store.stagedFile(id: id, owner: "a"))

            let router = Router()
            // As in the app: the site-wide headers must not loosen the file's own policy.
            router.add(middleware: SecurityHeadersMiddleware())
            let renderer = try await Fixtures.renderer()
            router.add(
                middleware: ErrorPageMiddleware(
                    notFound: try renderer.notFoundPage(), gone: try renderer.gonePage(),
                    unavailable: try renderer.unavailablePage(), renderer: renderer))
            router.get("/file") { _, context in
                try await AttachmentResponse.response(for: stored, store: store, context: context)
            }
            router.post("/upload") { _, _ -> Response in throw UploadError.tooLarge(limit: 10 << 20) }
            let app = Application(router: router)
            try await app.test(.router) { client in
                try await client.execute(uri: "/file", method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(Array(buffer: response.body) == F.html)
                    #expect(response.headers[.contentType] == "application/octet-stream")
                    #expect(
                        response.headers[.contentDisposition]
                            == #"attachment; filename="page.html"; filename*=UTF-8''page.html"#)
                    #expect(response.headers[.init("X-Content-Type-Options")!] == "nosniff")
                    #expect(response.headers[.init("Content-Security-Policy")!] == "default-src 'none'; sandbox")
                    #expect(response.headers[.cacheControl] == "no-store")
                    #expect(response.headers[.contentLength] == String(F.html.count))
                }
                try await client.execute(uri: "/upload", method: .post) { response in
                    #expect(response.status == .contentTooLarge)
                    #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                    #expect(response.headers[.cacheControl] == "no-store")
                    #expect(
                        String(buffer: response.body).contains(
                            "The files you sent are larger than 10 MB altogether. Send fewer or smaller files."))
                }
            }
        }
    }

    @Test(
        "in the app a refused upload answers with the error page: its status, not cached, what happened and the way back"
    )
    func refusedUploadPage() async throws {
        try await TestApp.run(forms: [(F.schema, .public)]) { client in
            let browser = TestBrowser(client)
            let form = try await browser.get("/forms/test-form")
            let refused = try await browser.postMultipart(
                "/forms/test-form",
                [.field("_csrf", form.csrf ?? ""), .field("tags", String(repeating: "a", count: 1_100_000))])
            #expect(refused.status == .contentTooLarge)
            #expect(refused.headers[.contentType] == "text/html; charset=utf-8")
            #expect(refused.headers[.cacheControl] == "no-store")
            #expect(refused.title == "Too much to upload – Fieldwork")
            #expect(refused.body.contains(#"<h1 class="fw-page-header__title">Too much to upload</h1>"#))
            #expect(
                refused.body.contains(
                    "<p>The files you sent are larger than 1.0 MB altogether. Send fewer or smaller files.</p>"))
            #expect(refused.body.contains("<p>Use your browser’s Back button to return to the form.</p>"))
        }
    }
}
