import FormImport
import FormModel
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import TestSupport
import Testing

@testable import FormPages
@testable import FormStore
@testable import FormWeb

/// The access middleware of the route groups, the `/api` group's own answers, and the pieces a
/// request passes that were made cheaper (cookies, random ids, seals, log lines).
@Suite("Route groups and the request's path")
struct LayerTests {
    static let token = "layer-token"
    static let notes = Fixtures.schema([], id: "notes", title: "New Note", object: "Note")
    static let members = Fixtures.schema([], id: "members", title: "New Member", object: "Member")

    static func send(
        _ client: any TestClientProtocol, _ uri: String, method: HTTPRequest.Method = .get, token: String? = nil
    ) async throws -> (status: HTTPResponse.Status, headers: HTTPFields, body: String) {
        var headers: HTTPFields = [:]
        if let token { headers[.authorization] = "Bearer \(token)" }
        let response = try await client.execute(uri: uri, method: method, headers: headers)
        return (response.status, response.headers, String(buffer: response.body))
    }

    @Test("a known address under /api asked with another method answers 405 with Allow, as JSON")
    func methodNotAllowed() async throws {
        try await TestApp.run(forms: [(Self.notes, .public)]) { client in
            let answer = try await Self.send(client, "/api/forms/notes/objects", method: .delete)
            #expect(answer.status == .methodNotAllowed)
            // The admin's object list (GET) and the create (POST) share the address.
            #expect(answer.headers[.allow] == "GET, POST")
            #expect(answer.headers[.contentType] == "application/json; charset=utf-8")
            #expect(answer.body == #"{"error":"Use GET or POST at this address."}"#)
            // Several methods are named as people write them; the header lists them.
            let objects = try await Self.send(client, "/api/forms/notes/objects/\(UUID())", method: .put)
            #expect(objects.status == .methodNotAllowed)
            #expect(objects.headers[.allow] == "GET, PATCH, DELETE")
            let schema = try await Self.send(client, "/api/forms/notes", method: .head)
            #expect(schema.status == .methodNotAllowed && schema.headers[.allow] == "GET")
            let unknown = try await Self.send(client, "/api/no/such/thing", method: .patch)
            #expect(unknown.status == .notFound && unknown.body == #"{"error":"not found"}"#)
        }
    }

    @Test("an address of several methods asked with another names them all, in its header and in words")
    func severalMethodsNamed() async throws {
        let router = Router(context: AppRequestContext.self)
        let api = APIRoutes(router.group("api").add(middleware: APIErrorMiddleware()))
        api.get("things/:id") { _, _ in "thing" }
        api.delete("things/:id") { _, _ in HTTPResponse.Status.noContent }
        api.refuseTheRest()
        try await Application(router: router).test(.router) { client in
            let answer = try await client.execute(uri: "/api/things/1", method: .put)
            #expect(answer.status == .methodNotAllowed)
            #expect(answer.headers[.allow] == "GET, DELETE")
            #expect(String(buffer: answer.body) == #"{"error":"Use GET or DELETE at this address."}"#)
            #expect(try await client.execute(uri: "/api/things/1", method: .delete).status == .noContent)
        }
    }

    @Test("the admin token is an admin on /api and /metrics; a wrong one is refused everywhere there")
    func adminToken() async throws {
        try await TestApp.run(forms: [(Self.members, .users)], adminToken: Self.token) { client in
            #expect(try await Self.send(client, "/api/forms/members").status == .unauthorized)
            #expect(try await Self.send(client, "/api/forms/members", token: Self.token).status == .ok)
            let wrong = try await Self.send(client, "/api/forms/members", token: "guess")
            #expect(wrong.status == .unauthorized)
            #expect(wrong.headers[.wwwAuthenticate] == #"Bearer error="invalid_token""#)
            #expect(try await Self.send(client, "/metrics", token: Self.token).status == .ok)
            #expect(try await Self.send(client, "/metrics", token: "guess").status == .unauthorized)
            #expect(try await Self.send(client, "/metrics").status == .unauthorized)
        }
    }

    @Test("a users form's pages send a visitor to sign in and back; its API answers 401; unknown is 404")
    func formAccess() async throws {
        try await TestApp.run(forms: [(Self.members, .users)]) { client in
            let page = try await Self.send(client, "/forms/members/new?layout=compact")
            #expect(page.status == .seeOther)
            #expect(page.headers[.location] == "/login?next=/forms/members/new%3Flayout%3Dcompact")
            let post = try await Self.send(client, "/forms/members", method: .post)
            #expect(post.headers[.location] == "/login?next=/forms/members/new")
            #expect(try await Self.send(client, "/api/forms/members/objects", method: .post).status == .unauthorized)
            let unknown = try await Self.send(client, "/forms/nobody/new")
            #expect(unknown.status == .notFound && unknown.body.contains("Page not found"))
        }
    }

    @Test("the browser's id is read from its cookie among others, and only a well-formed one is kept")
    func cookieLookup() {
        let id = String(repeating: "a", count: 43)
        #expect(CookieHeader.value(of: "fieldwork_csrf", in: ["a=1; fieldwork_csrf=\(id); b=2"]) == id)
        #expect(
            CookieHeader.value(of: "fieldwork_csrf", in: ["a=1", " fieldwork_csrf = x ;"]) == nil,
            "a space before = is another name")
        #expect(CookieHeader.value(of: "fieldwork_csrf", in: ["x=1", "fieldwork_csrf=\(id)\t"]) == id)
        #expect(CookieHeader.value(of: "fieldwork_csrf", in: ["fieldwork_csrf_other=1; fieldwork_csr=2"]) == nil)
        #expect(CookieHeader.value(of: "a", in: ["a=1; a=2"]) == "1", "the first of two")
        #expect(CookieHeader.value(of: "a", in: ["a="]) == "")
        #expect(CookieHeader.value(of: "a", in: ["", ";;", "a", "b=\u{e9}t\u{e9}; ;a=2;"]) == "2")
        #expect(CookieHeader.value(of: "a", in: ["\u{e9}=1; a=x y "]) == "x y")
        #expect(CookieHeader.value(of: "a", in: []) == nil)
        #expect(CookieHeader.value(of: "ab", in: ["a=1; b=2"]) == nil)
    }

    @Test("ids and tokens are 32 random bytes each, all different, also past the pool's refill")
    func randomIDs() {
        var seen = Set<String>()
        for _ in 0..<400 {
            let id = CSRF.randomID()
            #expect(CSRF.isWellFormedID(id))
            seen.insert(id)
        }
        #expect(seen.count == 400)
        let zeros = RandomBytes.with(64) { $0.allSatisfy { $0 == 0 } }
        #expect(!zeros)
    }

    @Test("a seal's JSON reads back as the values, whatever characters they hold, names sorted")
    func sealJSON() throws {
        let values: [String: [String]] = [
            "b": ["quote \" and \\ backslash", "tab\tnewline\n\u{1}"], "a": [], "ü": ["émoji 😀", "</script>"],
        ]
        let json = SignedPrefill.json(values)
        #expect(try JSONDecoder().decode([String: [String]].self, from: Data(json)) == values)
        #expect(String(decoding: json, as: UTF8.self).hasPrefix(#"{"a":[],"b":["#))
        #expect(SignedPrefill.json([:]) == Array("{}".utf8))
    }

    @Test("the text log line is swift-log's StreamLogHandler's, metadata sorted")
    func textLogLine() {
        var handler = TextLogHandler(label: "fieldwork")
        handler.metadata = ["b": "2", "a": "1"]
        #expect(handler.metadata.count == 2)
        #expect(TextLogHandler.timestamp().wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{4}/) != nil)
    }

    @Test("an XForm goes through the one import use case: stored with its rules beside its schema")
    func xformStored() async throws {
        let data = Fixtures.temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        let database = try await FieldworkDatabase.open(
            Fixtures.configuration(data: data).store, logger: Fixtures.logger)
        let xform = ImportDocument(
            name: "survey.xml",
            data: Array(
                """
                <h:html xmlns="http://www.w3.org/2002/xforms" xmlns:h="http://www.w3.org/1999/xhtml">
                  <h:head><h:title>Survey</h:title>
                    <model><instance><data id="survey"><age/></data></instance>
                      <bind nodeset="/data/age" type="int" constraint=". &gt; 17"/></model>
                  </h:head>
                  <h:body><input ref="/data/age"><label>Age</label></input></h:body>
                </h:html>
                """.utf8))
        let run = try await FormImports(forms: database.forms).run(
            [xform], importedBy: nil, via: .commandLine, policy: .eachOnItsOwn)
        #expect(!run.refused && run.stored.count == 1)
        let stored = try #require(try await database.forms.latest(formID: "survey"))
        #expect(stored.sourceKind == .xforms)
        let rules = try #require(try stored.rules())
        #expect(rules.node(forField: "age")?.bind?.constraint?.compiled == ". > 17")
        await database.shutdown()
    }

    @Test("the import use case stores each import on its own, or the batch as one; each import finds its versions")
    func importRuns() async throws {
        let data = Fixtures.temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        let database = try await FieldworkDatabase.open(
            Fixtures.configuration(data: data).store, logger: Fixtures.logger)
        let imports = FormImports(forms: database.forms)
        func spec(_ id: String) -> ImportDocument {
            ImportDocument(
                name: "\(id).xml",
                data: Array(
                    """
                    <form xmlns="urn:fieldwork:form:1" id="\(id)" title="New \(id)">
                      <key><text name="title" placeholder="Title" required="true"/></key>
                    </form>
                    """.utf8))
        }
        let broken = ImportDocument(name: "broken.xml", data: Array("<form".utf8))
        let each = try await imports.run(
            [spec("one"), broken, spec("two")], importedBy: nil, via: .commandLine, policy: .eachOnItsOwn)
        #expect(each.refused)
        #expect(each.versions(of: 0).map(\.formID) == ["one"])
        #expect(each.versions(of: 1).isEmpty)
        #expect(each.versions(of: 2).map(\.formID) == ["two"])
        #expect(each.stored[0]?.id != each.stored[2]?.id, "two imports, two records")
        let refusedBatch = try await imports.run(
            [spec("three"), broken], importedBy: "admin", via: .admin, policy: .allOrNothing)
        #expect(refusedBatch.record == nil && refusedBatch.stored.isEmpty)
        #expect(try await database.forms.latest(formID: "three") == nil, "nothing of a refused batch is stored")
        let batch = try await imports.run(
            [spec("three"), spec("one")], importedBy: "admin", via: .admin, policy: .allOrNothing)
        #expect(batch.record?.versions.map(\.formID) == ["three", "one"])
        #expect(batch.versions(of: 1).map(\.version) == [2], "one's second version")
        await database.shutdown()
    }
}
