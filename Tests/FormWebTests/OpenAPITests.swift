import FormModel
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

@testable import FormStore
@testable import FormWeb

/// The OpenAPI descriptions: the whole API's and each form's, what they say, who may read them
/// and when a form's is built again.
@Suite("OpenAPI")
struct OpenAPITests {
    static let token = "openapi-token"

    private static func send(
        _ client: any TestClientProtocol, _ uri: String, method: HTTPRequest.Method = .get, body: String? = nil,
        type: String? = nil, token: String? = nil
    ) async throws -> (status: HTTPResponse.Status, headers: HTTPFields, body: String) {
        var headers: HTTPFields = [:]
        if let type { headers[.contentType] = type }
        if let token { headers[.authorization] = "Bearer \(token)" }
        let response = try await client.execute(
            uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        return (response.status, response.headers, String(buffer: response.body))
    }

    private static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Every `$ref` in a document, wherever it stands.
    private static func references(in value: Any) -> [String] {
        if let object = value as? [String: Any] {
            return (object["$ref"] as? String).map { [$0] } ?? [] + object.values.flatMap(references)
        }
        if let array = value as? [Any] { return array.flatMap(references) }
        return []
    }

    /// Whether a `#/components/…` reference names a component of the document.
    private static func resolves(_ reference: String, in document: [String: Any]) -> Bool {
        var node: Any? = document
        for part in reference.dropFirst(2).split(separator: "/") { node = (node as? [String: Any])?[String(part)] }
        return node != nil
    }

    @Test("the whole API's description is OpenAPI 3.1 JSON with every route of the router, every reference resolving")
    func whole() async throws {
        try await TestApp.run(forms: [], seedsDemo: true) { client in
            let answer = try await Self.send(client, "/api/openapi.json")
            #expect(answer.status == .ok)
            #expect(answer.headers[.contentType] == "application/json; charset=utf-8")
            let document = try Self.json(answer.body)
            #expect((document["openapi"] as? String)?.hasPrefix("3.1.") == true)
            #expect((document["info"] as? [String: Any])?["version"] as? String == FieldworkVersion.current)
            #expect((document["servers"] as? [[String: Any]])?.first?["url"] as? String == "/")
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            // The app started, so the router's routes under /api are these (OpenAPIDocument.mismatches).
            #expect(Set(paths.keys) == Set(APIPaths.all.map(\.path)))
            #expect(
                paths["/api/forms/{id}/objects/{object}"].map { Set($0.keys) } == [
                    "parameters", "get", "patch", "delete",
                ])
            let schemes = (document["components"] as? [String: Any])?["securitySchemes"] as? [String: Any]
            #expect(schemes.map { Set($0.keys) } == ["adminToken", "session"])
            let references = Self.references(in: document)
            #expect(references.count > 50)
            for reference in references { #expect(Self.resolves(reference, in: document), "\(reference)") }
        }
    }

    @Test("a route without its description, or a description without its route, is named")
    func mismatches() {
        var routes: [String: Set<HTTPRequest.Method>] = [:]
        for path in APIPaths.all {
            routes[String(path.path.dropFirst("/api".count)), default: []].formUnion(path.operations.map(\.method))
        }
        #expect(OpenAPIDocument.mismatches(routes: routes).isEmpty)
        routes["/forms/{id}/export.xlsx"] = [.get]
        routes["/forms/{id}/connection"]?.remove(.delete)
        #expect(
            OpenAPIDocument.mismatches(routes: routes) == [
                "GET /api/forms/{id}/export.xlsx is not described",
                "DELETE /api/forms/{id}/connection is described but not routed",
            ])
    }

    @Test("a form's description has its routes with its id in the path and its object as a JSON Schema")
    func formDescription() async throws {
        try await TestApp.run(forms: [], seedsDemo: true) { client in
            let answer = try await Self.send(client, "/api/forms/new-issue/openapi.json")
            #expect(answer.status == .ok)
            let document = try Self.json(answer.body)
            #expect((document["openapi"] as? String)?.hasPrefix("3.1.") == true)
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            #expect(
                Set(paths.keys) == [
                    "/api/forms/new-issue", "/api/forms/new-issue/openapi.json",
                    "/api/forms/new-issue/fields/{field}/options", "/api/forms/new-issue/objects",
                    "/api/forms/new-issue/objects/{object}", "/api/forms/new-issue/lists/{list}",
                    "/api/forms/new-issue/connection", "/api/forms/new-issue/webhooks",
                    "/api/forms/new-issue/export.csv", "/api/forms/new-issue/export.jsonl",
                    "/api/forms/new-issue/export.zip", "/api/forms/new-issue/export.instances.zip",
                    "/api/forms/new-issue/objects/{object}/instance.xml",
                    "/api/forms/new-issue/webhooks/{hook}",
                    "/api/forms/new-issue/webhooks/{hook}/deliveries/{event}/retry",
                ])
            let components = try #require(document["components"] as? [String: Any])
            let schemas = try #require(components["schemas"] as? [String: [String: Any]])
            let create = try #require(schemas["CreateRequest"])
            #expect(create["required"] as? [String] == ["title", "project"])
            let properties = try #require(create["properties"] as? [String: [String: Any]])
            let priority = try #require(properties["priority"]?["enum"] as? [Any])
            #expect(priority.compactMap { $0 as? String } == ["low", "medium", "high"] && priority.last is NSNull)
            #expect(properties["title"]?["maxLength"] as? Int == 120)
            let values = try #require(schemas["Values"]?["properties"] as? [String: [String: Any]])
            #expect(values["attachments"]?["readOnly"] as? Bool == true)
            let parameters = try #require(components["parameters"] as? [String: [String: Any]])
            #expect(
                (parameters["Field"]?["schema"] as? [String: Any])?["enum"] as? [String] == ["project", "assignees"])
            for reference in Self.references(in: document) {
                #expect(Self.resolves(reference, in: document), "\(reference)")
            }
            // A public form: anyone may create.
            let create201 = ((paths["/api/forms/new-issue/objects"]?["post"]) as? [String: Any])?["security"] as? [Any]
            #expect((create201?.first as? [String: Any])?.isEmpty == true)
        }
    }

    @Test("a form's description follows the form's access: a users form's needs sign-in or the token")
    func access() async throws {
        try await TestApp.run(forms: [], adminToken: Self.token) { client in
            let imported = try await Self.send(
                client, "/api/forms", method: .post, body: AdminFixtures.spec(), type: "application/xml",
                token: Self.token)
            #expect(imported.status == .created)
            #expect(try await Self.send(client, "/api/forms/trip/openapi.json").status == .unauthorized)
            let read = try await Self.send(client, "/api/forms/trip/openapi.json", token: Self.token)
            #expect(read.status == .ok && read.body.contains(#""/api/forms/trip/objects""#))
            #expect(try await Self.send(client, "/api/forms/nope/openapi.json", token: Self.token).status == .notFound)
            // The whole API's is public.
            #expect(try await Self.send(client, "/api/openapi.json").status == .ok)
        }
    }

    @Test("a form's description is the same bytes until a new version or uploaded options change it")
    func rebuilt() async throws {
        try await TestApp.run(forms: [], adminToken: Self.token) { client in
            let path = "/api/forms/trip/openapi.json"
            _ = try await Self.send(
                client, "/api/forms", method: .post, body: AdminFixtures.spec(), type: "application/xml",
                token: Self.token)
            let first = try await Self.send(client, path, token: Self.token).body
            #expect(try await Self.send(client, path, token: Self.token).body == first)
            #expect(first.contains(#""enum":["p1"]"#))

            _ = try await Self.send(
                client, "/api/forms/trip/lists/plants", method: .put, body: "p1,Plant One\np2,Plant Two\n",
                type: "text/csv", token: Self.token)
            let uploaded = try await Self.send(client, path, token: Self.token).body
            #expect(uploaded.contains(#""enum":["p1","p2"]"#))

            let extra = #"<text name="notes" label="Notes" max-length="40"/>"#
            _ = try await Self.send(
                client, "/api/forms", method: .post, body: AdminFixtures.spec(extra: extra), type: "application/xml",
                token: Self.token)
            let second = try await Self.send(client, path, token: Self.token).body
            #expect(second.contains(#""x-fieldwork-form-version":2"#) && second.contains(#""maxLength":40"#))
        }
    }

    @Test("the cache builds a form's description once per version, lists revision and access")
    func cache() async throws {
        let cache = OpenAPICache()
        let builds = Counter()
        var form = StoredForm(
            id: "trip", access: .public, state: .active, version: 1, sourceKind: .native, schemaJSON: "{}")
        func read() async -> ByteBuffer {
            await cache.bytes(for: form) {
                await builds.increment()
                return ByteBuffer(string: "\(form.version).\(form.listsRevision).\(form.access)")
            }
        }
        #expect(String(buffer: await read()) == "1.0.public")
        #expect(String(buffer: await read()) == "1.0.public")
        #expect(await builds.value == 1)
        form.listsRevision = 1
        #expect(String(buffer: await read()) == "1.1.public")
        form.version = 2
        #expect(String(buffer: await read()) == "2.1.public")
        form.access = .users
        #expect(String(buffer: await read()) == "2.1.users")
        #expect(await builds.value == 4)
    }
}

private actor Counter {
    var value = 0
    func increment() { value += 1 }
}
