import FormModel
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import TestSupport
import Testing

@testable import FormWeb

/// Files in items: each item's attachments field takes its own files through the pages
/// without JavaScript, a refused or re-rendered form keeps each item's files with the item
/// (Remove included), the object holds them per item, the detail page links them, an edit
/// drops what is no longer kept, and a JSON PATCH keeps an item's files with its `_id`.
@Suite("Attachments in items")
struct ItemAttachmentsTests {
    static var form: FormSchema {
        ItemSubmissionTests.form(extra: [
            Field(
                name: "photo", kind: .attachments, label: "Photo",
                constraints: Constraints(maxCount: 2, accept: ["image/png"]))
        ])
    }

    static func kept(_ page: TestBrowser.Page, _ input: String) -> [String] {
        let escaped = input.replacingOccurrences(of: "[", with: "\\[").replacingOccurrences(of: "]", with: "\\]")
        let pattern = try! Regex("name=\"\(escaped)\\._kept\" value=\"([^\"]*)\"")
        return page.body.matches(of: pattern).compactMap { $0.output[1].substring.map(String.init) }
    }

    static func photos(_ page: TestBrowser.Page) throws -> [[String]] {
        try ItemAPITests.members(page).map { member in
            (member["photo"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        }
    }

    @Test("each item keeps its own files through a refusal, Remove and an edit; the detail page links them")
    func pages() async throws {
        try await TestApp.run(forms: [(Self.form, .public)], adminToken: "photos-token") { client in
            let browser = TestBrowser(client)
            let fresh = try await browser.get("/forms/household/new")
            #expect(fresh.body.contains(#"enctype="multipart/form-data""#))
            #expect(fresh.body.contains(#"name="members[0].photo""#))
            let token = try #require(fresh.csrf)
            let png = AttachmentFixtures.png

            // No title: refused, each item listing its own photo again.
            let refused = try await browser.postMultipart(
                "/forms/household",
                [
                    .field("_csrf", token), .field("members[0].name", "Ada"), .field("members[1].name", "Ben"),
                    .file("members[0].photo", filename: "ada.png", type: "image/png", bytes: png),
                    .file("members[1].photo", filename: "ben.png", type: "image/png", bytes: png),
                    .file("members[1].photo", filename: "ben.pdf", type: "image/png", bytes: AttachmentFixtures.pdf),
                ])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.body.contains(##"<a href="#field-members[1].photo">Member 2: "##))
            let ada = Self.kept(refused, "members[0].photo")
            let ben = Self.kept(refused, "members[1].photo")
            #expect(ada.count == 1 && ben.count == 1 && ada != ben)

            // Remove Ada: Ben's photo goes with Ben to the first place. An id sent for a field
            // it was not uploaded to (Ada's, as a form's own field) is not taken.
            let removed = try await browser.postMultipart(
                "/forms/household",
                [
                    .field("_csrf", token), .field("members[0].name", "Ada"), .field("members[1].name", "Ben"),
                    .field("members[0].photo._kept", ada[0]), .field("members[1].photo._kept", ben[0]),
                    .field("_remove", "members[0]"),
                ])
            #expect(removed.status == .ok)
            #expect(Self.kept(removed, "members[0].photo") == ben)
            #expect(Self.kept(removed, "members[1].photo").isEmpty)

            let created = try await browser.postMultipart(
                "/forms/household",
                [
                    .field("_csrf", token), .field("title", "The Smiths"), .field("members[0].name", "Ben"),
                    .field("members[0].photo._kept", ben[0]), .field("members[1].name", "Cy"),
                    .field("members[1].photo._kept", ada[0]),
                    .file("members[1].photo", filename: "cy.png", type: "image/png", bytes: png),
                ])
            #expect(created.status == .seeOther)
            let location = try #require(created.location)
            let detail = try await browser.get(location)
            #expect(detail.body.contains(#"href="\#(location)/files/\#(ben[0])""#))
            #expect(detail.body.contains(#"href="\#(location)/files/\#(ada[0])""#))
            #expect(detail.body.contains("cy.png"))
            let file = try await browser.get("\(location)/files/\(ben[0])")
            #expect(file.status == .ok)

            let api: HTTPFields = [.contentType: "application/json", .authorization: "Bearer photos-token"]
            let apiPath = location.replacingOccurrences(of: "/forms/household/", with: "/api/forms/household/objects/")
            let read = try await browser.send(apiPath, method: .get, headers: api, body: nil)
            #expect(try Self.photos(read) == [["ben.png"], ["ada.png", "cy.png"]])
            let ids = try ItemAPITests.members(read).compactMap { $0["_id"] as? String }

            // A PATCH that puts Cy first keeps each member's photos with them.
            let patched = try await browser.send(
                apiPath, method: .patch, headers: api,
                body: ByteBuffer(
                    string: #"{"members": [{"_id": "\#(ids[1])", "name": "Cy"}, {"_id": "\#(ids[0])", "name": "Ben"}]}"#
                ))
            #expect(patched.status == .ok)
            #expect(try Self.photos(patched) == [["ada.png", "cy.png"], ["ben.png"]])

            // The edit lists each item's files; one not sent back is gone.
            let edit = try await browser.get("\(location)/edit")
            #expect(Self.kept(edit, "members[1].photo") == ben)
            let editToken = try #require(edit.csrf)
            let saved = try await browser.postMultipart(
                location,
                [
                    .field("_csrf", editToken), .field("title", "The Smiths"), .field("members[0]._id", ids[1]),
                    .field("members[0].name", "Cy"), .field("members[1]._id", ids[0]),
                    .field("members[1].name", "Ben"), .field("members[1].photo._kept", ben[0]),
                ])
            #expect(saved.status == .seeOther)
            #expect(try await browser.get("\(location)/files/\(ada[0])").status == .notFound)
            #expect(try await browser.get("\(location)/files/\(ben[0])").status == .ok)
        }
    }
}
