import FormModel
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import TestSupport
import Testing

@testable import FormStore
@testable import FormWeb

/// `/api/forms/{id}/webhooks` and the admin page's Webhooks section, through the whole
/// application, with the app's own worker delivering to a real receiver on loopback.
@Suite("Webhooks through the API and the admin page")
struct WebhookAPITests {
    static let token = "hooks-token"
    static let form = WebhookFixtures.form

    static func api(
        _ client: any TestClientProtocol, _ uri: String, method: HTTPRequest.Method = .get, body: String? = nil,
        token: String? = Self.token, type: String = "application/json"
    ) async throws -> (status: HTTPResponse.Status, body: String) {
        var headers: HTTPFields = [:]
        if let token { headers[.authorization] = "Bearer \(token)" }
        if body != nil { headers[.contentType] = type }
        let response = try await client.execute(
            uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        return (response.status, String(buffer: response.body))
    }

    static func json(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }

    static func run(
        users: [(String, String, Bool)] = [], data: URL = Fixtures.temporaryDataFolder(), keepData: Bool = false,
        _ test: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        try await TestApp.run(
            forms: [(form, .public)], data: data, keepData: keepData, users: users, adminToken: token, test)
    }

    @Test("a registered endpoint hears of a create, an edit and a delete, signed, once each")
    func createdUpdatedDeleted() async throws {
        let receiver = WebhookReceiver()
        try await receiver.run { url in
            try await Self.run { client in
                let registered = try await Self.api(
                    client, "/api/forms/hooked/webhooks", method: .post,
                    body: #"{"url": "\#(url)", "events": ["created", "updated", "deleted"]}"#)
                #expect(registered.status == .created, "\(registered.body)")
                let answer = Self.json(registered.body)
                #expect(Set(answer.keys) == ["id", "secret"])
                let secret = try #require(answer["secret"] as? String)
                #expect(secret.hasPrefix("whsec_"))
                // A create through the API…
                let created = try await Self.api(
                    client, "/api/forms/hooked/objects", method: .post, body: #"{"title": "Hello", "note": "n"}"#,
                    token: nil)
                #expect(created.status == .created)
                let id = try #require(Self.json(created.body)["id"] as? String)
                try await receiver.waitFor(1)
                // …an edit and a delete by the admin in the browser.
                let admin = try await AdminFixtures.admin(client)
                let edit = try await admin.get("/forms/hooked/\(id)/edit")
                let saved = try await admin.post(
                    "/forms/hooked/\(id)", [("_csrf", edit.csrf ?? ""), ("title", "Changed"), ("note", "n")])
                #expect(saved.status == .seeOther)
                try await receiver.waitFor(2)
                let deleted = try await admin.post("/forms/hooked/\(id)/delete", [("_csrf", edit.csrf ?? "")])
                #expect(deleted.status == .seeOther)
                try await receiver.waitFor(3)
                // A refused create announces nothing.
                let refused = try await Self.api(
                    client, "/api/forms/hooked/objects", method: .post, body: #"{"note": "no title"}"#, token: nil)
                #expect(refused.status == .unprocessableContent)
                try await Task.sleep(for: .milliseconds(300))
                let got = receiver.received
                #expect(got.count == 3)
                #expect(got.allSatisfy { WebhookReceiver.verifies($0, secret: secret) })
                let payloads = got.map { Self.json($0.text) }
                #expect(
                    payloads.map { $0["type"] as? String } == ["object.created", "object.updated", "object.deleted"])
                let objects = payloads.map { $0["data"] as? [String: Any] ?? [:] }
                #expect(objects.allSatisfy { $0["id"] as? String == id && $0["form"] as? String == "hooked" })
                #expect(
                    objects.map { ($0["values"] as? [String: Any])?["title"] as? String } == [
                        "Hello", "Changed", "Changed",
                    ])
                // The list shows each delivery, never the secret. A delivery is recorded once its
                // answer is back, a moment after the receiver logged the request: read until so.
                var listed = try await Self.api(client, "/api/forms/hooked/webhooks")
                var deliveries: [[String: Any]] = []
                try await Fixtures.eventually("three deliveries listed as delivered") {
                    listed = try await Self.api(client, "/api/forms/hooked/webhooks")
                    let hooks = Self.json(listed.body)["webhooks"] as? [[String: Any]] ?? []
                    deliveries = hooks.first?["deliveries"] as? [[String: Any]] ?? []
                    return deliveries.count == 3 && deliveries.allSatisfy { $0["status"] as? String == "delivered" }
                }
                #expect(listed.status == .ok)
                #expect(!listed.body.contains(secret) && !listed.body.contains(String(secret.dropFirst(6))))
                #expect(deliveries.allSatisfy { $0["attempts"] as? Int == 1 })
                #expect(deliveries.allSatisfy { $0["lastStatus"] as? Int == 204 && $0["latencyMs"] is Int })
            }
        }
    }

    @Test("a bad URL, scheme or event is refused with what to do, and nothing is stored")
    func refusals() async throws {
        try await Self.run { client in
            let path = "/api/forms/hooked/webhooks"
            let cases: [(String, String, String)] = [
                (
                    #"{"url": "ftp://files.example/in", "events": ["created"]}"#, "url",
                    "Enter an http or https URL, such as https://example.com/hooks/fieldwork."
                ),
                (
                    #"{"events": ["created"]}"#, "url",
                    "Enter the URL that receives the events, such as https://example.com/hooks/fieldwork."
                ),
                (
                    #"{"url": "https://", "events": ["created"]}"#, "url",
                    "Enter a URL with a host name, such as https://example.com/hooks/fieldwork."
                ),
                (
                    #"{"url": "https://me:pw@example.com/in", "events": ["created"]}"#, "url",
                    "Leave the user name and password out of the URL: the signature of each delivery proves it came from Fieldwork."
                ),
                (
                    #"{"url": "https://example.com/in", "events": ["created", "archived"]}"#, "events",
                    "Use created, updated and deleted as events; “archived” is not one."
                ),
                (
                    #"{"url": "https://example.com/in", "events": []}"#, "events",
                    "Choose at least one event: created, updated or deleted."
                ),
            ]
            for (body, field, message) in cases {
                let answer = try await Self.api(client, path, method: .post, body: body)
                #expect(answer.status == .unprocessableContent, "\(body)")
                let errors = Self.json(answer.body)["errors"] as? [[String: Any]] ?? []
                #expect(
                    errors.first?["field"] as? String == field && errors.first?["message"] as? String == message,
                    "\(answer.body)")
            }
            let malformed = try await Self.api(client, path, method: .post, body: #"{"url": 3"#)
            #expect(malformed.status == .badRequest)
            let text = try await Self.api(client, path, method: .post, body: "url=x", type: "text/plain")
            #expect(text.status == .unsupportedMediaType)
            let unknown = try await Self.api(
                client, "/api/forms/nope/webhooks", method: .post,
                body: #"{"url": "https://example.com/in", "events": ["created"]}"#)
            #expect(unknown.status == .notFound)
            let listed = try await Self.api(client, path)
            #expect(listed.body == #"{"webhooks":[]}"#)
        }
    }

    @Test("only admins may use the webhook routes")
    func adminsOnly() async throws {
        try await Self.run(users: [("ana", "ana's password 1", false)]) { client in
            let path = "/api/forms/hooked/webhooks"
            let body = #"{"url": "https://example.com/in", "events": ["created"]}"#
            let hook = UUID().uuidString.lowercased()
            for (method, uri) in [
                (HTTPRequest.Method.post, path), (.get, path), (.delete, "\(path)/\(hook)"),
                (.post, "\(path)/\(hook)/deliveries/msg_1/retry"),
            ] {
                #expect(try await Self.api(client, uri, method: method, body: body, token: nil).status == .unauthorized)
                #expect(
                    try await Self.api(client, uri, method: method, body: body, token: "wrong").status == .unauthorized)
            }
            let user = TestBrowser(client)
            try await user.signIn("ana", password: "ana's password 1")
            let asUser = try await user.postJSON(path, body)
            #expect(asUser.status == .unauthorized)
            #expect(try await user.get("/admin/forms/hooked").status == .forbidden)
            #expect(try await Self.api(client, path).body == #"{"webhooks":[]}"#)
            // An admin removes, and sends again, only what exists.
            #expect(try await Self.api(client, "\(path)/\(hook)", method: .delete).status == .notFound)
            #expect(
                try await Self.api(client, "\(path)/\(hook)/deliveries/msg_1/retry", method: .post).status == .notFound)
        }
    }

    @Test("the admin page adds an endpoint, shows its secret once, lists deliveries with Send again, and removes it")
    func adminPage() async throws {
        let data = Fixtures.temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        try await Self.run(data: data, keepData: true) { client in
            let admin = try await AdminFixtures.admin(client)
            let page = try await admin.get("/admin/forms/hooked")
            #expect(page.body.contains(#"<h2 class="fw-admin__heading" id="webhooks-heading">Webhooks</h2>"#))
            #expect(page.body.contains("No endpoint yet."))
            #expect(page.body.contains(#"<label class="fw-label" for="webhook-url">Endpoint URL</label>"#))
            let csrf = page.csrf ?? ""
            // Without the token: refused, nothing added.
            let forged = try await admin.post(
                "/admin/forms/hooked/webhooks", [("url", "http://127.0.0.1:1/in"), ("events", "created")])
            #expect(forged.status == .forbidden)
            // Refused: the page again with the error under the input and in the summary.
            let refused = try await admin.post(
                "/admin/forms/hooked/webhooks", [("_csrf", csrf), ("url", "mailto:me@example.com")])
            #expect(refused.status == .unprocessableContent)
            #expect(
                refused.body.contains(
                    #"<p class="fw-field__error" id="webhook-url-error"><span class="fw-visually-hidden">Error: </span>Enter an http or https URL"#
                ))
            #expect(
                refused.body.contains(#"aria-invalid="true""#) && refused.body.contains("Choose at least one event"))
            #expect(refused.body.contains(#"value="mailto:me@example.com""#))
            // Added: the secret on this page, once.
            let added = try await admin.post(
                "/admin/forms/hooked/webhooks",
                [("_csrf", csrf), ("url", "http://127.0.0.1:1/in"), ("events", "created"), ("events", "deleted")])
            #expect(added.status == .ok)
            let secret = try #require(
                added.body.firstMatch(of: /id="webhook-secret-value" type="text" readonly value="(whsec_[^"]+)"/).map {
                    String($0.1)
                })
            #expect(added.headers[.cacheControl] == "no-store")
            let again = try await admin.get("/admin/forms/hooked")
            #expect(!again.body.contains(secret) && !again.body.contains("webhook-secret-value"))
            #expect(again.body.contains("http://127.0.0.1:1/in") && again.body.contains("Events: created, deleted."))
            // A create: its delivery listed (the receiver is not there), with Send again.
            let created = try await Self.api(
                client, "/api/forms/hooked/objects", method: .post, body: #"{"title": "Listed"}"#, token: nil)
            #expect(created.status == .created)
            let hooks =
                Self.json(try await Self.api(client, "/api/forms/hooked/webhooks").body)["webhooks"] as? [[String: Any]]
            let hook = try #require(hooks?.first?["id"] as? String)
            let event = try #require((hooks?.first?["deliveries"] as? [[String: Any]])?.first?["id"] as? String)
            let listed = try await admin.get("/admin/forms/hooked")
            #expect(listed.body.contains(event) && listed.body.contains("object.created"))
            let retry = "/admin/forms/hooked/webhooks/\(hook)/deliveries/\(event)/retry"
            #expect(listed.body.contains(#"action="\#(retry)""#))
            let sent = try await admin.post(retry, [("_csrf", csrf)])
            #expect(
                sent.status == .seeOther && sent.location == "/admin/forms/hooked?done=webhook-sent#webhook-\(hook)")
            #expect(try await admin.post(retry, []).status == .forbidden)
            // Removed, with its deliveries.
            let removed = try await admin.post("/admin/forms/hooked/webhooks/\(hook)/delete", [("_csrf", csrf)])
            #expect(removed.status == .seeOther)
            let after = try await admin.get("/admin/forms/hooked?done=webhook-removed")
            #expect(
                after.body.contains("Endpoint removed, with its deliveries.") && after.body.contains("No endpoint yet.")
            )
            // The secret was never written to the database in clear.
            for name in ["fieldwork.sqlite", "fieldwork.sqlite-wal"] {
                let file = (try? Data(contentsOf: data.appendingPathComponent(name))) ?? Data()
                #expect(file.range(of: Data(secret.utf8)) == nil)
            }
        }
    }
}
