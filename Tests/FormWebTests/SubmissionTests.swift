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

/// Create, detail, edit, update, delete and the object API, in-process, on a urlencoded form.
@Suite("Submissions")
struct SubmissionTests {
    static let options = [
        OptionGroup(options: [
            Option(value: "a", label: "Alpha"), Option(value: "b", label: "Beta"), Option(value: "c", label: "Gamma"),
            Option(value: "d", label: "Delta <&>"), Option(value: "e", label: "Epsilon"),
        ])
    ]
    static let form = Fixtures.schema(
        [
            Field(name: "task", kind: .text, label: "Task", editable: .no, prefill: .query),
            Field(name: "code", kind: .text, label: "Code", editable: .createOnly),
            Field(
                name: "categories", kind: .chips, label: "Categories", constraints: Constraints(multiple: true),
                options: options),
            Field(name: "estimate", kind: .duration, label: "Estimate"),
            Field(
                name: "remind", kind: .switch, label: "Remind me",
                children: [Field(name: "reminder", kind: .text, label: "Reminder")]),
        ], id: "new-thing", title: "New Thing", object: "Thing")

    static func run(
        users: [(String, String, Bool)] = [], _ test: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    )
        async throws
    {
        try await TestApp.run(forms: [(form, .public)], users: users, test)
    }

    /// Opens the create view (so the browser has its cookie, token and seal) and posts fields.
    static func create(
        _ browser: TestBrowser, query: String = "", _ fields: [(String, String)]
    ) async throws -> TestBrowser.Page {
        let page = try await browser.get("/forms/new-thing/new\(query)")
        #expect(page.status == .ok)
        var all = [("_csrf", page.csrf ?? "")]
        if let seal = page.prefill { all.append(("_prefill", seal)) }
        return try await browser.post("/forms/new-thing", all + fields)
    }

    static func storedValues(_ browser: TestBrowser, _ location: String) async throws -> [String: Any] {
        let api = try await browser.get(
            "/api" + location.replacingOccurrences(of: "/forms/new-thing/", with: "/forms/new-thing/objects/"))
        #expect(api.status == .ok)
        let json = try JSONSerialization.jsonObject(with: Data(api.body.utf8)) as? [String: Any]
        return json?["values"] as? [String: Any] ?? [:]
    }

    @Test("the detail page summarises a long multi-value as 'A, B and 3 more' and lists every item behind a disclosure")
    func longMultiValue() async throws {
        try await Self.run { client in
            let browser = TestBrowser(client)
            let done = try await Self.create(
                browser,
                [
                    ("title", "Many"), ("categories", "a"), ("categories", "b"), ("categories", "c"),
                    ("categories", "d"), ("categories", "e"),
                ])
            let detail = try await browser.get(try #require(done.location))
            #expect(
                detail.body.contains(
                    #"<dd class="fw-detail__value">Alpha, Beta and 3 more<details class="fw-detail__more"><summary>Show all 5</summary><ul class="fw-detail__items"><li>Alpha</li><li>Beta</li><li>Gamma</li><li>Delta &lt;&amp;&gt;</li><li>Epsilon</li></ul></details></dd>"#
                ))
        }
    }

    @Test("a valid create answers 303 to the new object's page, which shows its values; the parent page lists it")
    func createValid() async throws {
        try await Self.run { client in
            let browser = TestBrowser(client)
            let done = try await Self.create(
                browser,
                [
                    ("title", "Fix <the> sink"), ("categories", "a"), ("categories", "c"), ("estimate.hours", "1"),
                    ("estimate.minutes", "30"), ("remind", "on"), ("reminder", "tomorrow"),
                ])
            #expect(done.status == .seeOther)
            let location = try #require(done.location)
            #expect(location.wholeMatch(of: /\/forms\/new-thing\/[0-9a-f-]{36}/) != nil)
            let detail = try await browser.get(location)
            #expect(detail.status == .ok)
            #expect(detail.title == "Fix &lt;the&gt; sink – Things – Fieldwork")
            #expect(detail.body.contains(#"<h1 class="fw-page-header__title">Fix &lt;the&gt; sink</h1>"#))
            #expect(
                detail.body.contains(
                    #"<dt class="fw-detail__label">Categories</dt><dd class="fw-detail__value">Alpha and Gamma</dd>"#))
            #expect(detail.body.contains("1 hour 30 minutes"))
            // Fields without a value, and groups with none, are left out.
            #expect(detail.body.contains(#"<div class="fw-detail__row" hidden><dt class="fw-detail__label">Code</dt>"#))
            #expect(detail.body.contains(#"href="\#(location)/edit""#))
            #expect(detail.body.contains(#"<a class="fw-page-header__back" href="/forms/new-thing">Things</a>"#))
            let parent = try await browser.get("/forms/new-thing")
            #expect(
                parent.body.contains(
                    #"<li class="fw-list__item"><a class="fw-list__link" href="\#(location)">Fix &lt;the&gt; sink</a></li>"#
                ))
            #expect(!parent.body.contains("No things yet"))
        }
    }

    @Test("a create without a valid CSRF token is refused with 403 and stores nothing")
    func createNeedsToken() async throws {
        try await Self.run { client in
            let browser = TestBrowser(client)
            _ = try await browser.get("/forms/new-thing/new")
            #expect(try await browser.post("/forms/new-thing", [("title", "Forged")]).status == .forbidden)
            #expect(
                try await browser.post("/forms/new-thing", [("_csrf", "x"), ("title", "Forged")]).status == .forbidden)
            // A token from another browser does not fit this one's cookie.
            let other = TestBrowser(client)
            let otherToken = try await other.get("/forms/new-thing/new").csrf ?? ""
            #expect(
                try await browser.post("/forms/new-thing", [("_csrf", otherToken), ("title", "Forged")]).status
                    == .forbidden)
            // No cookie at all: nothing to bind a token to.
            let bare = TestBrowser(client)
            #expect(
                try await bare.post("/forms/new-thing", [("_csrf", otherToken), ("title", "Forged")]).status
                    == .forbidden)
            #expect(try await browser.get("/forms/new-thing").body.contains("No things yet"))
        }
    }

    @Test("an invalid create answers 422 with the error summary, each message under its cell, and every value kept")
    func createInvalid() async throws {
        try await Self.run { client in
            let browser = TestBrowser(client)
            let page = try await Self.create(
                browser, query: "?task=T-1001",
                [
                    ("title", ""), ("code", "C-1"), ("categories", "b"), ("estimate.hours", "2"),
                    ("estimate.minutes", "15"),
                    ("remind", "on"), ("reminder", "soon"),
                ])
            #expect(page.status == .unprocessableContent)
            #expect(page.title == "Error: New Thing – Fieldwork")
            let html = page.body
            #expect(
                html.contains(
                    #"<div class="fw-error-summary" role="region" tabindex="-1" aria-labelledby="fw-error-summary-title" data-error-summary>\#n<div role="alert">\#n<h2 class="fw-error-summary__title" id="fw-error-summary-title">There is a problem</h2>"#
                ))
            #expect(html.contains("There is a problem"))
            #expect(html.contains(##"<li><a href="#field-title">Enter a title</a></li>"##))
            #expect(
                html.contains(
                    #"<p class="fw-field__error" id="field-title-error"><span class="fw-field__error-icon" aria-hidden="true"></span><span class="fw-visually-hidden">Error: </span>Enter a title</p>"#
                ))
            #expect(
                html.contains(
                    #"id="field-title" name="title" type="text" placeholder="Title" data-clear="true" aria-describedby="field-title-error" aria-invalid="true">"#
                ))
            #expect(html.contains("fw-cell--text fw-cell--error"))
            // Every value kept: text, checked and unchecked options, duration parts, the switch and its child.
            #expect(html.contains(#"name="code" type="text" data-clear="true" value="C-1""#))
            #expect(html.contains(#"name="categories" value="b" checked>"#))
            #expect(html.contains(#"name="categories" value="a">"#))
            #expect(
                html.contains(#"name="estimate.hours" type="number" inputmode="numeric" min="0" step="1" value="2""#))
            #expect(
                html.contains(
                    #"name="estimate.minutes" type="number" inputmode="numeric" min="0" max="59" step="1" value="15""#))
            #expect(html.contains(#"name="remind" value="on" checked"#))
            #expect(html.contains(#"name="reminder" type="text" data-clear="true" value="soon""#))
            // The read-only prefill shows the sealed value again, with its seal.
            #expect(html.contains(#"name="task" type="text" readonly value="T-1001""#))
            #expect(page.prefill != nil)
            #expect(try await browser.get("/forms/new-thing").body.contains("No things yet"))
        }
    }

    @Test(
        "a non-editable prefill keeps the value its create view was rendered with; altering it or its seal changes nothing"
    )
    func prefillTampering() async throws {
        try await Self.run { client in
            let browser = TestBrowser(client)
            let sent = try await Self.create(browser, query: "?task=T-1001", [("title", "One"), ("task", "EVIL")])
            #expect(sent.status == .seeOther)
            #expect(try await Self.storedValues(browser, sent.location ?? "")["task"] as? String == "T-1001")

            // A seal with its payload swapped for other values no longer verifies: the default (none) is used.
            let page = try await browser.get("/forms/new-thing/new?task=T-1001")
            let seal = try #require(page.prefill)
            let forged = Base64URL.encode(Data(#"{"task":["EVIL"]}"#.utf8)) + "." + seal.split(separator: ".")[1]
            let tampered = try await browser.post(
                "/forms/new-thing",
                [("_csrf", page.csrf ?? ""), ("_prefill", forged), ("title", "Two"), ("task", "EVIL")])
            #expect(tampered.status == .seeOther)
            #expect(try await Self.storedValues(browser, tampered.location ?? "")["task"] == nil)
        }
    }

    @Test("a switch that is off stores none of its children")
    func hiddenSwitchChildren() async throws {
        try await Self.run { client in
            let browser = TestBrowser(client)
            let off = try await Self.create(browser, [("title", "Off"), ("reminder", "ignored")])
            #expect(off.status == .seeOther)
            let values = try await Self.storedValues(browser, off.location ?? "")
            #expect(values["reminder"] == nil)
            #expect(values["title"] as? String == "Off")
            let on = try await Self.create(browser, [("title", "On"), ("remind", "on"), ("reminder", "kept")])
            #expect(try await Self.storedValues(browser, on.location ?? "")["reminder"] as? String == "kept")
        }
    }

    @Test("someone else's object answers 404 on every route; an admin sees it")
    func othersGet404() async throws {
        try await Self.run { client in
            let owner = TestBrowser(client)
            let done = try await Self.create(owner, [("title", "Mine")])
            let location = try #require(done.location)
            let stranger = TestBrowser(client)
            let token = try await stranger.get("/forms/new-thing/new").csrf ?? ""
            for uri in [
                location, "\(location)/edit", "\(location)/delete",
                "/api" + location.replacingOccurrences(of: "thing/", with: "thing/objects/"),
            ] {
                #expect(try await stranger.get(uri).status == .notFound, "\(uri)")
            }
            #expect(try await stranger.post(location, [("_csrf", token), ("title", "Theirs")]).status == .notFound)
            #expect(try await stranger.post("\(location)/delete", [("_csrf", token)]).status == .notFound)
            #expect(!(try await stranger.get("/forms/new-thing").body.contains("Mine")))
            #expect(try await stranger.get("/forms/new-thing/00000000-0000-0000-0000-000000000000").status == .notFound)
            #expect(try await stranger.get("/forms/new-thing/not-a-uuid").status == .notFound)

            let admin = TestBrowser(client)
            try await admin.signIn("admin", password: Fixtures.adminPassword)
            #expect(try await admin.get(location).status == .ok)
            #expect(try await admin.get("/forms/new-thing").body.contains("Mine"))
            #expect(try await owner.get(location).status == .ok)
        }
    }

    @Test("a signed-in creator's object follows the account, not the browser")
    func accountOwnsObject() async throws {
        try await Self.run(users: [("ada", "lovelace-1815", false), ("bob", "builder-1999", false)]) { client in
            let first = TestBrowser(client)
            try await first.signIn("ada", password: "lovelace-1815")
            let location = try #require(try await Self.create(first, [("title", "Ada's")]).location)
            let second = TestBrowser(client)
            try await second.signIn("ada", password: "lovelace-1815")
            #expect(try await second.get(location).status == .ok)
            let bob = TestBrowser(client)
            try await bob.signIn("bob", password: "builder-1999")
            #expect(try await bob.get(location).status == .notFound)
        }
    }

    @Test(
        "the edit view shows the stored values, read-only fields and Save; an update answers 303 and keeps read-only values"
    )
    func editAndUpdate() async throws {
        try await Self.run { client in
            let browser = TestBrowser(client)
            let location = try #require(
                try await Self.create(
                    browser, query: "?task=T-7", [("title", "Before"), ("code", "C-1"), ("categories", "b")]
                ).location)
            let edit = try await browser.get("\(location)/edit")
            #expect(edit.status == .ok)
            #expect(edit.title == "Edit Thing – Fieldwork")
            #expect(edit.body.contains(#"action="\#(location)""#))
            #expect(edit.body.contains(#"type="submit">Save</button>"#))
            #expect(
                edit.body.contains(#"name="title" type="text" placeholder="Title" data-clear="true" value="Before""#))
            #expect(edit.body.contains(#"name="code" type="text" readonly value="C-1""#))
            #expect(edit.body.contains(#"name="task" type="text" readonly value="T-7""#))
            #expect(edit.body.contains(#"name="categories" value="b" checked>"#))
            #expect(
                edit.body.contains(
                    #"<a class="fw-button fw-button--danger" href="\#(location)/delete">Delete Thing</a>"#))
            #expect(edit.prefill == nil)

            let saved = try await browser.post(
                location, [("_csrf", edit.csrf ?? ""), ("title", "After"), ("code", "HACK"), ("task", "HACK")])
            #expect(saved.status == .seeOther)
            #expect(saved.location == location)
            let values = try await Self.storedValues(browser, location)
            #expect(values["title"] as? String == "After")
            #expect(values["code"] as? String == "C-1")
            #expect(values["task"] as? String == "T-7")
            #expect(values["categories"] == nil)
            #expect(try await browser.get("/forms/new-thing").body.contains(">After</a>"))
        }
    }

    @Test("an invalid update answers 422 on the edit view; without a token 403; neither changes the object")
    func updateInvalid() async throws {
        try await Self.run { client in
            let browser = TestBrowser(client)
            let location = try #require(try await Self.create(browser, [("title", "Kept")]).location)
            let edit = try await browser.get("\(location)/edit")
            let refused = try await browser.post(location, [("_csrf", edit.csrf ?? ""), ("title", "")])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.title == "Error: Edit Thing – Fieldwork")
            #expect(refused.body.contains(#"action="\#(location)""#))
            #expect(refused.body.contains("Enter a title"))
            #expect(try await browser.post(location, [("title", "Forged")]).status == .forbidden)
            #expect(try await Self.storedValues(browser, location)["title"] as? String == "Kept")
        }
    }

    @Test("delete asks first, needs the token, then answers 303 to the parent page and the object is gone")
    func delete() async throws {
        try await Self.run { client in
            let browser = TestBrowser(client)
            let location = try #require(try await Self.create(browser, [("title", "Doomed")]).location)
            let confirm = try await browser.get("\(location)/delete")
            #expect(confirm.status == .ok)
            #expect(confirm.body.contains("Are you sure you want to delete “Doomed”? This cannot be undone."))
            #expect(
                confirm.body.contains(
                    #"<form class="fw-message fw-confirm__form" method="post" action="\#(location)/delete">"#))
            #expect(try await browser.post("\(location)/delete", []).status == .forbidden)
            #expect(try await browser.get(location).status == .ok)
            let gone = try await browser.post("\(location)/delete", [("_csrf", confirm.csrf ?? "")])
            #expect(gone.status == .seeOther)
            #expect(gone.location == "/forms/new-thing")
            #expect(try await browser.get(location).status == .notFound)
        }
    }

    @Test("the JSON API creates with 201 and the stored object, refuses with 422 and every issue, and reads back")
    func api() async throws {
        try await Self.run { client in
            let browser = TestBrowser(client)
            // A page's script calls the API with the page's cookie: the object is this browser's.
            _ = try await browser.get("/forms/new-thing")
            let created = try await browser.postJSON(
                "/api/forms/new-thing/objects",
                #"{"title":"From a script","categories":["a","b"],"estimate":"PT1H30M","remind":true,"reminder":"r","task":"EVIL"}"#
            )
            #expect(created.status == .created)
            #expect(created.headers[.contentType] == "application/json; charset=utf-8")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(created.body.utf8)) as? [String: Any])
            let id = try #require(json["id"] as? String)
            #expect(created.location == "/api/forms/new-thing/objects/\(id)")
            #expect(json["form"] as? String == "new-thing")
            #expect(json["version"] as? Int == 1)
            let values = try #require(json["values"] as? [String: Any])
            #expect(values["title"] as? String == "From a script")
            #expect(values["categories"] as? [String] == ["a", "b"])
            #expect(values["remind"] as? Bool == true)
            #expect(values["task"] == nil)

            let read = try await browser.get("/api/forms/new-thing/objects/\(id)")
            #expect(read.status == .ok)
            #expect(read.body == created.body)

            let refused = try await browser.postJSON(
                "/api/forms/new-thing/objects", #"{"title":"","code":{"nested":1}}"#)
            #expect(refused.status == .unprocessableContent)
            let errors = try #require(
                (try JSONSerialization.jsonObject(with: Data(refused.body.utf8)) as? [String: Any])?["errors"]
                    as? [[String: String]])
            #expect(errors.contains { $0["field"] == "code" && $0["code"] == "type" })
            #expect(errors.contains { $0["field"] == "title" && $0["message"] == "Enter a title" })

            #expect(
                try await browser.send(
                    "/api/forms/new-thing/objects", method: .post, headers: [.contentType: "text/plain"],
                    body: ByteBuffer(string: "{}")
                ).status == .unsupportedMediaType)
            #expect(
                try await browser.get("/api/forms/new-thing/objects/\(UUID().uuidString.lowercased())").status
                    == .notFound)
        }
    }

    @Test("32 creates at once all land")
    func concurrentCreates() async throws {
        try await Self.run { client in
            let browser = TestBrowser(client)
            let page = try await browser.get("/forms/new-thing/new")
            let token = try #require(page.csrf)
            let cookie = try #require(await browser.cookies["fieldwork_csrf"])
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for n in 0..<32 {
                    group.addTask {
                        let body = "_csrf=\(token)&title=Concurrent+\(n)"
                        let response = try await client.execute(
                            uri: "/forms/new-thing", method: .post,
                            headers: [
                                .contentType: "application/x-www-form-urlencoded", .cookie: "fieldwork_csrf=\(cookie)",
                            ],
                            body: ByteBuffer(string: body))
                        return response.status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.count == 32)
            #expect(statuses.allSatisfy { $0 == .seeOther }, "\(statuses)")
            let parent = try await browser.get("/forms/new-thing").body
            #expect(parent.matches(of: /<li class="fw-list__item">/).count == 32)
            for n in 0..<32 { #expect(parent.contains(">Concurrent \(n)</a>")) }
        }
    }
}
