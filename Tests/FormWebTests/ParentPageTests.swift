import FormModel
import Foundation
import Testing

@testable import FormPages
@testable import FormStore
@testable import FormWeb

@Suite("Parent page")
struct ParentPageTests {
    @Test("the list shows 50 objects a page, newest first, with links to older and newer pages")
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
            #expect(first.body.matches(of: /class="fw-list__item"/).count == 50)
            #expect(
                first.body.contains(
                    #"<a class="fw-pager__link fw-pager__link--older" rel="next" href="/forms/notes?page=2">Older</a>"#)
            )
            #expect(!first.body.contains("Newer"))
            let second = try await browser.get("/forms/notes?page=2")
            #expect(second.body.matches(of: /class="fw-list__item"/).count == 2)
            #expect(second.body.contains(#"<a class="fw-pager__link" rel="prev" href="/forms/notes">Newer</a>"#))
            #expect(!second.body.contains("Older"))
            // Together the two pages hold every note once.
            let titles = (first.body + second.body).matches(of: /class="fw-list__link" href="[^"]+">(Note \d+)</).map {
                String($0.1)
            }
            #expect(Set(titles).count == 52)
            #expect(try await browser.get("/forms/notes?page=x").body.matches(of: /class="fw-list__item"/).count == 50)
        }
    }
}
