import FormImport
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

/// A small native spec with a shared list, for imports through the admin page.
enum AdminFixtures {
    static func spec(id: String = "trip", title: String = "New Trip", extra: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <form xmlns="urn:fieldwork:form:1" id="\(id)" title="\(title)" object="Trip">
          <key>
            <text name="title" placeholder="Destination" required="true"/>
          </key>
          <properties>
            <value-list name="plant" label="Plant" list="plants" required="true"/>\(extra)
          </properties>
          <lists>
            <list id="plants">
              <option value="p1">Plant One</option>
            </list>
          </lists>
        </form>
        """
    }

    /// Line 7 has an unclosed tag.
    static let broken = """
        <?xml version="1.0" encoding="UTF-8"?>
        <form xmlns="urn:fieldwork:form:1" id="broken" title="Broken">
          <key>
            <text name="title" placeholder="Title" required="true"/>
          </key>
          <properties>
            <text name="a" label="A">
          </properties>
        </form>
        """

    static let users: [(String, String, Bool)] = [("ana", "ana-password", false), ("root2", "root2-password", true)]

    /// A browser signed in as admin.
    static func admin(_ client: any TestClientProtocol) async throws -> TestBrowser {
        let browser = TestBrowser(client)
        try await browser.signIn("admin", password: Fixtures.adminPassword)
        return browser
    }

    /// Imports through the admin page; returns the answer to the POST.
    static func importSpec(
        _ browser: TestBrowser, files: [(String, String)] = [], pasted: String = "", kept: [String] = []
    ) async throws
        -> TestBrowser.Page
    {
        let page = try await browser.get("/admin")
        var parts: [AttachmentFixtures.Part] = [.field("_csrf", page.csrf ?? "")]
        for id in kept { parts.append(.field("kept", id)) }
        for (name, text) in files {
            parts.append(.file("documents", filename: name, type: "application/xml", bytes: Array(text.utf8)))
        }
        parts.append(.field("xml", pasted))
        return try await browser.postMultipart("/admin/import", parts)
    }
}

/// A small OData V4 service and an annotation file that labels one of its properties.
enum ODataFixture {
    static let metadata = """
        <?xml version="1.0" encoding="utf-8"?>
        <edmx:Edmx xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx" Version="4.0">
          <edmx:DataServices>
            <Schema xmlns="http://docs.oasis-open.org/odata/ns/edm" Namespace="demo">
              <EntityType Name="Trip">
                <Key><PropertyRef Name="ID"/></Key>
                <Property Name="ID" Type="Edm.Int32" Nullable="false"/>
                <Property Name="Destination" Type="Edm.String" MaxLength="40"/>
              </EntityType>
              <EntityContainer Name="Service">
                <EntitySet Name="Trips" EntityType="demo.Trip"/>
              </EntityContainer>
            </Schema>
          </edmx:DataServices>
        </edmx:Edmx>
        """

    static let annotations = """
        <?xml version="1.0" encoding="utf-8"?>
        <edmx:Edmx xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx" Version="4.0">
          <edmx:Reference Uri="https://sap.github.io/odata-vocabularies/vocabularies/Common.xml">
            <edmx:Include Namespace="com.sap.vocabularies.Common.v1" Alias="Common"/>
          </edmx:Reference>
          <edmx:DataServices>
            <Schema xmlns="http://docs.oasis-open.org/odata/ns/edm" Namespace="anno">
              <Annotations Target="demo.Trip/Destination"><Annotation Term="Common.Label" String="Where to"/></Annotations>
            </Schema>
          </edmx:DataServices>
        </edmx:Edmx>
        """
}

@Suite("Admin page")
struct AdminTests {
    @Test("the import report says what was assumed about a sloppy document and which fields a create requires")
    func importReportAssumptionsAndRequired() async throws {
        let metadata = """
            <?xml version="1.0" encoding="utf-8"?>
            <edmx:Edmx xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx" Version="4.0">
              <edmx:Reference Uri="https://sap.github.io/odata-vocabularies/vocabularies/UI.xml">
                <edmx:Include Namespace="com.sap.vocabularies.UI.v1" Alias="UI"/>
              </edmx:Reference>
              <edmx:Reference Uri="https://sap.github.io/odata-vocabularies/vocabularies/Common.xml">
                <edmx:Include Namespace="com.sap.vocabularies.Common.v1" Alias="Common"/>
              </edmx:Reference>
              <edmx:DataServices>
                <Schema Namespace="demo">
                  <EntityType Name="Trip">
                    <Key><PropertyRef Name="ID"/></Key>
                    <Property Name="ID" Type="Edm.Int32" Nullable="false"/>
                    <Property Name="Destination" Type="Edm.String" MaxLength="40"/>
                    <Property Name="Budget" Type="Edm.Decimal" Precision="9" Scale="2"/>
                  </EntityType>
                  <EntityContainer Name="Service">
                    <EntitySet Name="Trips" EntityType="demo.Trip"/>
                  </EntityContainer>
                  <Annotations Target="demo.Trip">
                    <Annotation Term="UI.Identification"><Collection>
                      <Record Type="UI.DataField"><PropertyValue Property="Value" Path="Destination"/></Record>
                    </Collection></Annotation>
                  </Annotations>
                  <Annotations Target="demo.Trip/Budget">
                    <Annotation Term="Common.FieldControl" EnumMember="Common.FieldControlType/Mandatory"/>
                  </Annotations>
                </Schema>
              </edmx:DataServices>
            </edmx:Edmx>
            """
        try await TestApp.run(forms: []) { client in
            let browser = try await AdminFixtures.admin(client)
            let done = try await AdminFixtures.importSpec(browser, files: [("sloppy.xml", metadata)])
            #expect(done.status == .seeOther)
            let report = try await browser.get(try #require(done.location))
            #expect(report.body.contains(#"<td>3 (1 added: required by the service)</td>"#))
            #expect(report.body.contains("Assumed about the documents"))
            #expect(report.body.contains("and the elements in it are in no namespace; they are read as OData V4 EDM"))
            #expect(report.body.contains("Fields added because the service requires them"))
            #expect(report.body.contains("demo-trips: Trips (Trip): the service requires Budget to create one"))
            #expect(!report.body.contains("No warnings"))
        }
    }

    @Test("an uploaded spec is stored as a new form, its report page lists it, a second import makes version 2")
    func importUpload() async throws {
        try await TestApp.run(forms: []) { client in
            let browser = try await AdminFixtures.admin(client)
            let done = try await AdminFixtures.importSpec(browser, files: [("trip.xml", AdminFixtures.spec())])
            #expect(done.status == .seeOther)
            let location = try #require(done.location)
            #expect(location.hasPrefix("/admin/imports/"))
            let report = try await browser.get(location)
            #expect(report.status == .ok)
            #expect(
                report.body.contains(
                    #"<a href="/admin/forms/trip">trip</a></td><td>New Trip</td><td>1 (new)</td><td>2</td>"#))
            #expect(report.body.contains("Native spec: trip.xml"))
            #expect(report.body.contains("by admin"))

            let again = try await AdminFixtures.importSpec(browser, pasted: AdminFixtures.spec(title: "New Journey"))
            let second = try await browser.get(try #require(again.location))
            #expect(second.body.contains(#"<td>New Journey</td><td>2</td>"#))
            let list = try await browser.get("/admin")
            #expect(
                list.body.contains(
                    #"<tr><td><a href="/admin/forms/trip">trip</a></td><td>New Journey</td><td>native</td><td>2</td><td>0</td><td>users</td><td>active</td></tr>"#
                ))
            let versions = try await browser.get("/admin/forms/trip")
            #expect(versions.body.contains(#"<tr id="version-2">"#) && versions.body.contains(#"<tr id="version-1">"#))
            #expect(versions.body.contains("pasted.xml") && versions.body.contains("trip.xml"))
            #expect(versions.body.contains("<td>admin</td>"))
        }
    }

    @Test(
        "a refused import shows each error with line, column and a marker under the column, keeps the paste, and stores nothing"
    )
    func importRefused() async throws {
        try await TestApp.run(forms: []) { client in
            let browser = try await AdminFixtures.admin(client)
            let refused = try await AdminFixtures.importSpec(
                browser, files: [("good.xml", AdminFixtures.spec(id: "good"))], pasted: AdminFixtures.broken)
            #expect(refused.status == .unprocessableContent)
            #expect(refused.title?.hasPrefix("Error: ") == true)
            #expect(refused.body.contains("The import was refused; nothing was stored"))
            #expect(refused.body.contains(#"<h4 class="fw-import-errors__file">pasted.xml</h4>"#))
            let error = try #require(
                refused.body.firstMatch(of: /<span class="fw-import-error__place">Line (\d+), column (\d+):<\/span>/))
            #expect(error.1 == "8")
            #expect(refused.body.contains("<code>  &lt;/properties&gt;\n<span class=\"fw-import-error__marker\">"))
            // The pasted text comes back, escaped.
            #expect(refused.body.contains("&lt;text name=&quot;a&quot; label=&quot;A&quot;&gt;"))
            // The good file was refused with it: one import is all or nothing.
            let list = try await browser.get("/admin")
            #expect(list.body.contains("No forms yet"))
            #expect(try await browser.get("/forms/good/new").status == .notFound)

            let empty = try await AdminFixtures.importSpec(browser)
            #expect(empty.status == .unprocessableContent)
            #expect(empty.body.contains(##"<a href="#field-documents">Choose a file to import, or paste XML</a>"##))
        }
    }

    @Test(
        "a refused import keeps its files for the next try: in order, a corrected file of the same name in its place, unticked ones dropped, for that admin only"
    )
    func importKeepsFiles() async throws {
        try await TestApp.run(forms: [], users: AdminFixtures.users) { client in
            let browser = try await AdminFixtures.admin(client)
            let files = [
                ("a.xml", AdminFixtures.spec(id: "a")), ("b.xml", AdminFixtures.broken),
                ("c.xml", AdminFixtures.spec(id: "c")),
            ]
            let refused = try await AdminFixtures.importSpec(browser, files: files)
            #expect(refused.status == .unprocessableContent)
            #expect(refused.body.contains("Files kept from this try"))
            #expect(refused.body.contains("More files, or corrected ones"))
            let kept = refused.body.matches(
                of:
                    #/name="kept" value="([0-9a-f-]{36})" checked><label class="fw-checkbox__label" for="kept-\d">([a-z.]+) /#
            )
            #expect(kept.map { String($0.2) } == ["a.xml", "b.xml", "c.xml"])
            let ids = kept.map { String($0.1) }

            // Another admin cannot use them.
            let other = TestBrowser(client)
            try await other.signIn("root2", password: "root2-password")
            let stranger = try await AdminFixtures.importSpec(other, kept: ids)
            #expect(stranger.body.contains("Choose a file to import, or paste XML"))

            // b.xml corrected takes b's place, and c is unticked: a and b are imported.
            let fixed = ("b.xml", AdminFixtures.spec(id: "b").replacingOccurrences(of: "p1", with: "q1"))
            let refusedAgain = try await AdminFixtures.importSpec(
                browser, files: [("b.xml", AdminFixtures.broken)], kept: ids)
            #expect(refusedAgain.status == .unprocessableContent)
            let keptAgain = refusedAgain.body.matches(
                of:
                    #/name="kept" value="([0-9a-f-]{36})" checked><label class="fw-checkbox__label" for="kept-\d">([a-z.]+) /#
            )
            #expect(keptAgain.map { String($0.2) } == ["a.xml", "b.xml", "c.xml"])
            #expect(keptAgain[0].1 == kept[0].1 && keptAgain[2].1 == kept[2].1 && keptAgain[1].1 != kept[1].1)
            let done = try await AdminFixtures.importSpec(
                browser, files: [fixed], kept: [String(keptAgain[0].1), String(keptAgain[1].1)])
            #expect(done.status == .seeOther)
            let report = try await browser.get(try #require(done.location))
            #expect(
                report.body.contains(#"<a href="/admin/forms/a">a</a>"#)
                    && report.body.contains(#"<a href="/admin/forms/b">b</a>"#))
            #expect(!report.body.contains(#"<a href="/admin/forms/c">c</a>"#))
            #expect(try await browser.get("/forms/b/new").body.contains("q1"))

            // An accepted import forgets the kept files.
            let after = try await AdminFixtures.importSpec(browser, kept: ids + keptAgain.map { String($0.1) })
            #expect(after.body.contains("Choose a file to import, or paste XML"))
            #expect(!after.body.contains("Files kept from this try"))
        }
    }

    @Test("kept files of refused imports older than a day are purged")
    func keptFilesPurged() async throws {
        let clock = TestClock()
        try await AttachmentFixtures.withStore(clock: clock) { _, database in
            let drafts = ImportDraftStore(database: database, now: { clock.now })
            let owner = UUID()
            let kept = try await drafts.keep([.init(name: "a.xml", data: Array("<a/>".utf8))], owner: owner)
            let ids = kept.compactMap(\.id)
            #expect(try await drafts.documents(ids: ids, owner: owner).map(\.data) == [Array("<a/>".utf8)])
            #expect(try await drafts.documents(ids: ids, owner: UUID()).isEmpty)
            #expect(try await drafts.purge(olderThan: clock.now) == 0)
            clock.advance(by: 1)
            #expect(try await drafts.purge(olderThan: clock.now) == 1)
            #expect(try await drafts.documents(ids: ids, owner: owner).isEmpty)
        }
    }

    @Test("the forms list shows 50 forms a page by id, with links to the next and previous forms, and their objects")
    func formsListPages() async throws {
        let forms = (1...52).map { n in
            (Fixtures.schema([], id: String(format: "form-%02d", n), title: "New \(n)"), FormAccess.public)
        }
        try await TestApp.run(forms: forms) { client in
            let visitor = TestBrowser(client)
            _ = try await visitor.get("/forms/form-52")
            #expect(try await visitor.postJSON("/api/forms/form-52/objects", #"{"title":"T"}"#).status == .created)
            let browser = try await AdminFixtures.admin(client)
            let ids = { (page: TestBrowser.Page) in
                page.body.matches(of: /<tr><td><a href="\/admin\/forms\/([a-z0-9-]+)">/).map { String($0.1) }
            }
            let link = { (page: TestBrowser.Page, name: String) in
                page.body.matches(of: /rel="(?:prev|next)" href="([^"]+)">(\w+) forms</).first { $0.2 == name }.map {
                    String($0.1)
                }
            }
            let first = try await browser.get("/admin")
            #expect(ids(first) == forms.prefix(50).map(\.0.id))
            #expect(link(first, "Previous") == nil)
            let next = try #require(link(first, "Next"))
            #expect(next.hasPrefix("/admin?cursor="))
            let second = try await browser.get(next)
            #expect(ids(second) == ["form-51", "form-52"])
            #expect(second.body.contains(#"<td>New 52</td><td>native</td><td>1</td><td>1</td><td>public</td>"#))
            #expect(link(second, "Next") == nil)
            let previous = try #require(link(second, "Previous"))
            #expect(ids(try await browser.get(previous)) == ids(first))
            let damaged = try await browser.get("/admin?cursor=not-a-cursor")
            #expect(damaged.status == .badRequest)
            #expect(damaged.body.contains(ListCursors.refusal))
            // A visitor who is no admin learns nothing from a cursor.
            #expect(try await visitor.get(next).status != .ok)
        }
    }

    @Test("the forms list counts a page's objects in one query, up to a limit; a form page counts them by version")
    func objectCounts() async throws {
        try await AttachmentFixtures.withStore { _, database in
            let forms = ["a", "b", "c"].map { Fixtures.schema([], id: $0, title: $0) }
            _ = try await database.forms.storeImport([Fixtures.importResult(forms)], importedBy: "admin")
            let objects = database.objects
            for (form, count) in [("a", 2), ("b", 1)] {
                for _ in 0..<count {
                    _ = try await objects.create(
                        formID: form, version: 1, values: [:], keyText: "k", creator: .browser("x"))
                }
            }
            #expect(try await objects.countsByForm(["a", "b", "c"], upTo: 10) == ["a": 2, "b": 1])
            #expect(try await objects.countsByForm(["b", "c"], upTo: 10) == ["b": 1])
            #expect(try await objects.countsByForm([], upTo: 10) == [:])
            // Counted up to the limit: one more stands for more.
            #expect(try await objects.countsByForm(["a", "b"], upTo: 1) == ["a": 2, "b": 1])
            #expect(AdminImportsController.describeCount(1_000) == "1000")
            #expect(AdminImportsController.describeCount(1_001) == "1,000+")
            _ = try await objects.create(formID: "a", version: 2, values: [:], keyText: "k", creator: .browser("x"))
            #expect(try await objects.countsByVersion(formID: "a") == [1: 2, 2: 1])
            #expect(try await objects.countsByVersion(formID: "c").isEmpty)
        }
    }

    @Test("the marker sits under the column, counting characters as libxml2 does, with tabs kept")
    func excerpt() throws {
        let data = Array("first\n\tsé <bad\nlast".utf8)
        let excerpt = try #require(SourceExcerpt(data, line: 2, column: 5))
        #expect(excerpt.line == "\tsé <bad")
        #expect(excerpt.marker == "\t   ^")
        #expect(SourceExcerpt(data, line: 9, column: 1) == nil)
        // libxml2's own column, past three two-byte letters, is the slash's: 48.
        let xml =
            "<form xmlns=\"urn:fieldwork:form:1\" id=\"x\" title=\"T\">\n<key><text name=\"t\" label=\"ééé\" required=\"true\"/ ></key>\n</form>\n"
        var found: [ImportError] = []
        do { _ = try FormImporter.importDocuments([ImportDocument(name: "m.xml", data: Array(xml.utf8))]) } catch {
            found = error.errors
        }
        let error = try #require(found.first)
        let marked = try #require(SourceExcerpt(Array(xml.utf8), line: error.line, column: error.column))
        #expect(error.column == 48)
        #expect(marked.marker.count == 48 && Array(marked.line)[47] == "/")
    }

    @Test("retire hides the form and its create view answers 410; restore brings it back")
    func retireRestore() async throws {
        try await TestApp.run(forms: [(Fixtures.schema([], id: "trip", title: "New Trip"), .public)]) { client in
            let browser = try await AdminFixtures.admin(client)
            let page = try await browser.get("/admin/forms/trip")
            #expect((try await TestBrowser(client).get("/forms/trip")).body.contains("fw-page-header__add"))
            let retired = try await browser.post(
                "/admin/forms/trip/state", [("_csrf", page.csrf ?? ""), ("state", "retired")])
            #expect(retired.status == .seeOther)
            // Its page still lists its objects, without "+".
            let parent = try await TestBrowser(client).get("/forms/trip")
            #expect(parent.status == .ok)
            #expect(!parent.body.contains("fw-page-header__add"))
            #expect(parent.body.contains("This form is retired: it takes no new entries."))
            let gone = try await TestBrowser(client).get("/forms/trip/new")
            #expect(gone.status == .gone)
            #expect(gone.body.contains("This form has been retired"))
            #expect(try await TestBrowser(client).post("/forms/trip", [("title", "x")]).status == .gone)
            #expect(!(try await TestBrowser(client).get("/").body.contains("/forms/trip")))
            #expect(
                (try await browser.get("/admin/forms/trip?done=retired")).body.contains(
                    #"<span class="fw-tag fw-tag--retired">retired</span>"#))
            let restored = try await browser.post(
                "/admin/forms/trip/state", [("_csrf", page.csrf ?? ""), ("state", "active")])
            #expect(restored.status == .seeOther)
            #expect(try await TestBrowser(client).get("/forms/trip/new").status == .ok)
            let active = try await TestBrowser(client).get("/forms/trip")
            #expect(active.body.contains("fw-page-header__add"))
            #expect(!active.body.contains("This form is retired"))
        }
    }

    @Test("access: a users form sends visitors to sign in; made public, anyone may fill it")
    func access() async throws {
        try await TestApp.run(forms: [(Fixtures.schema([], id: "trip", title: "New Trip"), .users)]) { client in
            #expect(try await TestBrowser(client).get("/forms/trip/new").status == .seeOther)
            let browser = try await AdminFixtures.admin(client)
            let page = try await browser.get("/admin/forms/trip")
            #expect(page.body.contains(#"value="users" checked"#))
            let saved = try await browser.post(
                "/admin/forms/trip/access", [("_csrf", page.csrf ?? ""), ("access", "public")])
            #expect(saved.location == "/admin/forms/trip?done=access")
            #expect(try await TestBrowser(client).get("/forms/trip/new").status == .ok)
            #expect(
                try await browser.post(
                    "/admin/forms/trip/access", [("_csrf", page.csrf ?? ""), ("access", "everyone")]
                ).status == .badRequest)
        }
    }

    @Test(
        "the preview frames the create view at both widths; only this site may frame it, and it works for retired forms"
    )
    func preview() async throws {
        try await TestApp.run(forms: [(Fixtures.schema([], id: "trip", title: "New Trip"), .users)]) { client in
            let browser = try await AdminFixtures.admin(client)
            let page = try await browser.get("/admin/forms/trip/preview")
            #expect(page.status == .ok)
            #expect(page.body.contains(#"src="/admin/forms/trip/frame?layout=compact&amp;version=1""#))
            #expect(page.body.contains(#"src="/admin/forms/trip/frame?layout=regular&amp;version=1""#))
            #expect(page.headers[.fwContentSecurityPolicy]?.contains("frame-ancestors 'none'") == true)
            let frame = try await browser.get("/admin/forms/trip/frame?layout=compact&version=1")
            #expect(frame.status == .ok)
            #expect(frame.body.contains("fw-layout-compact"))
            #expect(frame.headers[.fwContentSecurityPolicy]?.contains("frame-ancestors 'self'") == true)
            // No script runs in the frames, so none can lift their sandbox; nothing in them submits.
            let sandboxes = page.body.matches(of: /sandbox="([^"]*)"/).map { String($0.1) }
            #expect(sandboxes == ["allow-same-origin", "allow-same-origin"])
            #expect(frame.headers[.fwContentSecurityPolicy]?.hasSuffix("; sandbox allow-same-origin") == true)
            #expect(!frame.body.contains("<script") && frame.body.contains("fieldwork.css"))
            #expect(try await browser.get("/forms/trip/new").body.contains(#"<script type="module" src="/assets/"#))
            let state = try await browser.get("/admin/forms/trip")
            _ = try await browser.post("/admin/forms/trip/state", [("_csrf", state.csrf ?? ""), ("state", "retired")])
            #expect(try await browser.get("/admin/forms/trip/frame?layout=regular").body.contains("fw-layout-regular"))
            #expect(try await browser.get("/admin/forms/trip/frame?version=9").status == .notFound)

            // Each frame shows its own version: the latest through the create view's plan, an
            // older one built for the request.
            _ = try await AdminFixtures.importSpec(browser, pasted: AdminFixtures.spec(title: "New Journey"))
            #expect(try await browser.get("/admin/forms/trip/frame?version=2").body.contains("New Journey"))
            let older = try await browser.get("/admin/forms/trip/frame?version=1")
            #expect(older.body.contains("New Trip") && !older.body.contains("New Journey"))
            #expect(try await browser.get("/admin/forms/trip/frame?version=2").body.contains("New Journey"))
        }
    }

    @Test("downloads: the source XML as imported and the canonical JSON, as attachments")
    func downloads() async throws {
        try await TestApp.run(forms: []) { client in
            let browser = try await AdminFixtures.admin(client)
            _ = try await AdminFixtures.importSpec(browser, files: [("trip.xml", AdminFixtures.spec())])
            let xml = try await browser.get("/admin/forms/trip/versions/1/documents/0")
            #expect(xml.status == .ok)
            #expect(xml.body == AdminFixtures.spec())
            #expect(xml.headers[.contentDisposition]?.hasPrefix("attachment; filename=\"trip.xml\"") == true)
            #expect(xml.headers[.fwContentSecurityPolicy] == "default-src 'none'; sandbox")
            let json = try await browser.get("/admin/forms/trip/versions/1/schema.json")
            #expect(json.headers[.contentType] == "application/json")
            let schema = try FormSchema.fromCanonicalJSON(Data(json.body.utf8))
            #expect(schema.id == "trip" && schema.title == "New Trip")
            #expect(try await browser.get("/admin/forms/trip/versions/1/documents/1").status == .notFound)
            #expect(try await browser.get("/admin/forms/trip/versions/2/schema.json").status == .notFound)
        }
    }

    @Test("a CSV replaces a list's options at once, in the form and in the server's check; a bad CSV changes nothing")
    func valueListUpload() async throws {
        try await TestApp.run(forms: []) { client in
            let browser = try await AdminFixtures.admin(client)
            _ = try await AdminFixtures.importSpec(browser, files: [("trip.xml", AdminFixtures.spec())])
            let form = try await browser.get("/admin/forms/trip")
            #expect(form.body.contains("1 option from the spec"))
            let csv = "value,label,group\np2,Plant Two,North\np3,\"Plant Three, new\",North\n"
            let uploaded = try await browser.postMultipart(
                "/admin/forms/trip/lists/plants",
                [
                    .field("_csrf", form.csrf ?? ""),
                    .file("csv", filename: "plants.csv", type: "text/csv", bytes: Array(csv.utf8)),
                ])
            #expect(uploaded.status == .seeOther)
            let view = try await browser.get("/forms/trip/new")
            #expect(view.body.contains(#"<optgroup label="North">"#))
            #expect(view.body.contains("Plant Three, new"))
            #expect(!view.body.contains("Plant One"))
            // The server's check takes the new options at once.
            let refused = try await browser.post(
                "/forms/trip", [("_csrf", view.csrf ?? ""), ("title", "Oslo"), ("plant", "p1")])
            #expect(refused.status == .unprocessableContent)
            let created = try await browser.post(
                "/forms/trip", [("_csrf", view.csrf ?? ""), ("title", "Oslo"), ("plant", "p3")])
            #expect(created.status == .seeOther)
            let detail = try await browser.get(try #require(created.location))
            #expect(detail.body.contains("Plant Three, new"))

            let bad = "p4,Four\n,No value\np4,Again\n"
            let refusedCSV = try await browser.postMultipart(
                "/admin/forms/trip/lists/plants",
                [
                    .field("_csrf", form.csrf ?? ""),
                    .file("csv", filename: "bad.csv", type: "text/csv", bytes: Array(bad.utf8)),
                ])
            #expect(refusedCSV.status == .unprocessableContent)
            #expect(refusedCSV.body.contains("Line 2: Enter a value in the first column."))
            #expect(
                refusedCSV.body.contains(
                    "Line 3: The value &quot;p4&quot; is already on line 1; each value may appear once."))
            #expect(refusedCSV.body.contains(#"aria-describedby="list-plants-csv-hint list-plants-csv-error""#))
            #expect(refusedCSV.body.contains(##"href="#list-plants-csv""##))
            DOMIDTests.expectReferencesResolve(refusedCSV.body, "a refused list upload")
            #expect(try await browser.get("/forms/trip/new").body.contains("Plant Three, new"))
            #expect(
                try await browser.postMultipart("/admin/forms/trip/lists/nope", [.field("_csrf", form.csrf ?? "")])
                    .status == .notFound)
        }
    }

    @Test("users: add one who can then sign in, refuse a taken name, reset a password, remove a user but never oneself")
    func users() async throws {
        try await TestApp.run(forms: []) { client in
            let browser = try await AdminFixtures.admin(client)
            let page = try await browser.get("/admin/users")
            let token = page.csrf ?? ""
            let added = try await browser.post(
                "/admin/users", [("_csrf", token), ("name", "bea"), ("password", "bea-password")])
            #expect(added.location == "/admin/users?done=added")
            let bea = TestBrowser(client)
            try await bea.signIn("bea", password: "bea-password")
            #expect(try await bea.get("/admin").status == .forbidden)

            let taken = try await browser.post(
                "/admin/users", [("_csrf", token), ("name", "bea"), ("password", "short")])
            #expect(taken.status == .unprocessableContent)
            #expect(taken.body.contains(##"<a href="#field-name">The user name bea is taken; choose another</a>"##))
            #expect(taken.body.contains(##"<a href="#field-password">Enter a password of at least 12 characters</a>"##))
            #expect(taken.body.contains(#"value="bea""#))
            // The same name in other letters' case is the same person to everyone but the server.
            let cased = try await browser.post(
                "/admin/users", [("_csrf", token), ("name", "Bea"), ("password", "bea-password-2")])
            #expect(cased.body.contains(##"<a href="#field-name">The user name Bea is taken; choose another</a>"##))

            let users = try await browser.get("/admin/users")
            let id = try #require(users.body.firstMatch(of: /<tr id="user-([0-9a-f-]+)"><td>bea<\/td>/)).1
            let reset = try await browser.post(
                "/admin/users/\(id)/password", [("_csrf", token), ("password", "new-bea-password")])
            #expect(reset.status == .seeOther)
            // The old sign-in ended with the reset.
            #expect(try await bea.get("/admin").status == .seeOther)
            let old = TestBrowser(client)
            let login = try await old.get("/login")
            #expect(
                try await old.post(
                    "/login", [("_csrf", login.csrf ?? ""), ("name", "bea"), ("password", "bea-password")]
                ).status == .unprocessableContent)
            try await old.signIn("bea", password: "new-bea-password")

            let removed = try await browser.post("/admin/users/\(id)/delete", [("_csrf", token)])
            #expect(removed.location == "/admin/users?done=removed")
            #expect(!(try await browser.get("/admin/users").body.contains("<td>bea</td>")))
            let me = try #require(users.body.firstMatch(of: /<tr id="user-([0-9a-f-]+)"><td>admin \(you\)<\/td>/)).1
            #expect(try await browser.post("/admin/users/\(me)/delete", [("_csrf", token)]).status == .conflict)
        }
    }

    @Test(
        "POST /api/forms takes the admin token or an admin session; 201 with id and version, 422 with line and column")
    func formsAPI() async throws {
        try await TestApp.run(forms: [], users: AdminFixtures.users, adminToken: "s3cret-token") { client in
            func post(
                _ body: String, token: String? = nil, type: String = "application/xml", browser: TestBrowser? = nil
            ) async throws -> TestBrowser.Page {
                var headers: HTTPFields = [.contentType: type]
                if let token { headers[.authorization] = "Bearer \(token)" }
                return try await (browser ?? TestBrowser(client)).send(
                    "/api/forms", method: .post, headers: headers, body: ByteBuffer(string: body))
            }
            let created = try await post(AdminFixtures.spec(), token: "s3cret-token")
            #expect(created.status == .created)
            let json = try JSONSerialization.jsonObject(with: Data(created.body.utf8)) as? [String: Any]
            #expect(json?["id"] as? String == "trip")
            #expect(json?["version"] as? Int == 1)
            #expect(try await post(AdminFixtures.spec(), token: "wrong").status == .unauthorized)
            #expect(try await post(AdminFixtures.spec()).status == .unauthorized)
            let ana = TestBrowser(client)
            try await ana.signIn("ana", password: "ana-password")
            #expect(try await post(AdminFixtures.spec(), browser: ana).status == .unauthorized)
            let admin = try await AdminFixtures.admin(client)
            let second = try await post(AdminFixtures.spec(), browser: admin)
            #expect(second.status == .created)
            #expect(second.body.contains(#""version":2"#))
            let broken = try await post(AdminFixtures.broken, token: "s3cret-token")
            #expect(broken.status == .unprocessableContent)
            let errors =
                (try JSONSerialization.jsonObject(with: Data(broken.body.utf8)) as? [String: Any])?["errors"]
                as? [[String: Any]]
            #expect(errors?.first?["line"] as? Int == 8)
            #expect((errors?.first?["column"] as? Int ?? 0) > 0)
            #expect(errors?.first?["message"] is String)
            #expect(
                try await post(AdminFixtures.spec(), token: "s3cret-token", type: "text/plain").status
                    == .unsupportedMediaType)
        }
    }

    @Test(
        "POST /api/forms takes several files as multipart with the token: OData metadata and its annotations as one import; errors name the file"
    )
    func formsAPIMultipart() async throws {
        try await TestApp.run(forms: [], users: AdminFixtures.users, adminToken: "s3cret-token") { client in
            func post(
                _ files: [(String, String)], token: String?, browser: TestBrowser? = nil
            ) async throws -> TestBrowser.Page {
                var headers: HTTPFields = [.contentType: AttachmentFixtures.contentType]
                if let token { headers[.authorization] = "Bearer \(token)" }
                let parts = files.map {
                    AttachmentFixtures.Part.file(
                        "documents", filename: $0.0, type: "application/xml", bytes: Array($0.1.utf8))
                }
                return try await (browser ?? TestBrowser(client)).send(
                    "/api/forms", method: .post, headers: headers,
                    body: ByteBuffer(bytes: AttachmentFixtures.body(parts)))
            }
            let created = try await post(
                [("meta.xml", ODataFixture.metadata), ("anno.xml", ODataFixture.annotations)], token: "s3cret-token")
            #expect(created.status == .created)
            let json = try JSONSerialization.jsonObject(with: Data(created.body.utf8)) as? [String: Any]
            #expect(json?["id"] as? String == "demo-trips")
            // An imported form is for users: its schema too, unless the admin token comes along.
            #expect(try await TestBrowser(client).get("/api/forms/demo-trips").status == .unauthorized)
            let schema = try await TestBrowser(client).send(
                "/api/forms/demo-trips", method: .get, headers: [.authorization: "Bearer s3cret-token"], body: nil)
            #expect(schema.body.contains(#""label":"Where to""#))

            let broken = try await post(
                [("meta.xml", ODataFixture.metadata), ("anno.xml", "<edmx:Edmx")], token: "s3cret-token")
            #expect(broken.status == .unprocessableContent)
            let errors =
                (try JSONSerialization.jsonObject(with: Data(broken.body.utf8)) as? [String: Any])?["errors"]
                as? [[String: Any]]
            #expect(errors?.first?["file"] as? String == "anno.xml")
            #expect(errors?.first?["line"] as? Int == 1)

            // A session may not send multipart (a cross-site page could); nothing is stored.
            let admin = try await AdminFixtures.admin(client)
            let refused = try await post([("trip.xml", AdminFixtures.spec())], token: nil, browser: admin)
            #expect(refused.status == .forbidden)
            #expect(try await TestBrowser(client).get("/api/forms/trip").status == .notFound)
            #expect(try await post([], token: "s3cret-token").status == .badRequest)
        }
    }

    @Test("PUT /api/forms/{id}/lists/{list} replaces a list's options from CSV; line errors keep the old ones")
    func optionsAPI() async throws {
        try await TestApp.run(forms: [], users: AdminFixtures.users, adminToken: "s3cret-token") { client in
            func put(
                _ path: String, _ csv: String, token: String? = "s3cret-token", type: String = "text/csv"
            ) async throws -> TestBrowser.Page {
                var headers: HTTPFields = [.contentType: type]
                if let token { headers[.authorization] = "Bearer \(token)" }
                return try await TestBrowser(client).send(
                    path, method: .put, headers: headers, body: ByteBuffer(string: csv))
            }
            let admin = try await AdminFixtures.admin(client)
            #expect(try await AdminFixtures.importSpec(admin, pasted: AdminFixtures.spec()).status == .seeOther)
            let done = try await put(
                "/api/forms/trip/lists/plants", "value,label,group\np7,Plant Seven,North\np8,Plant Eight,North\n")
            #expect(done.status == .ok)
            #expect(done.body == #"{"list":"plants","options":2}"#)
            let view = try await admin.get("/forms/trip/new")
            #expect(view.body.contains("Plant Seven") && !view.body.contains("Plant One"))

            let refused = try await put("/api/forms/trip/lists/plants", "p9,Nine\n,Blank\n")
            #expect(refused.status == .unprocessableContent)
            #expect(refused.body.contains(#""line":2"#))
            #expect(try await admin.get("/forms/trip/new").body.contains("Plant Seven"))
            #expect(try await put("/api/forms/trip/lists/nope", "a,A").status == .notFound)
            #expect(try await put("/api/forms/nope/lists/plants", "a,A").status == .notFound)
            #expect(
                try await put("/api/forms/trip/lists/plants", "a,A", type: "text/plain").status == .unsupportedMediaType
            )
            #expect(try await put("/api/forms/trip/lists/plants", "a,A", token: "wrong").status == .unauthorized)
            #expect(try await put("/api/forms/trip/lists/plants", "a,A", token: nil).status == .unauthorized)
        }
    }

    @Test(
        "the form list on / shows visitors only public forms, signed-in users all active ones, and links admins to the admin page"
    )
    func indexLink() async throws {
        let forms = [
            (Fixtures.schema([], id: "open-form", title: "New Open"), FormAccess.public),
            (Fixtures.schema([], id: "members-form", title: "New Member Thing"), FormAccess.users),
        ]
        try await TestApp.run(forms: forms, users: AdminFixtures.users) { client in
            let visitor = try await TestBrowser(client).get("/")
            #expect(visitor.body.contains("/forms/open-form") && !visitor.body.contains("/forms/members-form"))
            let admin = try await AdminFixtures.admin(client)
            #expect(try await admin.get("/").body.contains(#"href="/admin""#))
            let ana = TestBrowser(client)
            try await ana.signIn("ana", password: "ana-password")
            let signedIn = try await ana.get("/")
            #expect(!signedIn.body.contains(#"href="/admin""#))
            #expect(signedIn.body.contains("/forms/open-form") && signedIn.body.contains("/forms/members-form"))
        }
    }
}

@Suite("Admin authorisation")
struct AdminAuthorisationTests {
    static let gets = [
        "/admin", "/admin/imports/00000000-0000-0000-0000-000000000000", "/admin/forms/trip",
        "/admin/forms/trip/preview",
        "/admin/forms/trip/frame", "/admin/forms/trip/versions/1/schema.json",
        "/admin/forms/trip/versions/1/documents/0",
        "/admin/users",
    ]
    static let posts = [
        "/admin/import", "/admin/forms/trip/access", "/admin/forms/trip/state", "/admin/forms/trip/lists/plants",
        "/admin/users", "/admin/users/00000000-0000-0000-0000-000000000000/password",
        "/admin/users/00000000-0000-0000-0000-000000000000/delete",
    ]

    @Test("every admin page sends visitors to sign in and refuses a signed-in user with 403")
    func pages() async throws {
        try await TestApp.run(forms: [], users: AdminFixtures.users) { client in
            let ana = TestBrowser(client)
            try await ana.signIn("ana", password: "ana-password")
            for path in Self.gets {
                let visitor = try await TestBrowser(client).get(path)
                #expect(visitor.status == .seeOther, "\(path)")
                #expect(visitor.location?.hasPrefix("/login?next=") == true, "\(path)")
                #expect(try await ana.get(path).status == .forbidden, "\(path)")
            }
            // Browsers get a page that says why, not JSON.
            let refused = try await ana.get("/admin")
            #expect(refused.headers[.contentType] == "text/html; charset=utf-8")
            #expect(refused.body.contains("<h1 class=\"fw-page-header__title\">You cannot do that</h1>"))
            #expect(refused.body.contains("Only administrators may use the admin page."))
        }
    }

    @Test("every admin POST refuses visitors and users with 403, and an admin without the CSRF token; nothing changes")
    func posts() async throws {
        try await TestApp.run(
            forms: [(Fixtures.schema([], id: "trip", title: "New Trip"), .users)], users: AdminFixtures.users
        ) { client in
            let ana = TestBrowser(client)
            try await ana.signIn("ana", password: "ana-password")
            let admin = try await AdminFixtures.admin(client)
            let anaToken = try await ana.get("/").csrf ?? ""
            let fields = [("access", "public"), ("state", "retired"), ("name", "eve"), ("password", "eve-password-1")]
            for path in Self.posts {
                let visitor = try await TestBrowser(client).post(path, fields)
                #expect(visitor.status == .forbidden, "\(path)")
                #expect(visitor.body.contains("Sign in as an administrator, then send the form again."), "\(path)")
                #expect(try await ana.post(path, [("_csrf", anaToken)] + fields).status == .forbidden, "\(path)")
                let forged =
                    path == "/admin/import" || path.contains("/lists/")
                    ? try await admin.postMultipart(path, fields.map { .field($0.0, $0.1) })
                    : try await admin.post(path, fields)
                #expect(forged.status == .forbidden, "\(path)")
            }
            // Nothing changed: the form is still active and for users, and eve does not exist.
            let page = try await admin.get("/admin")
            #expect(page.body.contains("<td>users</td><td>active</td>"))
            #expect(!(try await admin.get("/admin/users").body.contains("eve")))
        }
    }
}
