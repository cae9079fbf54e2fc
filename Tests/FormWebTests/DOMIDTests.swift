import FormModel
import Foundation
import TestSupport
import Testing

@testable import FormPages
@testable import FormWeb

/// The ids a page's elements name (``DOMID``) are written in one place; these tests check the
/// result: on each page that shows errors, every error summary link, `aria-describedby` and
/// label `for` names an element the page has.
@Suite("The ids pages name")
struct DOMIDTests {
    /// The ids a page has and the ids it names, each naming one that is there.
    static func expectReferencesResolve(
        _ body: String, _ page: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let ids = Set(body.matches(of: /\sid="([^"]+)"/).map { String($0.1) })
        var named: [String] = body.matches(of: /href="#([^"]+)"/).map { String($0.1) }
        named += body.matches(of: /aria-describedby="([^"]+)"/).flatMap { $0.1.split(separator: " ").map(String.init) }
        named += body.matches(of: /\sfor="([^"]+)"/).map { String($0.1) }
        #expect(!named.isEmpty, "\(page) names no ids", sourceLocation: sourceLocation)
        #expect(
            !body.contains(#" id="""#) && !body.contains(#"aria-describedby="""#) && !body.contains(#" for="""#)
                && !body.contains(##"href="#""##),
            "\(page) has an empty id or names one", sourceLocation: sourceLocation)
        let missing = named.filter { !ids.contains($0) && $0 != "main" }
        #expect(missing.isEmpty, "\(page) names ids it does not have: \(missing)", sourceLocation: sourceLocation)
    }

    @Test("the names a field's ids are made of")
    func names() {
        #expect(DOMID.field("title") == "field-title" && DOMID.link("title") == "#field-title")
        #expect(DOMID.hint("title") == "field-title-hint" && DOMID.error("title") == "field-title-error")
        #expect(
            DOMID.option("priority", index: 0) == "field-priority"
                && DOMID.option("priority", index: 2) == "field-priority-2")
        let ids = ControlIDs(id: "service-url")
        #expect(ids.hintID == "service-url-hint" && ids.errorID == "service-url-error" && ids.link == "#service-url")
        #expect(ControlIDs("code").id == DOMID.field("code"))
    }

    @Test("a refused create, sign-in, user, import and two-step setting name only ids their pages have")
    func refusedPagesResolve() async throws {
        try await TestApp.run(forms: [], seedsDemo: true) { client in
            let admin = TestBrowser(client)
            try await admin.signIn("admin", password: Fixtures.adminPassword)
            let view = try await admin.get("/forms/new-issue/new")
            Self.expectReferencesResolve(view.body, "the create view")
            let refused = try await admin.post("/forms/new-issue", [("_csrf", view.csrf ?? ""), ("title", "")])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.body.contains(##"href="#field-title""##))
            Self.expectReferencesResolve(refused.body, "the refused create")

            let visitor = TestBrowser(client)
            let login = try await visitor.get("/login")
            let wrong = try await visitor.post("/login", [("_csrf", login.csrf ?? ""), ("name", ""), ("password", "")])
            #expect(wrong.status == .unprocessableContent)
            Self.expectReferencesResolve(wrong.body, "the refused sign-in")

            let users = try await admin.get("/admin/users")
            let user = try await admin.post(
                "/admin/users", [("_csrf", users.csrf ?? ""), ("name", ""), ("password", "short")])
            #expect(user.status == .unprocessableContent)
            Self.expectReferencesResolve(user.body, "the refused new user")
            let account = try #require(
                users.body.firstMatch(of: /action="\/admin\/users\/([0-9a-f-]{36})\/password"/)?.1)
            let reset = try await admin.post(
                "/admin/users/\(account)/password", [("_csrf", users.csrf ?? ""), ("password", "short")])
            #expect(reset.status == .unprocessableContent)
            #expect(reset.body.contains(##"href="#password-\##(account)""##))
            Self.expectReferencesResolve(reset.body, "a refused password reset")

            let dashboard = try await admin.get("/admin")
            let empty = try await admin.postMultipart("/admin/import", [.field("_csrf", dashboard.csrf ?? "")])
            #expect(empty.status == .unprocessableContent)
            Self.expectReferencesResolve(empty.body, "the refused import")

            let settings = try await admin.get("/account/two-factor")
            let code = try await admin.post("/account/two-factor", [("_csrf", settings.csrf ?? ""), ("code", "12")])
            #expect(code.status == .unprocessableContent)
            Self.expectReferencesResolve(code.body, "the refused two-step code")

            // An OData form's admin page: the connection's choices with hints, the export's.
            let odata = try await AdminServiceTests.imported(client)
            let formPage = try await odata.get(AdminServiceTests.page)
            #expect(formPage.body.contains(#"aria-describedby="service-mode-local-hint""#))
            #expect(formPage.body.contains(#"id="service-mode-local-hint""#))
            Self.expectReferencesResolve(formPage.body, "an OData form's admin page")
            let refusedConnection = try await AdminServiceTests.postConnection(
                odata, AdminServiceTests.settings(url: "ftp://files.example.com/odata/", auth: "basic", secret: "x"))
            #expect(refusedConnection.status == .unprocessableContent)
            Self.expectReferencesResolve(refusedConnection.body, "a refused connection")
            #expect(refusedConnection.body.contains(##"href="#service-url""##))
            let webhook = try await odata.post(
                AdminServiceTests.page + "/webhooks", [("_csrf", formPage.csrf ?? ""), ("url", "ftp://x")])
            #expect(webhook.status == .unprocessableContent)
            #expect(
                webhook.body.contains(##"href="#webhook-url""##)
                    && webhook.body.contains(##"href="#webhook-event-created""##))
            Self.expectReferencesResolve(webhook.body, "a refused webhook")
            for (query, link) in [("since=2026-13-40", "#export-since"), ("header=both", "#export-header-labels")] {
                let export = try await odata.get(AdminServiceTests.page + "/export?format=csv&" + query)
                #expect(export.status == .unprocessableContent)
                #expect(export.body.contains(#"href="\#(link)""#), "\(query)")
                Self.expectReferencesResolve(export.body, "a refused export (\(query))")
            }

            let password = try await admin.get("/account/password")
            let change = try await admin.post("/account/password", [("_csrf", password.csrf ?? ""), ("current", "")])
            Self.expectReferencesResolve(change.body, "the refused password change")
        }
    }
}
