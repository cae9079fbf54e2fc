import FormImport
import FormModel
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import TestSupport
import Testing

@testable import FormStore
@testable import FormWeb

/// An imported XForm's rules judged on the server for every submission, through the one create
/// and update use case: the JSON API here, the browser's form in ``XFormPageTests``.
@Suite("XForm submissions")
struct XFormSubmissionTests {
    static let token = "xform-token"

    /// Relevance, required with and without the form's message, a constraint with its message,
    /// a calculate shown in a read-only field, the `start` and `uid` preloads.
    static let household = """
        <h:html xmlns="http://www.w3.org/2002/xforms" xmlns:h="http://www.w3.org/1999/xhtml"
                xmlns:jr="http://openrosa.org/javarosa" xmlns:orx="http://openrosa.org/xforms">
          <h:head><h:title>Household</h:title>
            <model>
              <instance><data id="household" orx:version="3">
                <name/><consent/><age/><years_left/><start/><meta><instanceID/></meta>
              </data></instance>
              <bind nodeset="/data/name" type="string" required="true()" jr:requiredMsg="Tell us your name"/>
              <bind nodeset="/data/consent" type="select1" required="true()"/>
              <bind nodeset="/data/age" type="int" relevant="/data/consent = 'yes'" required="true()"
                    constraint=". &gt;= 18 and . &lt; 120" jr:constraintMsg="Only adults may answer"/>
              <bind nodeset="/data/years_left" type="int" calculate="120 - /data/age" readonly="true()"/>
              <bind nodeset="/data/start" type="dateTime" jr:preload="timestamp" jr:preloadParams="start"/>
              <bind nodeset="/data/meta/instanceID" type="string" readonly="true()" jr:preload="uid"/>
            </model>
          </h:head>
          <h:body>
            <input ref="/data/name"><label>Name</label></input>
            <select1 ref="/data/consent"><label>Do you consent?</label>
              <item><label>Yes</label><value>yes</value></item>
              <item><label>No</label><value>no</value></item>
            </select1>
            <input ref="/data/age"><label>Age</label></input>
            <input ref="/data/years_left"><label>Years left</label></input>
          </h:body>
        </h:html>
        """

    /// Imports XForms through the import use case into a fresh data folder.
    static func importing(_ sources: [String: String], into data: URL) async throws {
        let database = try await FieldworkDatabase.open(
            Fixtures.configuration(data: data).store, logger: Fixtures.logger)
        let documents = sources.map { ImportDocument(name: $0.key, data: Array($0.value.utf8)) }
        let run = try await FormImports(forms: database.forms).run(
            documents, importedBy: nil, access: .public, via: .commandLine, policy: .eachOnItsOwn)
        await database.shutdown()
        #expect(!run.refused)
    }

    /// The stored instance XML of an object, read from the database once the app is done.
    static func instance(of id: String, in data: URL) async throws -> InstanceXML? {
        let database = try await FieldworkDatabase.open(
            Fixtures.configuration(data: data).store, logger: Fixtures.logger)
        defer { Task { await database.shutdown() } }
        return try await database.objects.instance(of: try #require(UUID(uuidString: id)))
    }

    static func send(
        _ client: any TestClientProtocol, _ uri: String, method: HTTPRequest.Method = .post, json: String? = nil
    ) async throws -> (status: HTTPResponse.Status, headers: HTTPFields, body: String) {
        var headers: HTTPFields = [.authorization: "Bearer \(token)"]
        if json != nil { headers[.contentType] = "application/json" }
        let response = try await client.execute(
            uri: uri, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
        return (response.status, response.headers, String(buffer: response.body))
    }

    @Test(
        "an API create and a rules POST on a cold cache prepare the version and build no page; the create view builds one"
    )
    func noPageBuilt() async throws {
        let data = Fixtures.temporaryDataFolder()
        try await Self.importing(["household.xml": Self.household], into: data)
        let built = BuiltViews()
        try await TestApp.run(
            forms: [], data: data, users: [("ada", "lovelace-1815", true)], adminToken: Self.token,
            configure: { $0.builtViews = built }
        ) { client in
            let created = try await Self.send(
                client, "/api/forms/household/objects", json: #"{"name":"Ada","consent":"yes","age":30}"#)
            #expect(created.status == .created, "\(created.body)")
            let browser = TestBrowser(client)
            try await browser.signIn("ada", password: "lovelace-1815")
            let csrf = try #require(try await browser.get("/login").csrf)
            let answer = try await browser.post("/forms/household/rules", [("_csrf", csrf), ("consent", "yes")])
            #expect(answer.status == .ok, "\(answer.body)")
            #expect(built.count == 0)
            #expect(try await browser.get("/forms/household/new").status == .ok)
            #expect(built.count == 1)
        }
    }

    @Test("refused by the form's rules with their codes and messages, in form order; nothing stored")
    func refusals() async throws {
        let data = Fixtures.temporaryDataFolder()
        try await Self.importing(["household.xml": Self.household], into: data)
        try await TestApp.run(forms: [], data: data, adminToken: Self.token) { client in
            let path = "/api/forms/household/objects"
            let young = try await Self.send(client, path, json: #"{"name":"Ada","consent":"yes","age":15}"#)
            #expect(young.status == .unprocessableContent)
            #expect(
                young.body.contains(#"{"code":"constraint","field":"age","message":"Only adults may answer"}"#),
                "\(young.body)")
            let empty = try await Self.send(client, path, json: #"{"consent":"yes"}"#)
            #expect(empty.status == .unprocessableContent)
            #expect(empty.body.contains(#"{"code":"required","field":"name","message":"Tell us your name"}"#))
            #expect(empty.body.contains(#"{"code":"required","field":"age","message":"Enter Age"}"#))
            #expect(
                try #require(empty.body.range(of: #""field":"name""#)).lowerBound
                    < (try #require(empty.body.range(of: #""field":"age""#))).lowerBound, "form order")
            let typed = try await Self.send(client, path, json: #"{"name":"D","consent":"yes","age":"old"}"#)
            #expect(typed.status == .unprocessableContent && typed.body.contains(#""code":"type","field":"age""#))
            let choice = try await Self.send(client, path, json: #"{"name":"E","consent":"maybe"}"#)
            #expect(
                choice.status == .unprocessableContent && choice.body.contains(#""code":"choice","field":"consent""#))
            // A value for a question that does not apply is not judged: "no" makes age irrelevant.
            let list = try await Self.send(client, path, method: .get)
            #expect(list.status == .ok && !list.body.contains("Ada"))
        }
    }

    @Test(
        "stored: only the questions that apply, computed values the server's, the instance XML beside; an edit deprecates it"
    )
    func storedAndEdited() async throws {
        let data = Fixtures.temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        try await Self.importing(["household.xml": Self.household], into: data)
        let ids = IDBox()
        try await TestApp.run(forms: [], data: data, keepData: true, adminToken: Self.token) { client in
            let path = "/api/forms/household/objects"
            // A value for a question that does not apply is neither judged nor stored; a
            // computed value sent is ignored.
            let declined = try await Self.send(
                client, path, json: #"{"name":"Bo","consent":"no","age":15,"years_left":1}"#)
            #expect(declined.status == .created, "\(declined.body)")
            #expect(!declined.body.contains(#""age""#) && !declined.body.contains("years_left"), "\(declined.body)")
            let adult = try await Self.send(
                client, path, json: #"{"name":"Cy","consent":"yes","age":30,"years_left":5}"#)
            #expect(adult.status == .created, "\(adult.body)")
            #expect(adult.body.contains(#""years_left":90"#), "\(adult.body)")
            let location = try #require(adult.headers[.location])
            ids.set(declined.body, location)
            let edited = try await Self.send(client, location, method: .patch, json: #"{"age":40}"#)
            #expect(edited.status == .ok && edited.body.contains(#""years_left":80"#), "\(edited.body)")
            let refused = try await Self.send(client, location, method: .patch, json: #"{"age":12}"#)
            #expect(refused.status == .unprocessableContent && refused.body.contains("Only adults may answer"))
            // The record of truth for ODK tools: one instance, and every instance in a ZIP.
            let instance = try await Self.send(client, location + "/instance.xml", method: .get)
            #expect(instance.status == .ok && instance.headers[.contentType]?.hasPrefix("application/xml") == true)
            #expect(instance.body.contains("<age>40</age>") && instance.body.contains("<deprecatedID>uuid:"))
            #expect(instance.headers[.contentDisposition]?.contains("uuid_") == true)
            let zip = try await client.execute(
                uri: "/api/forms/household/export.instances.zip", method: .get,
                headers: [.authorization: "Bearer \(Self.token)"])
            #expect(zip.status == .ok && zip.headers[.contentType] == "application/zip")
            let entries = String(decoding: zip.body.readableBytesView, as: UTF8.self)
            #expect(
                entries.matches(of: /uuid_[0-9a-f-]{36}\/submission\.xml/).count >= 4, "two objects, each named twice")
            #expect(entries.contains("<name>Bo</name>") && entries.contains("<age>40</age>"))
        }
        let (declinedBody, location) = ids.get()
        let declinedID = try #require(declinedBody.firstMatch(of: /"id":"([^"]+)"/).map { String($0.1) })
        let declined = try #require(try await Self.instance(of: declinedID, in: data))
        #expect(!declined.xml.contains("<age") && declined.xml.contains("<consent>no</consent>"), "\(declined.xml)")
        #expect(declined.xml.contains(#"id="household""#) && declined.xml.contains(#"orx:version="3""#))
        #expect(declined.xml.contains("<instanceID>\(declined.id)</instanceID>") && declined.id.hasPrefix("uuid:"))
        #expect(declined.xml.contains("<years_left/>") || declined.xml.contains("<years_left></years_left>"))
        #expect(
            declined.xml.firstMatch(of: /<start>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}(Z|[+-]\d\d:\d\d)<\/start>/) != nil
        )
        let adultID = String(location.split(separator: "/").last ?? "")
        let edited = try #require(try await Self.instance(of: adultID, in: data))
        #expect(edited.xml.contains("<age>40</age>") && edited.xml.contains("<years_left>80</years_left>"))
        let deprecated = try #require(edited.xml.firstMatch(of: /<deprecatedID>(uuid:[^<]+)<\/deprecatedID>/)).1
        #expect(edited.id.hasPrefix("uuid:") && edited.id != String(deprecated))
    }

    @Test("an XForm's rules are judged on NIO's blocking pool, not on the threads that serve requests")
    func judgedOffTheRequestThreads() async {
        // Handlers run on Swift's cooperative pool (a thread per core): work there holds requests.
        #expect(!Self.threadName().contains("TP-#"))
        let name = await BlockingWork.run { Self.threadName() }
        #expect(name.contains("TP-#"), "\(name)")
    }

    /// The running thread's name as the kernel has it (NIO names its pool's threads `TP-#n`, its singleton's `SGLTN-TP-#n`).
    static func threadName() -> String {
        (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
    }
}

/// Carries what a test app saw out of its closure.
final class IDBox: @unchecked Sendable {
    private var values = ("", "")
    private let lock = NSLock()
    func set(_ a: String, _ b: String) { lock.withLock { values = (a, b) } }
    func get() -> (String, String) { lock.withLock { values } }
}
