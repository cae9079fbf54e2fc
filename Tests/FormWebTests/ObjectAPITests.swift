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

/// The objects' JSON API as a client without a browser uses it: where to read an object back,
/// the admin token, and JSON for every error under `/api`.
@Suite("Object API")
struct ObjectAPITests {
    static let token = "object-api-token"
    static let notes = Fixtures.schema([], id: "notes", title: "New Note", object: "Note")
    static let members = Fixtures.schema([], id: "members", title: "New Member", object: "Member")

    private static func send(
        _ client: any TestClientProtocol, _ uri: String, method: HTTPRequest.Method = .get, json: String? = nil,
        token: String? = nil
    ) async throws -> (status: HTTPResponse.Status, headers: HTTPFields, body: String) {
        var headers: HTTPFields = [:]
        if json != nil { headers[.contentType] = "application/json" }
        if let token { headers[.authorization] = "Bearer \(token)" }
        let response = try await client.execute(
            uri: uri, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
        return (response.status, response.headers, String(buffer: response.body))
    }

    @Test("a 201 names the object's address; a client without cookies cannot read it there, the admin token can")
    func readBack() async throws {
        try await TestApp.run(forms: [(Self.notes, .public), (Self.members, .users)], adminToken: Self.token) {
            client in
            let anonymous = try await Self.send(
                client, "/api/forms/notes/objects", method: .post, json: #"{"title":"A"}"#)
            #expect(anonymous.status == .created)
            let id = try #require(anonymous.body.firstMatch(of: /"id":"([^"]+)"/).map { String($0.1) })
            #expect(anonymous.headers[.location] == "/api/forms/notes/objects/\(id)")
            #expect(try await Self.send(client, "/api/forms/notes/objects/\(id)").status == .notFound)
            // A wrong bearer token is refused as a wrong credential is (RFC 6750), whatever the route.
            #expect(
                try await Self.send(client, "/api/forms/notes/objects/\(id)", token: "wrong").status == .unauthorized)
            let read = try await Self.send(client, "/api/forms/notes/objects/\(id)", token: Self.token)
            #expect(read.status == .ok && read.body.contains(#""title":"A""#))

            // With the token: a form for signed-in users takes the create, and the Location reads back.
            let created = try await Self.send(
                client, "/api/forms/members/objects", method: .post, json: #"{"title":"B"}"#, token: Self.token)
            #expect(created.status == .created)
            let location = try #require(created.headers[.location])
            #expect(try await Self.send(client, location, token: Self.token).status == .ok)
            #expect(try await Self.send(client, location).status == .unauthorized)
        }
    }

    @Test("PATCH changes the fields it names, keeps the others, empties those sent as null; DELETE removes")
    func editAndDelete() async throws {
        var form = Self.notes
        form.sections[0].groups[0].fields += [
            Field(name: "priority", kind: .text, label: "Priority"),
            Field(name: "count", kind: .number, label: "Count"),
        ]
        try await TestApp.run(forms: [(form, .public)], adminToken: Self.token) { client in
            let created = try await Self.send(
                client, "/api/forms/notes/objects", method: .post,
                json: #"{"title":"A","priority":"high","count":3}"#, token: Self.token)
            let location = try #require(created.headers[.location])
            try await Task.sleep(for: .milliseconds(1100))
            let changed = try await Self.send(
                client, location, method: .patch, json: #"{"title":"B","priority":null}"#, token: Self.token)
            #expect(changed.status == .ok)
            // The answer carries the edit's time, as a read afterwards does.
            let updatedAt = /"updatedAt":"([^"]+)"/
            let answered = try #require(changed.body.firstMatch(of: updatedAt)).1
            #expect(answered != (try #require(created.body.firstMatch(of: updatedAt)).1))
            #expect(
                try await Self.send(client, location, token: Self.token).body.contains(#""updatedAt":"\#(answered)""#))
            #expect(changed.body.contains(#""title":"B""#) && !changed.body.contains("priority"))
            #expect(changed.body.contains(#""count":3"#))
            let read = try await Self.send(client, location, token: Self.token)
            #expect(read.body.contains(#""title":"B""#) && read.body.contains(#""count":3"#))

            // Refused as the edit view's save is, and nothing changes.
            let refused = try await Self.send(
                client, location, method: .patch, json: #"{"count":"many"}"#, token: Self.token)
            #expect(refused.status == .unprocessableContent)
            #expect(refused.body.contains(#""field":"count""#))
            #expect(try await Self.send(client, location, token: Self.token).body.contains(#""count":3"#))
            let nested = try await Self.send(
                client, location, method: .patch, json: #"{"title":{"text":"C"}}"#, token: Self.token)
            #expect(nested.status == .unprocessableContent && nested.body.contains(#""field":"title""#))
            #expect(try await Self.send(client, location, token: Self.token).body.contains(#""title":"B""#))
            let notJSON = try await client.execute(
                uri: location, method: .patch,
                headers: [.contentType: "text/plain", .authorization: "Bearer \(Self.token)"],
                body: ByteBuffer(string: "count=4"))
            #expect(notJSON.status == .unsupportedMediaType)

            // Someone else's object is not there for them.
            #expect(
                try await Self.send(client, location, method: .patch, json: #"{"title":"C"}"#).status == .notFound)
            #expect(try await Self.send(client, location, method: .delete).status == .notFound)

            #expect(try await Self.send(client, location, method: .delete, token: Self.token).status == .noContent)
            #expect(try await Self.send(client, location, token: Self.token).status == .notFound)
            #expect(try await Self.send(client, location, method: .delete, token: Self.token).status == .notFound)
        }
    }

    @Test("a field the JSON leaves out takes its default, as in the create view; null sends none")
    func defaults() async throws {
        var form = Self.notes
        form.sections[0].groups[0].fields += [
            Field(name: "priority", kind: .text, label: "Priority", defaultValue: "medium"),
            Field(name: "due", kind: .date, label: "Due", defaultValue: "today"),
        ]
        try await TestApp.run(forms: [(form, .public)], adminToken: Self.token) { client in
            let left = try await Self.send(
                client, "/api/forms/notes/objects", method: .post, json: #"{"title":"A"}"#, token: Self.token)
            #expect(left.status == .created)
            #expect(left.body.contains(#""priority":"medium""#))
            #expect(left.body.contains(#""due":"20"#))
            let none = try await Self.send(
                client, "/api/forms/notes/objects", method: .post, json: #"{"title":"B","priority":null}"#,
                token: Self.token)
            #expect(none.status == .created && !none.body.contains("priority"))
            // So a field left out and a field sent as null are two requests to an Idempotency-Key.
            func keyed(_ json: String) async throws -> HTTPResponse.Status {
                let response = try await client.execute(
                    uri: "/api/forms/notes/objects", method: .post,
                    headers: [
                        .contentType: "application/json", .authorization: "Bearer \(Self.token)",
                        HTTPField.Name("Idempotency-Key")!: "k-1",
                    ], body: ByteBuffer(string: json))
                return response.status
            }
            #expect(try await keyed(#"{"title":"C"}"#) == .created)
            #expect(try await keyed(#"{ "title": "C" }"#) == .created)
            #expect(try await keyed(#"{"title":"C","priority":null}"#) == .unprocessableContent)
        }
    }

    @Test("an address under /api that the router knows for another method only answers JSON, not the HTML page")
    func jsonForOtherMethods() async throws {
        try await TestApp.run(forms: [(Self.notes, .public)]) { client in
            for (uri, method) in [("/api/forms/notes/objects", HTTPRequest.Method.get), ("/api/nothing", .get)] {
                let answer = try await Self.send(client, uri, method: method)
                #expect(answer.status.code >= 400 && answer.status.code < 500, "\(uri)")
                #expect(answer.headers[.contentType] == "application/json; charset=utf-8", "\(uri)")
                #expect(!answer.body.contains("<html"), "\(uri)")
            }
            let large = #"{"title":""# + String(repeating: "x", count: 1_100_000) + #""}"#
            let tooLarge = try await Self.send(client, "/api/forms/notes/objects", method: .post, json: large)
            #expect(tooLarge.status == .contentTooLarge)
            #expect(tooLarge.body == #"{"error":"The object is larger than 1 MB."}"#)
        }
    }
}

/// A POST whose body is of a type no form sends carries no token: refused as any POST without one.
@Suite("POSTs without a readable token")
struct UnreadableTokenTests {
    @Test("sign-out, delete and create with a text/plain or empty body answer 403 and change nothing")
    func forbidden() async throws {
        try await TestApp.run(forms: [(ObjectAPITests.notes, .public)]) { client in
            let browser = TestBrowser(client)
            let view = try await browser.get("/forms/notes/new")
            let created = try await browser.post("/forms/notes", [("_csrf", view.csrf ?? ""), ("title", "Keep")])
            let location = try #require(created.location)
            for (uri, type) in [
                ("/logout", "text/plain"), ("\(location)/delete", "text/plain"), ("\(location)/delete", ""),
                ("/forms/notes", "text/plain"), (location, "application/json"),
            ] {
                var headers: HTTPFields = [:]
                if !type.isEmpty { headers[.contentType] = type }
                let answer = try await browser.send(
                    uri, method: .post, headers: headers, body: ByteBuffer(string: "_csrf=\(view.csrf ?? "")"))
                #expect(answer.status == .forbidden, "\(uri) \(type)")
            }
            #expect(try await browser.get(location).status == .ok)
        }
    }
}
