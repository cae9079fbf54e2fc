import FormModel
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import TestSupport
import Testing

@testable import FormPages
@testable import FormStore
@testable import FormWeb

/// The demo form posts `multipart/form-data` (it has attachments): refused with the file kept,
/// then created with it, shown, served and edited.
@Suite("Demo form submissions (multipart)")
struct DemoSubmissionTests {
    typealias Part = AttachmentFixtures.Part
    static let png = AttachmentFixtures.png

    static func multipart(_ parts: [Part]) -> ByteBuffer { ByteBuffer(bytes: AttachmentFixtures.body(parts)) }

    static func post(_ browser: TestBrowser, _ uri: String, _ parts: [Part]) async throws -> TestBrowser.Page {
        try await browser.send(
            uri, method: .post, headers: [.contentType: AttachmentFixtures.contentType], body: multipart(parts))
    }

    @Test("a refused create lists the uploaded file with its id; sent back, it becomes the object's file")
    func fileKeptAcrossRefusal() async throws {
        try await TestApp.run(forms: [], seedsDemo: true) { client in
            let browser = TestBrowser(client)
            let page = try await browser.get("/forms/new-issue/new?task=T-1001")
            let controls: [Part] = [.field("_csrf", page.csrf ?? ""), .field("_prefill", page.prefill ?? "")]
            // No project: refused, but the file is staged and listed.
            let refused = try await Self.post(
                browser, "/forms/new-issue",
                controls + [
                    .field("title", "With a file"), .file("attachments", filename: "shot.png", bytes: Self.png),
                ])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.body.contains("Select a project"))
            #expect(refused.body.contains(#"<span class="fw-attachment__name">shot.png</span>"#))
            let kept = try #require(refused.body.firstMatch(of: /name="attachments\._kept" value="([0-9a-f-]{36})"/)?.1)
            #expect(refused.body.contains(#"<img class="fw-attachment__thumb" src="/attachments/staged/\#(kept)""#))
            #expect(refused.body.contains(#"name="task" type="text" readonly value="T-1001""#))
            let preview = try await browser.get("/attachments/staged/\(kept)")
            #expect(preview.status == .ok)
            #expect(preview.headers[.contentType] == "image/png")
            // The file keeps its own stricter policy; the page policy does not replace it.
            #expect(preview.headers[.init("Content-Security-Policy")!] == "default-src 'none'; sandbox")
            #expect(preview.headers[.init("X-Content-Type-Options")!] == "nosniff")
            #expect(try await TestBrowser(client).get("/attachments/staged/\(kept)").status == .notFound)

            let created = try await Self.post(
                browser, "/forms/new-issue",
                [
                    .field("_csrf", refused.csrf ?? ""), .field("_prefill", refused.prefill ?? ""),
                    .field("title", "With a file"),
                    .field("project", "portal"), .field("attachments._kept", String(kept)),
                ])
            #expect(created.status == .seeOther)
            let location = try #require(created.location)
            let detail = try await browser.get(location)
            #expect(detail.body.contains("shot.png"))
            #expect(detail.body.contains("Customer Portal"))
            #expect(detail.body.contains("T-1001"))
            #expect(detail.body.contains(#"src="\#(location)/files/\#(kept)""#))
            #expect(try await browser.get("\(location)/files/\(kept)").status == .ok)
            #expect(try await TestBrowser(client).get("\(location)/files/\(kept)").status == .notFound)
            // Claimed: no longer a staged upload.
            #expect(try await browser.get("/attachments/staged/\(kept)").status == .notFound)

            // The edit view lists the stored file; leaving it out of the update deletes it.
            let edit = try await browser.get("\(location)/edit")
            // A ticked "Keep" box per file: unticking it (no JavaScript needed) removes the file.
            #expect(
                edit.body.contains(
                    #"<input type="checkbox" name="attachments._kept" value="\#(kept)" checked> Keep<span class="fw-visually-hidden"> shot.png</span>"#
                ))
            let saved = try await Self.post(
                browser, location,
                [.field("_csrf", edit.csrf ?? ""), .field("title", "No file now"), .field("project", "portal")])
            #expect(saved.status == .seeOther)
            #expect(try await browser.get("\(location)/files/\(kept)").status == .notFound)
        }
    }

    @Test("a file refused for its content is not listed again, and its staged copy is gone")
    func unfitFileDropped() async throws {
        try await TestApp.run(forms: [], seedsDemo: true) { client in
            let browser = TestBrowser(client)
            let page = try await browser.get("/forms/new-issue/new")
            let html = Array("<!DOCTYPE html><html><script>alert(1)</script></html>".utf8)
            let refused = try await Self.post(
                browser, "/forms/new-issue",
                [
                    .field("_csrf", page.csrf ?? ""), .field("title", "Two files"), .field("project", "portal"),
                    .file("attachments", filename: "shot.png", bytes: Self.png),
                    .file("attachments", filename: "evil.png", bytes: html),
                ])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.body.contains("evil.png must be a PNG, JPEG, PDF or CSV"))
            #expect(refused.body.contains(#"<span class="fw-attachment__name">shot.png</span>"#))
            #expect(!refused.body.contains(#"<span class="fw-attachment__name">evil.png</span>"#))
            #expect(refused.body.matches(of: /name="attachments\._kept"/).count == 1)
        }
    }

    @Test("a multipart create without a valid token is refused with 403 and keeps nothing it sent")
    func multipartNeedsToken() async throws {
        let data = Fixtures.temporaryDataFolder()
        try await TestApp.run(forms: [], seedsDemo: true, data: data) { client in
            let browser = TestBrowser(client)
            _ = try await browser.get("/forms/new-issue/new")
            let refused = try await Self.post(
                browser, "/forms/new-issue",
                [
                    .field("_csrf", "forged"), .field("title", "x"),
                    .file("attachments", filename: "a.png", bytes: Self.png),
                ])
            #expect(refused.status == .forbidden)
            let folder = data.appendingPathComponent("attachments")
            let left =
                (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.filter { $0 != "staging" } ?? []
            #expect(left.isEmpty)
            #expect(try await browser.get("/forms/new-issue").body.contains("No issues yet"))
        }
    }
}
