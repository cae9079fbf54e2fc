import FluentKit
import FormModel
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import TestSupport
import Testing

@testable import FormPages
@testable import FormStore
@testable import FormWeb

@Suite("One create per submission")
struct SubmissionTokenTests {
    static let form = Fixtures.schema([Field(name: "note", kind: .text, label: "Note", required: true)])

    /// Runs `test` against the app with the form stored, then counts the objects it stored,
    /// read straight from the database.
    static func objectsStored(
        by test: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws -> Int {
        let data = Fixtures.temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        try await TestApp.run(forms: [(form, .public)], data: data, keepData: true, test)
        let database = try await FieldworkDatabase.open(
            Fixtures.configuration(data: data).store, logger: Fixtures.logger)
        let count = try await ObjectRecord.query(on: database.database()).count()
        await database.shutdown()
        return count
    }

    static func once(_ page: TestBrowser.Page) -> String? {
        page.body.firstMatch(of: /name="_once" value="([^"]*)"/).map { String($0.1) }
    }

    @Test("a create view's form sent twice, even at once, makes one object; both answers go to it")
    func doubleSubmit() async throws {
        let stored = try await Self.objectsStored { client in
            let browser = TestBrowser(client)
            let view = try await browser.get("/forms/\(Self.form.id)/new")
            let token = try #require(Self.once(view))
            #expect(token.count == 43)
            let other = try #require(Self.once(try await browser.get("/forms/\(Self.form.id)/new")))
            #expect(other != token, "every create view has its own token")

            let fields = [("_csrf", view.csrf ?? ""), ("_once", token), ("title", "Once"), ("note", "n")]
            async let first = browser.post("/forms/\(Self.form.id)", fields)
            async let second = browser.post("/forms/\(Self.form.id)", fields)
            let (a, b) = try await (first, second)
            #expect(a.status == .seeOther && b.status == .seeOther)
            #expect(a.location != nil && a.location == b.location)
            // Sent again later (after a timeout, say): the same answer.
            let again = try await browser.post("/forms/\(Self.form.id)", fields)
            #expect(again.status == .seeOther && again.location == a.location)
            // Another create view's token makes another object.
            let next = try await browser.post(
                "/forms/\(Self.form.id)",
                [("_csrf", view.csrf ?? ""), ("_once", other), ("title", "Two"), ("note", "n")])
            #expect(next.status == .seeOther && next.location != a.location)
        }
        #expect(stored == 2)
    }

    @Test("a refused create view keeps its token, so the corrected create is one create too")
    func refusedKeepsToken() async throws {
        let stored = try await Self.objectsStored { client in
            let browser = TestBrowser(client)
            let view = try await browser.get("/forms/\(Self.form.id)/new")
            let token = try #require(Self.once(view))
            let refused = try await browser.post(
                "/forms/\(Self.form.id)", [("_csrf", view.csrf ?? ""), ("_once", token), ("title", "Later")])
            #expect(refused.status == .unprocessableContent)
            #expect(Self.once(refused) == token)
            let fields = [("_csrf", view.csrf ?? ""), ("_once", token), ("title", "Later"), ("note", "fixed")]
            let created = try await browser.post("/forms/\(Self.form.id)", fields)
            let twice = try await browser.post("/forms/\(Self.form.id)", fields)
            #expect(created.status == .seeOther && twice.location == created.location)
            // A token this server could not have made is not one: the refusal gets a fresh one.
            let forged = try await browser.post(
                "/forms/\(Self.form.id)", [("_csrf", view.csrf ?? ""), ("_once", "x"), ("title", "Later")])
            #expect(Self.once(forged).map { $0 != "x" && $0.count == 43 } == true)
        }
        #expect(stored == 1)
    }

    @Test("the JSON API's Idempotency-Key: the same key and body make one object, another body is refused")
    func idempotencyKey() async throws {
        let stored = try await Self.objectsStored { client in
            let browser = TestBrowser(client)
            let uri = "/api/forms/\(Self.form.id)/objects"
            func post(_ json: String, key: String?) async throws -> TestBrowser.Page {
                var headers: HTTPFields = [.contentType: "application/json"]
                if let key { headers[HTTPField.Name("Idempotency-Key")!] = key }
                return try await browser.send(uri, method: .post, headers: headers, body: ByteBuffer(string: json))
            }
            // A client that sends no cookie (each request a new browser) retries with its key.
            let bare = try await client.execute(
                uri: uri, method: .post,
                headers: [.contentType: "application/json", HTTPField.Name("Idempotency-Key")!: "bare-1"],
                body: ByteBuffer(string: #"{"title":"Bare","note":"n"}"#))
            let bareAgain = try await client.execute(
                uri: uri, method: .post,
                headers: [.contentType: "application/json", HTTPField.Name("Idempotency-Key")!: "bare-1"],
                body: ByteBuffer(string: #"{"title":"Bare","note":"n"}"#))
            #expect(bare.status == .created && String(buffer: bare.body) == String(buffer: bareAgain.body))
            #expect(bare.headers[.location] != nil && bare.headers[.location] == bareAgain.headers[.location])
            let body = #"{"title":"API once","note":"n"}"#
            async let first = post(body, key: "order-17")
            async let second = post(body, key: "order-17")
            let (a, b) = try await (first, second)
            #expect(a.status == .created && b.status == .created)
            // One object: the same id in both answers.
            #expect(a.body.contains(#""id":""#) && a.body == b.body)
            // The same fields in another order and spacing are the same request.
            let reordered = try await post(#"{ "note": "n", "title": "API once" }"#, key: "order-17")
            #expect(reordered.status == .created && reordered.body == a.body)
            let changed = try await post(#"{"title":"API twice","note":"n"}"#, key: "order-17")
            #expect(changed.status == .unprocessableContent)
            #expect(
                changed.body
                    == #"{"errors":[{"code":"idempotency-key-reused","field":"","message":"This Idempotency-Key was used with another request; send a new key."}]}"#
            )
            #expect(try await post(body, key: "").status == .badRequest)
            #expect(try await post(body, key: String(repeating: "k", count: 256)).status == .badRequest)
            // Without a key, every request is a create of its own.
            #expect(try await post(body, key: nil).status == .created)
            #expect(try await post(body, key: nil).status == .created)
        }
        #expect(stored == 4)
    }

    @Test("one token on two instances: the second create fails in its transaction and finds the first's object")
    func twoInstances() async throws {
        try await CacheTests.twoInstances { a, b in
            try await a.forms.store(Fixtures.importResult([Self.form]))
            let once = OnceKey.page(SubmissionToken.make())
            let values: [String: FieldValue] = ["title": .text("Shared"), "note": .text("n")]
            let first = try await a.objects.create(
                formID: Self.form.id, version: 1, values: values, keyText: "Shared", creator: .browser("x"), once: once)
            await #expect(throws: (any Error).self) {
                _ = try await b.objects.create(
                    formID: Self.form.id, version: 1, values: values, keyText: "Shared", creator: .browser("x"),
                    once: once)
            }
            #expect(try await b.objects.object(once: once)?.object.id == first.id)
            #expect(try await ObjectRecord.query(on: b.database()).count() == 1)
            // A day later the key is forgotten.
            try await b.objects.purgeTokens(olderThan: Date().addingTimeInterval(60))
            #expect(try await a.objects.object(once: once) == nil)
        }
    }

    @Test("a create sent again after its object was deleted makes a new object, not an error")
    func afterDelete() async throws {
        try await TestDatabases.run { _, databases in
            let database = databases[0]
            try await database.forms.store(Fixtures.importResult([Self.form]))
            let once = OnceKey.page(SubmissionToken.make())
            let values: [String: FieldValue] = ["title": .text("Gone"), "note": .text("n")]
            let first = try await database.objects.create(
                formID: Self.form.id, version: 1, values: values, keyText: "Gone", creator: .browser("x"), once: once)
            #expect(try await database.objects.delete(formID: Self.form.id, id: first.id))
            #expect(try await database.objects.object(once: once) == nil, "the key went with its object")
            let again = try await database.objects.create(
                formID: Self.form.id, version: 1, values: values, keyText: "Gone", creator: .browser("x"), once: once)
            #expect(again.id != first.id)
            #expect(try await database.objects.object(once: once)?.object.id == again.id)
        }
    }
}
