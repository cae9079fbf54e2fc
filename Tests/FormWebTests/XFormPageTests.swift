import FormImport
import FormModel
import Foundation
import HTTPTypes
import HummingbirdTesting
import TestSupport
import Testing

@testable import FormStore
@testable import FormWeb

/// An imported XForm in the browser: the questions that do not apply are hidden, as the server
/// decides, with JavaScript off (the Update button) and on (the rules route the page's script
/// asks); refusals read the form's own messages; notes are text.
@Suite("XForm pages")
struct XFormPageTests {
    static let survey = """
        <h:html xmlns="http://www.w3.org/2002/xforms" xmlns:h="http://www.w3.org/1999/xhtml"
                xmlns:jr="http://openrosa.org/javarosa">
          <h:head><h:title>Visit</h:title>
            <model>
              <instance><data id="visit">
                <name/><intro/><consent/><details><age/><smoker/></details><score/>
              </data></instance>
              <bind nodeset="/data/name" type="string"/>
              <bind nodeset="/data/intro" type="string" readonly="true()"/>
              <bind nodeset="/data/consent" type="select1" required="true()"/>
              <bind nodeset="/data/details" relevant="/data/consent = 'yes'"/>
              <bind nodeset="/data/details/age" type="int" required="true()" constraint=". &gt;= 18"
                    jr:constraintMsg="Only adults may answer"/>
              <bind nodeset="/data/details/smoker" type="select1" relevant="/data/details/age &gt; 30"/>
              <bind nodeset="/data/score" type="int" calculate="if(/data/consent = 'yes', 10, 0)" readonly="true()"/>
            </model>
          </h:head>
          <h:body>
            <input ref="/data/name"><label>Name</label></input>
            <input ref="/data/intro"><label>Thank you for taking part.</label></input>
            <select1 ref="/data/consent"><label>Do you consent?</label>
              <item><label>Yes</label><value>yes</value></item><item><label>No</label><value>no</value></item>
            </select1>
            <group ref="/data/details"><label>About you</label>
              <input ref="/data/details/age"><label>Age</label></input>
              <select1 ref="/data/details/smoker"><label>Do you smoke?</label>
                <item><label>Yes</label><value>yes</value></item><item><label>No</label><value>no</value></item>
              </select1>
            </group>
            <input ref="/data/score"><label>Score</label></input>
          </h:body>
        </h:html>
        """

    /// Imports the XForms into a fresh data folder and runs `test` with a browser on an app over it.
    static func withForms(
        _ sources: [String: String], users: [(String, String, Bool)] = [],
        _ test: @escaping @Sendable (TestBrowser) async throws -> Void
    ) async throws {
        let data = Fixtures.temporaryDataFolder()
        try await XFormSubmissionTests.importing(sources, into: data)
        try await TestApp.run(forms: [], data: data, users: users) { client in try await test(TestBrowser(client)) }
    }

    /// A trip whose cities, from `cities` (an instance: inline, or a file's), are filtered by country.
    static func trip(cities: String) -> String {
        """
        <h:html xmlns="http://www.w3.org/2002/xforms" xmlns:h="http://www.w3.org/1999/xhtml">
          <h:head><h:title>Trip</h:title>
            <model>
              <instance><data id="trip"><country/><city/></data></instance>
              \(cities)
              <bind nodeset="/data/country" type="select1"/>
              <bind nodeset="/data/city" type="select1"/>
            </model>
          </h:head>
          <h:body>
            <select1 ref="/data/country"><label>Country</label>
              <item><label>Netherlands</label><value>nl</value></item><item><label>USA</label><value>us</value></item>
            </select1>
            <select1 ref="/data/city"><label>City</label>
              <itemset nodeset="instance('cities')/root/item[country = /data/country]">
                <value ref="name"/><label ref="label"/></itemset>
            </select1>
          </h:body>
        </h:html>
        """
    }

    /// The trip with its cities from an external file, `jr://file/cities.csv`.
    static let externalTrip = trip(cities: #"<instance id="cities" src="jr://file/cities.csv"/>"#)

    /// Whether the cell of a field is hidden on a page.
    static func hidden(_ field: String, in page: String) -> Bool? {
        guard
            let match = page.firstMatch(of: try! Regex(#"<div class="fw-cell[^"]*"( hidden)? data-field="\#(field)">"#))
        else { return nil }
        return match.output[1].substring != nil
    }

    @Test("a fresh view hides what does not apply; Update shows what applies to the answers, everything typed kept")
    func relevanceWithoutScript() async throws {
        try await Self.withForms(["visit.xml": Self.survey]) { browser in
            let fresh = try await browser.get("/forms/visit/new")
            #expect(fresh.status == .ok)
            #expect(Self.hidden("name", in: fresh.body) == false)
            #expect(Self.hidden("age", in: fresh.body) == true && Self.hidden("smoker", in: fresh.body) == true)
            #expect(fresh.body.contains(#"data-rules="/forms/visit/rules""#))
            #expect(fresh.body.contains(#"name="_update""#))
            // The note is text: no control, no label pointing nowhere.
            #expect(fresh.body.contains(#"<p class="fw-label">Thank you for taking part.</p>"#))
            #expect(!fresh.body.contains(#"name="intro""#))
            // The group of questions none of which applies is hidden too.
            #expect(fresh.body.contains(#"aria-labelledby="group-properties-2" hidden>"#), "\(fresh.body)")

            let csrf = try #require(fresh.csrf)
            let updated = try await browser.post(
                "/forms/visit", [("_csrf", csrf), ("name", "Ada"), ("consent", "yes"), ("age", "45"), ("_update", "1")])
            #expect(updated.status == .ok)
            #expect(Self.hidden("age", in: updated.body) == false && Self.hidden("smoker", in: updated.body) == false)
            #expect(updated.body.contains(#"value="Ada""#) && updated.body.contains(#"value="45""#))
            #expect(!updated.body.contains("fw-error-summary"), "Update judges nothing")
            #expect(updated.body.firstMatch(of: /name="score"[^>]*value="10"/) != nil, "the computed value shown")

            // Refused: the form's own message; a hidden question's value is neither judged nor stored.
            let refused = try await browser.post(
                "/forms/visit", [("_csrf", csrf), ("name", "Bo"), ("consent", "yes"), ("age", "12")])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.body.contains("Only adults may answer"))
            #expect(Self.hidden("smoker", in: refused.body) == true)
            let declined = try await browser.post(
                "/forms/visit", [("_csrf", csrf), ("name", "Cy"), ("consent", "no"), ("age", "12")])
            #expect(declined.status == .seeOther)
            let detail = try await browser.get(try #require(declined.location))
            #expect(detail.body.contains("Cy") && !detail.body.contains(">12<"))
        }
    }

    @Test("the rules route answers which questions apply, must be answered and the computed values")
    func rulesRoute() async throws {
        try await Self.withForms(["visit.xml": Self.survey]) { browser in
            let csrf = try #require(try await browser.get("/forms/visit/new").csrf)
            let answer = try await browser.post(
                "/forms/visit/rules", [("_csrf", csrf), ("consent", "yes"), ("age", "20")])
            #expect(answer.status == .ok)
            #expect(
                answer.body
                    == #"{"counts":{},"hidden":["smoker"],"options":{},"outputs":{},"required":["consent","age"],"values":{"score":["10"]}}"#
            )
            let refused = try await browser.post("/forms/visit/rules", [("consent", "yes")])
            #expect(refused.status == .forbidden, "the CSRF token is checked")
            #expect(refused.headers[.contentType]?.hasPrefix("application/json") == true)
            #expect(refused.body.hasPrefix(#"{"error":"#), "the script that asks reads JSON, refusals too")
            #expect(try await browser.post("/forms/new-issue/rules", [("_csrf", csrf)]).status == .notFound)
        }
    }

    @Test("the admin list marks an XForm imported with warnings as partly imported, linking to its report")
    func partlyImported() async throws {
        let household = """
            <h:html xmlns="http://www.w3.org/2002/xforms" xmlns:h="http://www.w3.org/1999/xhtml">
              <h:head><h:title>Household</h:title>
                <model><instance><data id="household"><name/><note/></data></instance></model>
              </h:head>
              <h:body>
                <input ref="/data/name"><label>Name</label></input>
                <textarea ref="/data/note"><label>Note</label></textarea>
              </h:body>
            </h:html>
            """
        try await Self.withForms(
            ["visit.xml": Self.survey, "household.xml": household], users: [("root", Fixtures.adminPassword, true)]
        ) { browser in
            try await browser.signIn("root", password: Fixtures.adminPassword)
            let admin = try await browser.get("/admin")
            let row = try #require(admin.body.firstMatch(of: /<tr><td><a href="\/admin\/forms\/household">.*?<\/tr>/))
            let link = try #require(
                row.output.firstMatch(
                    of: /<a class="fw-tag fw-tag--partly" href="([^"]+)">Partly imported: 1 warning<\/a>/))
            let report = try await browser.get(String(link.output.1))
            #expect(report.body.contains("textarea"), "\(report.status) \(report.body.suffix(3000))")
            let visit = try #require(admin.body.firstMatch(of: /<tr><td><a href="\/admin\/forms\/visit">.*?<\/tr>/))
            #expect(!visit.output.contains("Partly imported"))
        }
    }

    @Test("a list filtered by another answer offers only its options for the answers, with and without JavaScript")
    func filteredOptions() async throws {
        let trip = Self.trip(
            cities: """
                <instance id="cities"><root>
                  <item><name>ams</name><label>Amsterdam</label><country>nl</country></item>
                  <item><name>rot</name><label>Rotterdam</label><country>nl</country></item>
                  <item><name>nyc</name><label>New York</label><country>us</country></item>
                  <item><name>la</name><label>Los Angeles</label><country>us</country></item>
                  <item><name>sfo</name><label>San Francisco</label><country>us</country></item>
                </root></instance>
                """)
        try await Self.withForms(["trip.xml": trip]) { browser in
            let fresh = try await browser.get("/forms/trip/new")
            #expect(fresh.body.contains(#"<option value="ams" hidden disabled>"#), "no country: no city offered")
            let csrf = try #require(fresh.csrf)
            let dutch = try await browser.post("/forms/trip", [("_csrf", csrf), ("country", "nl"), ("_update", "1")])
            #expect(dutch.body.contains(#"<option value="ams">Amsterdam</option>"#))
            #expect(dutch.body.contains(#"<option value="rot">Rotterdam</option>"#))
            #expect(dutch.body.contains(#"<option value="nyc" hidden disabled>"#))
            let answer = try await browser.post("/forms/trip/rules", [("_csrf", csrf), ("country", "us")])
            #expect(answer.body.contains(#""options":{"city":["nyc","la","sfo"]}"#), "\(answer.body)")
            let refused = try await browser.post("/forms/trip", [("_csrf", csrf), ("country", "nl"), ("city", "nyc")])
            #expect(
                refused.status == .unprocessableContent && refused.body.contains("Choose City from the options offered")
            )
            let stored = try await browser.post("/forms/trip", [("_csrf", csrf), ("country", "nl"), ("city", "rot")])
            #expect(stored.status == .seeOther)
        }
    }

    @Test(
        "a long list filtered by another answer searches only its options for the answers: the list screen's API and the Search button"
    )
    func longFilteredOptions() async throws {
        // 300 cities, a long list (searched on the server): 100 Dutch, 200 American.
        let items = (0..<300).map { index in
            let country = index % 3 == 0 ? "nl" : "us"
            return "<item><name>c\(index)</name><label>City \(index)</label><country>\(country)</country></item>"
        }
        let trip = Self.trip(cities: #"<instance id="cities"><root>"# + items.joined() + "</root></instance>")
        try await Self.withForms(["trip.xml": trip]) { browser in
            // Its list screen sends the other answers with its search (the itemset may read any).
            let view = try await browser.get("/forms/trip/new")
            #expect(view.body.contains(#"data-name="city""#) && view.body.contains(#"data-filtered-by="*""#))
            func options(_ query: String) async throws -> (total: Int, values: [String]) {
                let page = try await browser.get("/api/forms/trip/fields/city/options?\(query)")
                #expect(page.status == .ok, "\(page.body)")
                let json = try #require(try JSONSerialization.jsonObject(with: Data(page.body.utf8)) as? [String: Any])
                let values = (json["options"] as? [[String: Any]] ?? []).compactMap { $0["value"] as? String }
                return (json["total"] as? Int ?? -1, values)
            }
            let dutch = try await options("q=&page=1&country=nl")
            #expect(dutch.total == 100 && dutch.values.count == 50)
            #expect(dutch.values.allSatisfy { Int($0.dropFirst())! % 3 == 0 }, "\(dutch.values)")
            let secondPage = try await options("q=&page=2&country=nl")
            #expect(secondPage.values.count == 50 && Set(secondPage.values).isDisjoint(with: dutch.values))
            #expect(try await options("q=city%20128&country=us").values == ["c128"])
            #expect(try await options("q=city%20129&country=us").total == 0, "City 129 is Dutch")
            #expect(try await options("q=").total == 0, "no country: no city offered, as on the page")

            // Without JavaScript: the Search button's matches are the country's only.
            let csrf = try #require(try await browser.get("/forms/trip/new").csrf)
            let page = try await browser.post(
                "/forms/trip", [("_csrf", csrf), ("country", "nl"), ("city._q", "City 1"), ("_search", "city")])
            #expect(page.status == .ok)
            #expect(page.body.contains(#"value="c12""#) && page.body.contains(#"value="c102""#), "\(page.body)")
            #expect(!page.body.contains(#"value="c13""#) && !page.body.contains(#"value="c1""#))
        }
    }

    @Test("labels and hints show their outputs' values for the answers, with and without JavaScript")
    func outputs() async throws {
        let greeting = """
            <h:html xmlns="http://www.w3.org/2002/xforms" xmlns:h="http://www.w3.org/1999/xhtml">
              <h:head><h:title>Greeting</h:title>
                <model>
                  <instance><data id="greeting"><name/><age/><months/></data></instance>
                  <bind nodeset="/data/name" type="string"/>
                  <bind nodeset="/data/age" type="int"/>
                  <bind nodeset="/data/months" type="int" calculate="/data/age * 12"/>
                </model>
              </h:head>
              <h:body>
                <input ref="/data/name"><label>Name</label></input>
                <input ref="/data/age"><label>How old are you, <output value="/data/name"/>?</label>
                  <hint>That is <output value="/data/months"/> months &amp; more.</hint></input>
              </h:body>
            </h:html>
            """
        try await Self.withForms(["greeting.xml": greeting]) { browser in
            let fresh = try await browser.get("/forms/greeting/new")
            #expect(fresh.body.contains(#"How old are you, <span data-output="age.0"></span>?"#), "\(fresh.body)")
            let csrf = try #require(fresh.csrf)
            let updated = try await browser.post(
                "/forms/greeting", [("_csrf", csrf), ("name", "<Ada>"), ("age", "3"), ("_update", "1")])
            #expect(updated.body.contains(#"How old are you, <span data-output="age.0">&lt;Ada&gt;</span>?"#))
            #expect(updated.body.contains(#"That is <span data-output="age.1">36</span> months &amp; more."#))
            let answer = try await browser.post(
                "/forms/greeting/rules", [("_csrf", csrf), ("name", "Bo"), ("age", "2")])
            #expect(answer.body.contains(#""outputs":{"age":["Bo","24"]}"#), "\(answer.body)")
        }
    }

    @Test("an external instance waits for the admin's file; uploaded, the form's filter reads its columns")
    func externalInstance() async throws {
        try await Self.withForms(["trip.xml": Self.externalTrip], users: [("root", Fixtures.adminPassword, true)]) {
            browser in
            try await browser.signIn("root", password: Fixtures.adminPassword)
            let admin = try await browser.get("/admin/forms/trip")
            #expect(admin.body.contains("file for instance “cities”"), "\(admin.body)")
            let cities = "name,label,country\nams,Amsterdam,nl\nrot,Rotterdam,nl\nnyc,New York,us\n"
            let uploaded = try await browser.postMultipart(
                "/admin/forms/trip/lists/city",
                [
                    .field("_csrf", admin.csrf ?? ""),
                    .file("csv", filename: "cities.csv", type: "text/csv", bytes: Array(cities.utf8)),
                ])
            #expect(uploaded.status == .seeOther)
            let view = try await browser.get("/forms/trip/new")
            let csrf = try #require(view.csrf)
            let dutch = try await browser.post("/forms/trip", [("_csrf", csrf), ("country", "nl"), ("_update", "1")])
            #expect(dutch.body.contains(#"<option value="ams">Amsterdam</option>"#))
            #expect(dutch.body.contains(#"<option value="nyc" hidden disabled>"#))
            let refused = try await browser.post("/forms/trip", [("_csrf", csrf), ("country", "nl"), ("city", "nyc")])
            #expect(refused.status == .unprocessableContent)
            let stored = try await browser.post("/forms/trip", [("_csrf", csrf), ("country", "us"), ("city", "nyc")])
            #expect(stored.status == .seeOther)
            let bad = try await browser.postMultipart(
                "/admin/forms/trip/lists/city",
                [
                    .field("_csrf", admin.csrf ?? ""),
                    .file("csv", filename: "cities.csv", type: "text/csv", bytes: Array("value,label\na,A\n".utf8)),
                ])
            #expect(bad.status == .unprocessableContent && bad.body.contains("the header names no name column"))
        }
    }

    @Test("a question required depending on the answers is marked for the answers given; question labels are quoted")
    func conditionalRequired() async throws {
        let contact = """
            <h:html xmlns="http://www.w3.org/2002/xforms" xmlns:h="http://www.w3.org/1999/xhtml">
              <h:head><h:title>Contact</h:title>
                <model>
                  <instance><data id="contact"><consent/><phone/></data></instance>
                  <bind nodeset="/data/consent" type="select1" required="true()"/>
                  <bind nodeset="/data/phone" type="string" required="/data/consent = 'yes'"/>
                </model>
              </h:head>
              <h:body>
                <select1 ref="/data/consent"><label>May we call you?</label>
                  <item><label>Yes</label><value>yes</value></item><item><label>No</label><value>no</value></item>
                </select1>
                <input ref="/data/phone"><label>Phone</label></input>
              </h:body>
            </h:html>
            """
        try await Self.withForms(["contact.xml": contact]) { browser in
            let marked =
                #"for="field-phone">Phone<span data-required-now><span class="fw-label__required" aria-hidden="true"> *</span>"#
            let fresh = try await browser.get("/forms/contact/new")
            #expect(!fresh.body.contains(marked))
            #expect(fresh.body.contains("* indicates a required field"))
            let csrf = try #require(fresh.csrf)
            let updated = try await browser.post(
                "/forms/contact", [("_csrf", csrf), ("consent", "yes"), ("_update", "1")])
            #expect(updated.body.contains(marked), "\(updated.body)")
            #expect(updated.body.contains(#"formaction="/forms/contact#fw-update""#))
            let refused = try await browser.post("/forms/contact", [("_csrf", csrf), ("consent", "yes")])
            #expect(refused.body.contains("Enter Phone") && refused.body.contains(marked))
            let empty = try await browser.post("/forms/contact", [("_csrf", csrf)])
            #expect(empty.body.contains("Answer “May we call you?”"), "\(empty.body)")
            let wrong = try await browser.post("/forms/contact", [("_csrf", csrf), ("consent", "maybe")])
            #expect(wrong.body.contains("Choose an answer to “May we call you?” from the options offered"))
        }
    }

    @Test("an XForm imported with the external file it names uses it at once")
    func externalFileImported() async throws {
        let data = Fixtures.temporaryDataFolder()
        let database = try await FieldworkDatabase.open(
            Fixtures.configuration(data: data).store, logger: Fixtures.logger)
        let documents = [
            ImportDocument(name: "trip.xml", data: Array(Self.externalTrip.utf8)),
            ImportDocument(
                name: "cities.csv", data: Array("name,label,country\nams,Amsterdam,nl\nnyc,New York,us\n".utf8)),
        ]
        let run = try await FormImports(forms: database.forms).run(
            documents, importedBy: nil, access: .public, via: .commandLine, policy: .eachOnItsOwn)
        await database.shutdown()
        #expect(!run.refused && run.outcomes.count == 1)
        try await TestApp.run(forms: [], data: data) { client in
            let browser = TestBrowser(client)
            let csrf = try #require(try await browser.get("/forms/trip/new").csrf)
            let dutch = try await browser.post("/forms/trip", [("_csrf", csrf), ("country", "nl"), ("_update", "1")])
            #expect(dutch.body.contains(#"<option value="ams">Amsterdam</option>"#))
            #expect(dutch.body.contains(#"<option value="nyc" hidden disabled>"#))
        }
    }

    @Test("a month-year date asks for a month and a year date for a year; each is stored as its first day and shown so")
    func datePrecision() async throws {
        let dates = """
            <h:html xmlns="http://www.w3.org/2002/xforms" xmlns:h="http://www.w3.org/1999/xhtml">
              <h:head><h:title>Dates</h:title>
                <model>
                  <instance><data id="dates"><name/><month/><year/></data></instance>
                  <bind nodeset="/data/name" type="string"/>
                  <bind nodeset="/data/month" type="date"/>
                  <bind nodeset="/data/year" type="date"/>
                </model>
              </h:head>
              <h:body>
                <input ref="/data/name"><label>Name</label></input>
                <input ref="/data/month" appearance="month-year"><label>Month</label></input>
                <input ref="/data/year" appearance="year"><label>Year</label></input>
              </h:body>
            </h:html>
            """
        try await Self.withForms(["dates.xml": dates]) { browser in
            let fresh = try await browser.get("/forms/dates/new")
            #expect(fresh.body.contains(#"name="month" type="month""#), "\(fresh.body)")
            #expect(fresh.body.contains(#"name="year" type="number" inputmode="numeric" min="1" max="9999""#))
            let csrf = try #require(fresh.csrf)
            let bad = try await browser.post("/forms/dates", [("_csrf", csrf), ("month", "May"), ("year", "24")])
            #expect(
                bad.body.contains("Month must be a real month, like 2024-05")
                    && bad.body.contains("Year must be a year, like 2024"))
            let stored = try await browser.post(
                "/forms/dates", [("_csrf", csrf), ("name", "A"), ("month", "2024-05"), ("year", "1999")])
            #expect(stored.status == .seeOther)
            let location = try #require(stored.location)
            let detail = try await browser.get(location)
            #expect(detail.body.contains("May 2024") && detail.body.contains("1999"))
            let edit = try await browser.get(location + "/edit")
            #expect(edit.body.contains(#"name="month" type="month" value="2024-05""#), "\(edit.body)")
            #expect(edit.body.contains(#"value="1999""#))
        }
    }

    @Test("a masked answer is typed without being shown and not echoed on the detail page")
    func masked() async throws {
        let form = """
            <h:html xmlns="http://www.w3.org/2002/xforms" xmlns:h="http://www.w3.org/1999/xhtml">
              <h:head><h:title>Login</h:title>
                <model><instance><data id="pin"><name/><code/></data></instance>
                  <bind nodeset="/data/name" type="string"/><bind nodeset="/data/code" type="string"/></model>
              </h:head>
              <h:body>
                <input ref="/data/name"><label>Name</label></input>
                <input ref="/data/code" appearance="masked"><label>Code</label></input>
              </h:body>
            </h:html>
            """
        try await Self.withForms(["pin.xml": form]) { browser in
            let fresh = try await browser.get("/forms/pin/new")
            #expect(fresh.body.contains(#"name="code" type="password" autocomplete="off""#))
            let stored = try await browser.post(
                "/forms/pin", [("_csrf", fresh.csrf ?? ""), ("name", "Ada"), ("code", "s3cret")])
            let detail = try await browser.get(try #require(stored.location))
            #expect(detail.body.contains("••••••") && !detail.body.contains("s3cret"))
        }
    }
}
