import FluentKit
import FormModel
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SQLKit
import Synchronization
import TestSupport
import Testing

@testable import FormPages
@testable import FormStore
@testable import FormWeb

/// The export (CSV, JSON Lines, attachments ZIP) and the API's object list by cursor, through
/// the whole application on a real SQLite store.
@Suite("Export and the object list by cursor")
struct ExportTests {
    static let token = "export-admin-token"
    static let form = Fixtures.schema(
        [
            Field(name: "note", kind: .note, label: "Note"),
            Field(name: "cost", kind: .number, label: "Cost, USD"),
            Field(
                name: "tags", kind: .chips, label: "Tags", constraints: Constraints(multiple: true),
                options: [
                    OptionGroup(options: [
                        Option(value: "bug", label: "Bug"), Option(value: "ui", label: "UI"),
                        Option(value: "-x", label: "Minus"),
                    ])
                ]),
        ], id: "jobs", title: "New Job", object: "Job")

    struct Answer {
        var status: HTTPResponse.Status
        var headers: HTTPFields
        var body: ByteBuffer
        var text: String { String(buffer: body) }
    }

    static func send(
        _ client: any TestClientProtocol, _ uri: String, method: HTTPRequest.Method = .get, json: String? = nil,
        token: String? = ExportTests.token
    ) async throws -> Answer {
        var headers: HTTPFields = [:]
        if json != nil { headers[.contentType] = "application/json" }
        if let token { headers[.authorization] = "Bearer \(token)" }
        let response = try await client.execute(
            uri: uri, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
        return Answer(status: response.status, headers: response.headers, body: response.body)
    }

    /// Creates an object through the JSON API; returns its id.
    static func create(_ client: any TestClientProtocol, _ json: String, form: String = "jobs") async throws -> String {
        let answer = try await send(client, "/api/forms/\(form)/objects", method: .post, json: json)
        #expect(answer.status == .created, "\(answer.text)")
        return try #require(answer.text.firstMatch(of: /"id":"([0-9a-f-]{36})"/).map { String($0.1) })
    }

    /// Runs `body` with a second handle on the running app's store (SQLite allows several), to
    /// set what a test cannot send: when objects were created and changed.
    static func withStore(_ data: URL, _ body: (FieldworkDatabase) async throws -> Void) async throws {
        let database = try await FieldworkDatabase.open(
            Fixtures.configuration(data: data).store, logger: Fixtures.logger)
        do {
            try await body(database)
        } catch {
            await database.shutdown()
            throw error
        }
        await database.shutdown()
    }

    static func setTimes(_ database: FieldworkDatabase, _ id: String, created: Date, updated: Date) async throws {
        let sql = try #require(database.database() as? any SQLDatabase)
        try await sql.update(ObjectRecord.schema)
            .set(SQLIdentifier("created_at"), to: SQLBind(created))
            .set(SQLIdentifier("updated_at"), to: SQLBind(updated))
            .where(SQLIdentifier("id"), .equal, SQLBind(try #require(UUID(uuidString: id))))
            .run()
    }

    static func day(_ text: String) -> Date {
        ISO8601DateFormatter().date(from: text)!
    }

    // MARK: CSV

    @Test("a CSV cell is quoted for a comma, quote, CR or LF, with quotes doubled; text starting a formula gets a '")
    func csvCells() {
        func line(_ cells: [CSVWriter.Cell]) -> String {
            var buffer = ByteBuffer()
            CSVWriter.appendLine(cells, to: &buffer)
            return String(buffer: buffer)
        }
        #expect(
            line([.text("plain"), .text("a,b"), .text(#"say "hi""#), .text("two\nlines")])
                == "plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\"\r\n")
        #expect(
            line([.text("=1+2"), .text("+1"), .text("-2"), .text("@SUM(A1)"), .text("\tx"), .text("\rx")])
                == "'=1+2,'+1,'-2,'@SUM(A1),'\tx,\"'\rx\"\r\n")
        // Numbers are data: a negative number stays a number.
        #expect(line([.number("-1"), .number("2.50"), .text("Grüße, 日本"), .text("")]) == "-1,2.50,\"Grüße, 日本\",\r\n")
        #expect(line([.text("=HYPERLINK(\"http://x\")")]) == "\"'=HYPERLINK(\"\"http://x\"\")\"\r\n")
    }

    @Test("the CSV export has a header of labels, a line per object with its values escaped, and names on request")
    func csvExport() async throws {
        try await TestApp.run(forms: [(Self.form, .public)], adminToken: Self.token) { client in
            let first = try await Self.create(
                client,
                #"{"title":"=SUM(A1:A2)","note":"Line one\nline \"two\", three","cost":-1.5,"tags":["bug","ui"]}"#)
            let second = try await Self.create(client, #"{"title":"Grüße, 日本","note":"@home","tags":["-x"]}"#)
            let read = try await Self.send(client, "/api/forms/jobs/objects/\(first)")
            let created = try #require(read.text.firstMatch(of: /"createdAt":"([^"]+)"/).map { String($0.1) })
            let read2 = try await Self.send(client, "/api/forms/jobs/objects/\(second)")
            let created2 = try #require(read2.text.firstMatch(of: /"createdAt":"([^"]+)"/).map { String($0.1) })

            let csv = try await Self.send(client, "/api/forms/jobs/export.csv")
            #expect(csv.status == .ok)
            #expect(csv.headers[.contentType] == "text/csv; charset=utf-8; header=present")
            #expect(
                csv.headers[.contentDisposition]
                    == #"attachment; filename="jobs-objects.csv"; filename*=UTF-8''jobs-objects.csv"#)
            #expect(csv.headers[.init("Content-Security-Policy")!] == "default-src 'none'; sandbox")
            #expect(csv.headers[.cacheControl] == "no-store")
            #expect(
                csv.text
                    == "Id,Title,Note,\"Cost, USD\",Tags,Version,Created by,Created,Updated\r\n"
                    + "\(first),'=SUM(A1:A2),\"Line one\nline \"\"two\"\", three\",-1.5,bug; ui,1,anonymous,\(created),\(created)\r\n"
                    + "\(second),\"Grüße, 日本\",'@home,,'-x,1,anonymous,\(created2),\(created2)\r\n")

            let names = try await Self.send(client, "/api/forms/jobs/export.csv?header=names")
            #expect(names.text.hasPrefix("id,title,note,cost,tags,version,creator,created,updated\r\n\(first),"))
            let wrong = try await Self.send(client, "/api/forms/jobs/export.csv?header=keys")
            #expect(wrong.status == .badRequest)
            #expect(wrong.text == #"{"error":"Give header as labels or names."}"#)
        }
    }

    @Test("the CSV has the columns of the form's newest version; an older object leaves the new field empty")
    func csvNewestVersion() async throws {
        let data = Fixtures.temporaryDataFolder()
        var old = Self.form
        old.sections[1].groups[0].fields = [Field(name: "before", kind: .text, label: "Before")]
        var new = Self.form
        new.sections[1].groups[0].fields = [Field(name: "after", kind: .text, label: "After")]
        let firstID = Mutex("")
        try await TestApp.run(forms: [(old, .public)], data: data, keepData: true, adminToken: Self.token) { client in
            let id = try await Self.create(client, #"{"title":"Old","before":"kept in the row"}"#)
            firstID.withLock { $0 = id }
        }
        try await Self.withStore(data) { database in
            try await database.forms.store(Fixtures.importResult([new]), access: .public)
        }
        try await TestApp.run(forms: [], data: data, adminToken: Self.token) { client in
            let first = firstID.withLock { $0 }
            let second = try await Self.create(client, #"{"title":"New","after":"shown"}"#)
            let csv = try await Self.send(client, "/api/forms/jobs/export.csv?header=names").text
            let lines = csv.split(separator: "\r\n").map(String.init)
            #expect(lines.count == 3)
            #expect(lines[0] == "id,title,after,version,creator,created,updated")
            #expect(lines[1].hasPrefix("\(first),Old,,1,anonymous,"))
            #expect(lines[2].hasPrefix("\(second),New,shown,2,anonymous,"))
        }
    }

    @Test("since and until narrow the export to objects created or changed in the window")
    func window() async throws {
        let data = Fixtures.temporaryDataFolder()
        try await TestApp.run(forms: [(Self.form, .public)], data: data, adminToken: Self.token) { client in
            var ids: [String: String] = [:]
            for name in ["A", "B", "C", "D"] { ids[name] = try await Self.create(client, #"{"title":"\#(name)"}"#) }
            try await Self.withStore(data) { database in
                // A in January; B created in January, changed in February; C created in
                // February; D created before February and last changed after it.
                let times: [(String, String, String)] = [
                    ("A", "2026-01-10T12:00:00Z", "2026-01-10T12:00:00Z"),
                    ("B", "2026-01-10T12:00:00Z", "2026-02-15T12:00:00Z"),
                    ("C", "2026-02-20T12:00:00Z", "2026-02-20T12:00:00Z"),
                    ("D", "2026-01-05T12:00:00Z", "2026-03-10T12:00:00Z"),
                ]
                for (name, created, updated) in times {
                    try await Self.setTimes(
                        database, ids[name]!, created: Self.day(created), updated: Self.day(updated))
                }
            }
            func titles(_ query: String) async throws -> [String] {
                let csv = try await Self.send(client, "/api/forms/jobs/export.csv?header=names&\(query)").text
                return csv.split(separator: "\r\n").dropFirst().map { String($0.split(separator: ",")[1]) }
            }
            #expect(try await titles("") == ["A", "B", "C", "D"])
            #expect(try await titles("since=2026-02-01&until=2026-02-28") == ["B", "C"])
            #expect(try await titles("since=2026-02-16") == ["C", "D"])
            #expect(try await titles("until=2026-01-31") == ["A", "B", "D"])
            // `until` as a date takes in its whole day; as a moment it ends there.
            #expect(try await titles("since=2026-02-20&until=2026-02-20") == ["C"])
            #expect(try await titles("since=2026-02-20T00:00:00Z&until=2026-02-20T11:59:59%2B00:00") == [])
            #expect(try await titles("since=2026-02-20T11:00:00.5Z&until=2026-02-20T13:00Z") == ["C"])
            let lines = try await Self.send(client, "/api/forms/jobs/export.jsonl?since=2026-02-16").text
            #expect(lines.split(separator: "\n").map { $0.contains(#""title":"C""#) } == [true, false])

            let bad = try await Self.send(client, "/api/forms/jobs/export.csv?since=last%20week")
            #expect(bad.status == .badRequest)
            #expect(
                bad.text
                    == #"{"error":"Give since as a date (2026-11-01) or a date and time (2026-11-01T14:30, or with its offset: 2026-11-01T14:30:00Z)."}"#
            )
            let backwards = try await Self.send(
                client, "/api/forms/jobs/export.jsonl?since=2026-03-01&until=2026-02-01")
            #expect(backwards.status == .badRequest)
            #expect(backwards.text == #"{"error":"Give an until that is later than since."}"#)
            for query in [
                "since=2026-02-30", "until=2026-02-01T25:00", "since=2026-02-01T10:00%2B1", "since=2026-02-01T10:00.x",
            ] {
                #expect(
                    try await Self.send(client, "/api/forms/jobs/export.csv?\(query)").status == .badRequest, "\(query)"
                )
            }
        }
    }

    // MARK: JSON Lines

    @Test("each line of the JSON Lines export is exactly the API's JSON of that object")
    func jsonLinesRoundTrip() async throws {
        try await TestApp.run(forms: [(Self.form, .public)], adminToken: Self.token) { client in
            var ids: [String] = []
            for json in [
                #"{"title":"One","cost":12.5}"#, #"{"title":"<b>Two</b> & \"three\"","note":"a\nb"}"#,
                #"{"title":"Grüße","tags":["bug","-x"]}"#,
            ] {
                ids.append(try await Self.create(client, json))
            }
            let export = try await Self.send(client, "/api/forms/jobs/export.jsonl")
            #expect(export.status == .ok)
            #expect(export.headers[.contentType] == "application/jsonl; charset=utf-8")
            #expect(export.text.hasSuffix("\n"))
            let lines = export.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            #expect(lines.count == 3)
            for (id, line) in zip(ids, lines) {
                let single = try await Self.send(client, "/api/forms/jobs/objects/\(id)")
                #expect(String(line) == single.text)
                let decoded = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                #expect(decoded?["id"] as? String == id)
            }
        }
    }

    // MARK: The object list by cursor

    @Test("the cursor walk gives every object once, in change order, ties broken by id, with next null at the end")
    func cursorWalk() async throws {
        let data = Fixtures.temporaryDataFolder()
        try await TestApp.run(forms: [(Self.form, .public)], data: data, adminToken: Self.token) { client in
            var ids: [String] = []
            for index in 0..<23 { ids.append(try await Self.create(client, #"{"title":"T\#(index)"}"#)) }
            // Ten objects changed at the same moment, the rest a second apart around it.
            var times: [String: Date] = [:]
            let tie = Self.day("2026-05-01T10:00:00Z").addingTimeInterval(0.123456)
            for (index, id) in ids.enumerated() {
                times[id] = (5..<15).contains(index) ? tie : tie.addingTimeInterval(Double(index - 10))
            }
            try await Self.withStore(data) { database in
                for (id, time) in times { try await Self.setTimes(database, id, created: time, updated: time) }
            }
            let expected = ids.sorted { (times[$0]!, $0) < (times[$1]!, $1) }
            var seen: [String] = []
            var uri = "/api/forms/jobs/objects?limit=4"
            var pages = 0
            while true {
                let page = try await Self.send(client, uri)
                #expect(page.status == .ok)
                let json = try #require(
                    try JSONSerialization.jsonObject(with: Data(buffer: page.body)) as? [String: Any])
                let objects = try #require(json["objects"] as? [[String: Any]])
                #expect(objects.count <= 4)
                seen += objects.compactMap { $0["id"] as? String }
                pages += 1
                guard let next = json["next"] as? String else {
                    #expect(json["next"] is NSNull)
                    break
                }
                uri = "/api/forms/jobs/objects?limit=4&cursor=\(next)"
                if pages > 10 { break }
            }
            #expect(seen == expected)
            #expect(pages == 6)

            // An object changed after the walk began comes again at its end.
            let first = try await Self.send(client, "/api/forms/jobs/objects?limit=22")
            let cursor = try #require(first.text.firstMatch(of: /"next":"([^"]+)"/).map { String($0.1) })
            try await Self.withStore(data) { database in
                try await Self.setTimes(database, expected[0], created: tie, updated: tie.addingTimeInterval(3600))
            }
            let rest = try await Self.send(client, "/api/forms/jobs/objects?limit=22&cursor=\(cursor)")
            let restIDs = rest.text.matches(of: /"id":"([0-9a-f-]{36})"/).map { String($0.1) }
            #expect(restIDs == [expected[22], expected[0]])
            #expect(rest.text.hasPrefix(#"{"next":null,"#))

            // `since` starts the walk at a moment, as the export's does.
            let since = try await Self.send(client, "/api/forms/jobs/objects?since=2026-05-01T10:00:04Z")
            let sinceIDs = since.text.matches(of: /"id":"([0-9a-f-]{36})"/).map { String($0.1) }
            #expect(sinceIDs == Array(expected[15...]) + [expected[0]])
        }
    }

    @Test("a bad limit, since or cursor, or a cursor of another form, is a 400 with a message saying what to send")
    func listRefusals() async throws {
        let other = Fixtures.schema([], id: "other", title: "New Other", object: "Other")
        try await TestApp.run(forms: [(Self.form, .public), (other, .public)], adminToken: Self.token) { client in
            for index in 0..<3 { _ = try await Self.create(client, #"{"title":"T\#(index)"}"#) }
            let page = try await Self.send(client, "/api/forms/jobs/objects?limit=1")
            let cursor = try #require(page.text.firstMatch(of: /"next":"([^"]+)"/).map { String($0.1) })
            #expect(try await Self.send(client, "/api/forms/jobs/objects?limit=1&cursor=\(cursor)").status == .ok)
            let limit = #"{"error":"Give limit as a whole number from 1 to 1000."}"#
            let badCursor =
                #"{"error":"The cursor is not one this server gave for this form; start again without it (or with since)."}"#
            var tampered = Array(cursor)
            tampered[2] = tampered[2] == "A" ? "B" : "A"
            for (query, message) in [
                ("limit=0", limit), ("limit=1001", limit), ("limit=ten", limit), ("limit=-1", limit),
                ("limit=%2B5", limit), ("cursor=nonsense", badCursor), ("cursor=\(String(tampered))", badCursor),
                ("cursor=", nil),
            ] as [(String, String?)] {
                let answer = try await Self.send(client, "/api/forms/jobs/objects?\(query)")
                if let message {
                    #expect(answer.status == .badRequest, "\(query)")
                    #expect(answer.headers[.contentType] == "application/json; charset=utf-8", "\(query)")
                    #expect(answer.text == message, "\(query)")
                } else {
                    // An empty cursor is no cursor, as an empty since is no since.
                    #expect(answer.status == .ok, "\(query)")
                }
            }
            // A cursor carries its form: another form's walk refuses it.
            let elsewhere = try await Self.send(client, "/api/forms/other/objects?cursor=\(cursor)")
            #expect(elsewhere.status == .badRequest)
            #expect(elsewhere.text == badCursor)
            #expect(try await Self.send(client, "/api/forms/nope/objects").status == .notFound)
        }
    }

    @Test(
        "the object list and the exports are for admins: 401 without the token or an admin's session, 403 on the page")
    func adminOnly() async throws {
        try await TestApp.run(
            forms: [(Self.form, .public)], users: [("bea", "bea-password-1", false), ("ada", "ada-password-1", true)],
            adminToken: Self.token
        ) { client in
            _ = try await Self.create(client, #"{"title":"Secret"}"#)
            let routes = [
                "/api/forms/jobs/objects", "/api/forms/jobs/export.csv", "/api/forms/jobs/export.jsonl",
                "/api/forms/jobs/export.zip",
            ]
            for uri in routes {
                let anonymous = try await Self.send(client, uri, token: nil)
                #expect(anonymous.status == .unauthorized, "\(uri)")
                #expect(anonymous.headers[.wwwAuthenticate] == "Bearer", "\(uri)")
                #expect(!anonymous.text.contains("Secret"), "\(uri)")
                #expect(try await Self.send(client, uri, token: "wrong").status == .unauthorized, "\(uri)")
            }
            let user = TestBrowser(client)
            try await user.signIn("bea", password: "bea-password-1")
            for uri in routes { #expect(try await user.get(uri).status == .unauthorized, "\(uri)") }
            #expect(try await user.get("/admin/forms/jobs/export?format=csv").status == .forbidden)
            let visitor = try await TestBrowser(client).get("/admin/forms/jobs/export?format=csv")
            #expect(visitor.status == .seeOther)
            #expect(visitor.location?.hasPrefix("/login?next=") == true)

            let admin = TestBrowser(client)
            try await admin.signIn("ada", password: "ada-password-1")
            for uri in routes { #expect(try await admin.get(uri).status == .ok, "\(uri)") }
        }
    }

    // MARK: The admin page

    @Test(
        "the form page's Export section offers the three downloads over a date range, and refuses a bad date with 422")
    func adminSection() async throws {
        try await TestApp.run(forms: [(Self.form, .public)], users: [("ada", "ada-password-1", true)]) { client in
            let admin = TestBrowser(client)
            try await admin.signIn("ada", password: "ada-password-1")
            _ = try await admin.postJSON("/api/forms/jobs/objects", #"{"title":"From the page"}"#)
            let page = try await admin.get("/admin/forms/jobs")
            #expect(page.status == .ok)
            #expect(page.body.contains(#"<h2 class="fw-admin__heading" id="export-heading">Export</h2>"#))
            #expect(page.body.contains(#"<form method="get" action="/admin/forms/jobs/export" novalidate>"#))
            #expect(page.body.contains(#"<label class="fw-label" for="export-since">From (optional)</label>"#))
            #expect(page.body.contains(#"id="export-since" name="since" type="date" value="""#))
            #expect(page.body.contains(#"aria-describedby="export-since-hint""#))
            for format in ["csv", "jsonl", "zip"] {
                #expect(page.body.contains(#"type="submit" name="format" value="\#(format)""#))
            }
            let csv = try await admin.get("/admin/forms/jobs/export?since=&until=&header=names&format=csv")
            #expect(csv.status == .ok)
            #expect(csv.headers[.contentType] == "text/csv; charset=utf-8; header=present")
            #expect(csv.body.hasPrefix("id,title,note,cost,tags,version,creator,created,updated\r\n"))
            #expect(csv.body.contains(",From the page,"))
            let zip = try await admin.get("/admin/forms/jobs/export?format=zip")
            #expect(zip.headers[.contentType] == "application/zip")

            let refused = try await admin.get("/admin/forms/jobs/export?since=2026-13-01&until=&format=jsonl")
            #expect(refused.status == .unprocessableContent)
            #expect(refused.title?.hasPrefix("Error: ") == true)
            #expect(refused.body.contains(##"<a href="#export-since">Give since as a date"##))
            #expect(refused.body.contains(#"id="export-since" name="since" type="date" value="2026-13-01""#))
            #expect(
                refused.body.contains(#"aria-describedby="export-since-hint export-since-error" aria-invalid="true""#))
        }
    }

    // MARK: The attachments ZIP

    @Test("the attachments ZIP holds each object's files under its id and a manifest, read by Python's zipfile")
    func attachmentsZip() async throws {
        typealias F = AttachmentFixtures
        try await TestApp.run(forms: [(F.schema, .public)], adminToken: Self.token) { client in
            let browser = TestBrowser(client)
            var ids: [String] = []
            for files: [F.Part] in [
                [.file("files", filename: "a.png", bytes: F.png), .file("files", filename: "b.pdf", bytes: F.pdf)],
                [
                    .file("files", filename: "same.png", bytes: F.png),
                    .file("files", filename: "same.png", bytes: F.pdf),
                ],
                [],
            ] {
                let view = try await browser.get("/forms/test-form/new")
                let created = try await browser.postMultipart(
                    "/forms/test-form", [.field("_csrf", view.csrf ?? ""), .field("title", "With files")] + files)
                #expect(created.status == .seeOther)
                ids.append(try #require(created.location?.split(separator: "/").last.map(String.init)))
            }
            let zip = try await Self.send(client, "/api/forms/test-form/export.zip")
            #expect(zip.status == .ok)
            #expect(zip.headers[.contentType] == "application/zip")
            let read = try await ZipCheck.read(Array(buffer: zip.body))
            #expect(
                read.entries.map(\.name) == [
                    "\(ids[0])/a.png", "\(ids[0])/b.pdf", "\(ids[1])/same.png", "\(ids[1])/same (2).png",
                    "manifest.csv",
                ])
            let namesInUTF8 = read.entries.allSatisfy { $0.utf8 }
            #expect(namesInUTF8)
            #expect(read.entries[0].size == F.png.count && read.entries[1].size == F.pdf.count)
            #expect(read.entries[0].head == F.png.prefix(16).map { String(format: "%02x", $0) }.joined())
            #expect(
                read.manifest == [
                    ["object", "field", "file", "size", "content_type"],
                    [ids[0], "files", "\(ids[0])/a.png", "\(F.png.count)", "image/png"],
                    [ids[0], "files", "\(ids[0])/b.pdf", "\(F.pdf.count)", "application/pdf"],
                    [ids[1], "files", "\(ids[1])/same.png", "\(F.png.count)", "image/png"],
                    [ids[1], "files", "\(ids[1])/same (2).png", "\(F.pdf.count)", "application/pdf"],
                ])
        }
    }

    @Test(
        "an archive with every Zip64 record, and one of 70,000 entries with its directory spilled to disk, read in Python"
    )
    func zip64() async throws {
        for (alwaysZip64, entries) in [(true, 3), (false, 70_000)] {
            var zip = ZipWriter()
            zip.alwaysZip64 = alwaysZip64
            var archive = ByteBuffer()
            for index in 0..<entries {
                let bytes = ByteBuffer(string: "entry \(index)\n")
                archive.writeImmutableBuffer(zip.begin(name: "f/\(index).txt", modified: Date(), size: 0))
                zip.add(bytes)
                archive.writeImmutableBuffer(bytes)
                archive.writeImmutableBuffer(try await zip.end())
            }
            try await zip.finish { archive.writeImmutableBuffer($0) }
            let read = try await ZipCheck.read(Array(buffer: archive))
            #expect(read.entries.count == entries)
            #expect(read.entries.last?.name == "f/\(entries - 1).txt")
            #expect(read.entries.last?.size == "entry \(entries - 1)\n".utf8.count)
        }
    }

    @Test("a file name is made safe inside the ZIP, and a name taken twice in one object gets a number")
    func zipNames() {
        #expect(ZipNames.safe("../../etc/passwd") == "_.._etc_passwd")
        #expect(ZipNames.safe("..") == "file")
        #expect(ZipNames.safe("a\\b:c\u{0}.txt") == "a_b_c_.txt")
        #expect(ZipNames.safe("Grüße.pdf") == "Grüße.pdf")
        var taken = Set<String>()
        #expect(
            ["a.png", "A.png", "a.png", ".hidden"].map { ZipNames.unique($0, in: &taken) } == [
                "a.png", "A (2).png", "a (3).png", ".hidden",
            ])
    }

    @Test("the CRC-32 matches the published check value and a byte-at-a-time sum")
    func crc() {
        var check = CRC32()
        check.update(Array("123456789".utf8))
        #expect(check.value == 0xCBF4_3926)
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        var whole = CRC32()
        whole.update(bytes)
        var pieces = CRC32()
        for start in stride(from: 0, to: bytes.count, by: 13) {
            pieces.update(bytes[start..<min(start + 13, bytes.count)])
        }
        #expect(whole.value == pieces.value)
    }

    // MARK: The store's walk

    @Test("the store's walk meets each object once in change order, objects changed in the same microsecond included")
    func storeWalk() async throws {
        // On SQLite, and on PostgreSQL with FIELDWORK_TEST_POSTGRES: each keeps `updated_at` its own way.
        try await TestDatabases.run { _, databases in
            let database = databases[0]
            try await database.forms.store(Fixtures.importResult([Self.form]), access: .public)
            var ids: [UUID] = []
            for index in 0..<9 {
                let object = try await database.objects.create(
                    formID: "jobs", version: 1, values: ["title": .text("T\(index)")], keyText: "T\(index)",
                    creator: .browser("b"))
                ids.append(object.id)
            }
            let moment = Self.day("2026-05-01T10:00:00Z").addingTimeInterval(0.654321)
            let sql = try #require(database.database() as? any SQLDatabase)
            for (index, id) in ids.enumerated() {
                let time = index % 3 == 0 ? moment.addingTimeInterval(Double(index)) : moment
                try await sql.update(ObjectRecord.schema).set(SQLIdentifier("updated_at"), to: SQLBind(time))
                    .where(SQLIdentifier("id"), .equal, SQLBind(id)).run()
            }
            var seen: [ObjectChange] = []
            var position: ChangePosition?
            while true {
                let page = try await database.objects.changes(formID: "jobs", after: position, limit: 2)
                seen += page
                guard page.count == 2 else { break }
                position = page.last?.position
            }
            #expect(Set(seen.map(\.object.id)) == Set(ids) && seen.count == ids.count)
            let order = seen.map { ($0.object.updatedAt ?? .distantPast, $0.object.id.uuidString.lowercased()) }
            let ascending = zip(order, order.dropFirst()).allSatisfy { pair in pair.0 <= pair.1 }
            #expect(ascending)
            let since = try await database.objects.changes(
                formID: "jobs", after: nil, window: ChangeWindow(since: moment.addingTimeInterval(1)), limit: 10)
            #expect(since.map(\.object.id) == [ids[3], ids[6]])
        }
    }

    @Test("the walk in change order is one search of the index (form_id, updated_at, id), and a create sets updated_at")
    func queryPlan() async throws {
        try await TestDatabases.run { _, databases in
            let database = databases[0]
            try await database.forms.store(Fixtures.importResult([Self.form]), access: .public)
            let object = try await database.objects.create(
                formID: "jobs", version: 1, values: [:], keyText: "k", creator: .browser("b"))
            #expect(object.updatedAt != nil && object.updatedAt == object.createdAt)
            let changes = try await database.objects.changes(formID: "jobs", after: nil, limit: 10)
            #expect(changes.map(\.object.id) == [object.id])
            #expect(try await database.objects.changes(formID: "jobs", after: changes[0].position, limit: 10).isEmpty)
            guard database.usesSQLite else { return }
            let sql = try #require(database.database() as? any SQLDatabase)
            for (position, window) in [
                (changes[0].position, ChangeWindow()), (nil, ChangeWindow(since: Date(timeIntervalSince1970: 0))),
                (changes[0].position, ChangeWindow(since: Date(timeIntervalSince1970: 0), until: Date())),
            ] {
                let query = try database.objects.changesQuery(
                    on: sql, formID: "jobs", after: position, window: window, limit: 10)
                let rows = Mutex<[String]>([])
                try await sql.execute(sql: ExplainQueryPlan(query: query.select)) { row in
                    rows.withLock { $0.append((try? row.decode(column: "detail", as: String.self)) ?? "") }
                }
                let plan = rows.withLock { $0 }
                #expect(plan.count == 1, "\(plan)")
                #expect(
                    plan.first?.hasPrefix("SEARCH objects USING INDEX objects_form_changed (form_id=? AND ") == true,
                    "\(plan)")
                #expect(!plan.joined().contains("TEMP B-TREE"), "\(plan)")
            }
        }
    }
}

/// `EXPLAIN QUERY PLAN` before a query, its binds kept: SQLite's plan for it.
struct ExplainQueryPlan: SQLExpression {
    let query: SQLSelect

    func serialize(to serializer: inout SQLSerializer) {
        serializer.write("EXPLAIN QUERY PLAN ")
        query.serialize(to: &serializer)
    }
}

/// Python's zipfile reading an archive (`scripts/check_zip.py`): a real unzipper that shares no
/// code with the writer.
enum ZipCheck {
    struct Entry: Decodable {
        var name: String
        var size: Int
        var crc: UInt32
        var head: String
        var utf8: Bool
    }

    struct Result: Decodable {
        var entries: [Entry]
        var manifest: [[String]]
    }

    /// What Python's zipfile reads in `archive`. Python runs while a thread of Dispatch's waits
    /// for it, never one of the few that run the suite's tasks (a big archive takes seconds, and
    /// two tests blocking both would stall every other test meanwhile).
    static func read(_ archive: [UInt8]) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Swift.Result { try readWaiting(archive) })
            }
        }
    }

    private static func readWaiting(_ archive: [UInt8]) throws -> Result {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("fieldwork-\(UUID().uuidString).zip")
        try Data(archive).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/check_zip.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, file.path]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let complaint = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Refused(message: complaint) }
        return try JSONDecoder().decode(Result.self, from: data)
    }

    struct Refused: Error, CustomStringConvertible {
        var message: String
        var description: String { "Python's zipfile refused the archive: \(message)" }
    }
}
