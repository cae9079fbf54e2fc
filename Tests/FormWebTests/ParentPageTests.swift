import FormModel
import Foundation
import TestSupport
import Testing

@testable import FormPages
@testable import FormStore
@testable import FormWeb

@Suite("Parent page")
struct ParentPageTests {
    /// The address of the pager's link named `name` (Newer, Older), if the page has it.
    static func link(_ name: String, in page: TestBrowser.Page) -> String? {
        page.body.matches(of: /<a class="fw-pager__link[^"]*" rel="(?:prev|next)" href="([^"]+)">(\w+)<\/a>/)
            .first { $0.2 == name }.map { String($0.1) }
    }

    static func titles(_ page: TestBrowser.Page) -> [String] {
        page.body.matches(of: /class="fw-list__link" href="[^"]+">(Note \d+)</).map { String($0.1) }
    }

    @Test(
        "the list shows 50 objects a page, newest first; the older and newer links carry cursors and walk every object once"
    )
    func paging() async throws {
        let schema = Fixtures.schema([], id: "notes", title: "New Note", object: "Note")
        try await TestApp.run(forms: [(schema, .public)]) { client in
            let browser = TestBrowser(client)
            _ = try await browser.get("/forms/notes")
            for n in 1...52 {
                let created = try await browser.postJSON("/api/forms/notes/objects", #"{"title":"Note \#(n)"}"#)
                #expect(created.status == .created)
            }
            let first = try await browser.get("/forms/notes")
            #expect(Self.titles(first) == (3...52).reversed().map { "Note \($0)" })
            #expect(Self.link("Newer", in: first) == nil)
            let older = try #require(Self.link("Older", in: first))
            #expect(older.wholeMatch(of: /\/forms\/notes\?cursor=[A-Za-z0-9_-]{34}/) != nil)

            let second = try await browser.get(older)
            #expect(second.status == .ok)
            #expect(Self.titles(second) == ["Note 2", "Note 1"])
            #expect(Self.link("Older", in: second) == nil)
            let newer = try #require(Self.link("Newer", in: second))
            #expect(newer.hasPrefix("/forms/notes?cursor="))

            // Newer than the second page is the first page again, without a newer link.
            let back = try await browser.get(newer)
            #expect(Self.titles(back) == Self.titles(first))
            #expect(Self.link("Newer", in: back) == nil)
            #expect(Self.link("Older", in: back) == older)

            // The old page numbers are gone: `?page=` shows the first page.
            #expect(Self.titles(try await browser.get("/forms/notes?page=2")) == Self.titles(first))
            #expect(Self.titles(try await browser.get("/forms/notes?cursor=")) == Self.titles(first))

            // Another browser sees none of them, whatever cursor it follows.
            let stranger = TestBrowser(client)
            for address in ["/forms/notes", older, newer] {
                let page = try await stranger.get(address)
                #expect(page.status == .ok)
                #expect(Self.titles(page).isEmpty)
            }
        }
    }

    @Test("a cursor that no page made answers 400 with a page that says to start from the first page")
    func badCursor() async throws {
        let schema = Fixtures.schema([], id: "notes", title: "New Note", object: "Note")
        try await TestApp.run(forms: [(schema, .public)]) { client in
            let browser = TestBrowser(client)
            let valid = ListCursor(.after, ObjectListKey(createdAt: Date(), id: UUID())).token
            let bad = [
                "x", "%00", "AAAA", String(valid.dropLast()), valid + "A", "Z" + valid.dropFirst(),
                String(repeating: "A", count: 400), "a+b/c==",
            ]
            for cursor in bad {
                let page = try await browser.get("/forms/notes?cursor=\(cursor)")
                #expect(page.status == .badRequest, "\(cursor)")
                #expect(page.body.contains(ListCursors.refusal), "\(cursor)")
            }
            #expect(try await browser.get("/forms/notes?cursor=\(valid)").status == .ok)
        }
    }
}
