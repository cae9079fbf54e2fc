import FormModel
import Foundation
import HummingbirdTesting
import TestSupport
import Testing

@testable import FormPages
@testable import FormStore
@testable import FormWeb

/// `GET /api/forms/{id}/fields/{field}/options`: a long value list searched on the server.
@Suite("Options search route")
struct OptionsRouteTests {
    static let cities = OptionList(
        id: "cities",
        groups: [
            OptionGroup(label: "All", options: (1...5_000).map { Option(value: "c\($0)", label: "City \($0)") })
        ])
    static let form = Fixtures.schema(
        [
            Field(name: "city", kind: .valueList, label: "City", list: "cities"),
            Field(name: "note", kind: .text, label: "Note"),
        ],
        id: "trip", title: "New Trip", object: "Trip", lists: [cities])

    struct Answer: Decodable {
        struct Match: Decodable {
            var value: String
            var label: String
            var group: String?
        }
        var options: [Match]
        var total: Int
        var page: Int
        var more: Bool
    }

    @Test("it answers the matching options a page at a time, as JSON")
    func search() async throws {
        try await TestApp.run(forms: [(Self.form, .public)]) { client in
            let browser = TestBrowser(client)
            let page = try await browser.get("/api/forms/trip/fields/city/options?q=city%204999")
            #expect(page.status == .ok)
            #expect(page.headers[.contentType] == "application/json; charset=utf-8")
            let answer = try JSONDecoder().decode(Answer.self, from: Data(page.body.utf8))
            #expect(answer.options.map(\.value) == ["c4999"])
            #expect(answer.options.first?.group == "All")
            let all = try JSONDecoder().decode(
                Answer.self, from: Data(try await browser.get("/api/forms/trip/fields/city/options?page=2").body.utf8))
            #expect(all.total == 5_000 && all.page == 2 && all.more && all.options.count == 50)
            #expect(all.options.first?.value == "c51")
            #expect(try await browser.get("/api/forms/trip/fields/note/options").status == .notFound)
            #expect(try await browser.get("/api/forms/trip/fields/nope/options").status == .notFound)
            #expect(try await browser.get("/api/forms/nope/fields/city/options").status == .notFound)
        }
    }

    @Test("without JavaScript, the Search button shows the form again with everything typed kept and nothing stored")
    func searchWithoutScript() async throws {
        try await TestApp.run(forms: [(Self.form, .public)]) { client in
            let browser = TestBrowser(client)
            let view = try await browser.get("/forms/trip/new")
            let page = try await browser.post(
                "/forms/trip",
                [
                    ("_csrf", view.csrf ?? ""), ("title", "Conference"), ("note", "window seat"),
                    ("city._q", "City 4999"),
                    ("_search", "city"),
                ])
            #expect(page.status == .ok)
            #expect(page.body.contains(#"name="city._q" placeholder="Search" autocomplete="off" value="City 4999""#))
            #expect(
                page.body.contains(
                    #"<input class="fw-checkbox__input" type="radio" id="field-city-option-1" name="city" value="c4999"><label class="fw-checkbox__label" for="field-city-option-1">City 4999</label>"#
                ))
            #expect(page.body.contains(#"value="Conference""#))
            #expect(page.body.contains(#"value="window seat""#))
            #expect(!page.body.contains("There is a problem"))
            #expect(!page.body.contains("matches are shown"), "one match: nothing more to say")
            // A search that matches more than a page says so.
            let many = try await browser.post(
                "/forms/trip", [("_csrf", view.csrf ?? ""), ("city._q", "City 4"), ("_search", "city")])
            let total = OptionSearch(Self.cities.groups).search("City 4").total
            #expect(
                many.body.contains(
                    "The first 50 of \(total) matches are shown; search with more letters to narrow them."))
            let parent = try await browser.get("/forms/trip")
            #expect(parent.body.contains("No trips yet") || !parent.body.contains("Conference"))
        }
    }

    /// A long list beside a read-only prefilled field and files: what a search must carry along.
    static let visit = Fixtures.schema(
        [
            Field(name: "task", kind: .text, label: "Task", editable: .no, prefill: .query),
            Field(name: "city", kind: .valueList, label: "City", list: "cities"),
            Field(name: "files", kind: .attachments, constraints: Constraints(maxCount: 3, maxSize: 1024)),
        ],
        id: "visit", title: "New Visit", object: "Visit", lists: [cities])

    @Test("a create view's search keeps its sealed read-only values, its one-time token and the files sent with it")
    func searchKeepsSealAndFiles() async throws {
        try await TestApp.run(forms: [(Self.visit, .public)]) { client in
            let browser = TestBrowser(client)
            let view = try await browser.get("/forms/visit/new?task=T-7&layout=compact")
            let once = try #require(view.body.firstMatch(of: /name="_once" value="([^"]*)"/)?.1)
            let searched = try await browser.postMultipart(
                "/forms/visit?layout=compact",
                [
                    .field("_csrf", view.csrf ?? ""), .field("_prefill", view.prefill ?? ""),
                    .field("_once", String(once)), .field("task", "forged"), .field("title", "Site visit"),
                    .field("city._q", "City 4999"), .field("_search", "city"),
                    .file("files", filename: "plan.pdf", type: "application/pdf", bytes: AttachmentFixtures.pdf),
                ])
            #expect(searched.status == .ok)
            #expect(!searched.body.contains("There is a problem"))
            #expect(searched.body.contains(#"name="city" value="c4999"><label"#))
            #expect(searched.body.contains(#"name="task" type="text" readonly value="T-7""#))
            #expect(searched.body.contains("fw-layout-compact"))
            #expect(searched.body.contains(#"name="_once" value="\#(once)""#))
            #expect(searched.body.contains(#"<span class="fw-attachment__name">plan.pdf</span>"#))
            let kept = try #require(searched.body.firstMatch(of: /name="files\._kept" value="([0-9a-f-]{36})"/)?.1)
            // Chosen from the matches and sent: one object, with the sealed task and the file.
            let created = try await browser.post(
                "/forms/visit",
                [
                    ("_csrf", searched.csrf ?? ""), ("_prefill", try #require(searched.prefill)),
                    ("_once", String(once)), ("title", "Site visit"), ("city", "c4999"),
                    ("files._kept", String(kept)),
                ])
            #expect(created.status == .seeOther)
            let detail = try await browser.get(try #require(created.location))
            #expect(
                detail.body.contains("T-7") && detail.body.contains("City 4999") && detail.body.contains("plan.pdf"))
        }
    }

    @Test("the edit view's Search button shows the edit view again with the matches, and changes nothing")
    func searchOnEdit() async throws {
        try await TestApp.run(forms: [(Self.form, .public)]) { client in
            let browser = TestBrowser(client)
            let view = try await browser.get("/forms/trip/new")
            let created = try await browser.post(
                "/forms/trip", [("_csrf", view.csrf ?? ""), ("title", "Away"), ("city", "c4321")])
            let location = try #require(created.location)
            let edit = try await browser.get("\(location)/edit")
            let searched = try await browser.post(
                location,
                [
                    ("_csrf", edit.csrf ?? ""), ("title", "Changed"), ("city", "c4321"), ("city._q", "City 4999"),
                    ("_search", "city"),
                ])
            #expect(searched.status == .ok)
            #expect(searched.body.contains(#"action="\#(location)""#))
            #expect(searched.body.contains(#"name="city" value="c4321" checked><label"#))
            #expect(searched.body.contains(#"name="city" value="c4999"><label"#))
            #expect(searched.body.contains(#"name="city._searched" value="City 4999""#))
            #expect(searched.body.contains(#"value="Changed""#))
            let detail = try await browser.get(location)
            #expect(detail.body.contains("Away") && !detail.body.contains("Changed"))
        }
    }

    @Test(
        "Enter in a long list's search box with a new query searches; Enter elsewhere, or on the same query, sends the form"
    )
    func enterSearches() async throws {
        try await TestApp.run(forms: [(Self.form, .public)]) { client in
            let browser = TestBrowser(client)
            let view = try await browser.get("/forms/trip/new")
            // The form's first submit button is the hidden one that Enter clicks.
            let form = try #require(view.body.range(of: "<form "))
            let firstButton = try #require(view.body[form.upperBound...].range(of: "<button "))
            #expect(
                view.body[firstButton.lowerBound...].hasPrefix(
                    #"<button class="fw-visually-hidden" type="submit" name="_enter" value="1" tabindex="-1" aria-hidden="true"></button>"#
                ))
            let csrf = ("_csrf", view.csrf ?? "")
            let searched = try await browser.post(
                "/forms/trip", [csrf, ("title", "Conference"), ("city._q", "City 4999"), ("_enter", "1")])
            #expect(searched.status == .ok)
            #expect(searched.body.contains(#"name="city._searched" value="City 4999""#))
            #expect(searched.body.contains(#"name="city" value="c4999"><label"#))
            // Enter again (in the title, say) with the query whose matches are shown: the form is sent.
            let created = try await browser.post(
                "/forms/trip",
                [
                    csrf, ("title", "Conference"), ("city._q", "City 4999"), ("city._searched", "City 4999"),
                    ("city", "c4999"), ("_enter", "1"),
                ])
            #expect(created.status == .seeOther)
            // Enter with an empty search box sends the form too (refused here: no title).
            let refused = try await browser.post("/forms/trip", [csrf, ("city._q", ""), ("_enter", "1")])
            #expect(refused.status == .unprocessableContent)
            // A Search button naming a field that is not a long list does not search.
            let notAList = try await browser.post("/forms/trip", [csrf, ("_search", "note")])
            #expect(notAList.status == .unprocessableContent)
        }
    }

    @Test("a list of 5,000 options sends none of them with the create view; a chosen one comes back with its label")
    func pageWeight() async throws {
        try await TestApp.run(forms: [(Self.form, .public)]) { client in
            let browser = TestBrowser(client)
            let view = try await browser.get("/forms/trip/new")
            #expect(view.status == .ok)
            #expect(!view.body.contains("City 1<") && !view.body.contains("<option"))
            #expect(view.body.utf8.count < 20_000, "the create view is \(view.body.utf8.count) bytes")
            #expect(
                view.body.contains(
                    #"<button class="fw-button fw-button--secondary fw-longlist__go" type="submit" name="_search" value="city">Search</button>"#
                ))
            // Refused (no title), the chosen city stays chosen, by its label.
            let refused = try await browser.post("/forms/trip", [("_csrf", view.csrf ?? ""), ("city", "c4321")])
            #expect(refused.status == .unprocessableContent)
            #expect(
                refused.body.contains(
                    #"name="city" value="c4321" checked><label class="fw-checkbox__label" for="field-city-option-1">City 4321</label>"#
                ))
            let created = try await browser.post(
                "/forms/trip", [("_csrf", view.csrf ?? ""), ("title", "Away"), ("city", "c4321")])
            #expect(created.status == .seeOther)
            let detail = try await browser.get(try #require(created.location))
            #expect(detail.body.contains("City 4321"))
        }
    }
}
