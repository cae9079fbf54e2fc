import FormModel
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import TestSupport
import Testing

@testable import FormWeb

/// An XForm's repeats as item lists through the pages (without JavaScript) and the JSON API:
/// each item judged by the rules with itself as context, the count `jr:count` gives shown, the
/// instance XML stored with one node per item.
@Suite("XForm repeats through the pages and the API")
struct XFormRepeatWebTests {
    static let roster = """
        <h:html xmlns="http://www.w3.org/2002/xforms" xmlns:h="http://www.w3.org/1999/xhtml"
                xmlns:jr="http://openrosa.org/javarosa">
          <h:head><h:title>Roster</h:title>
            <model>
              <instance><data id="roster">
                <village/><visits/>
                <members jr:template=""><mname/><age/><pregnant/><number/><home/></members>
                <members><mname/><age/><pregnant/><number/><home/></members>
                <visit jr:template=""><on/></visit>
                <total/>
                <meta><instanceID/></meta>
              </data></instance>
              <bind nodeset="/data/village" type="string" required="true()"/>
              <bind nodeset="/data/visits" type="int"/>
              <bind nodeset="/data/members/mname" type="string" required="true()" jr:requiredMsg="Name each member"/>
              <bind nodeset="/data/members/age" type="int" constraint=". &lt; 120"/>
              <bind nodeset="/data/members/pregnant" type="string" relevant="/data/members/age &gt;= 12"/>
              <bind nodeset="/data/members/number" type="int" calculate="position(..)"/>
              <bind nodeset="/data/members/home" type="geopoint"/>
              <bind nodeset="/data/visit/on" type="date" required="true()"/>
              <bind nodeset="/data/total" type="int" calculate="sum(/data/members/age)"/>
              <bind nodeset="/data/meta/instanceID" type="string" readonly="true()" jr:preload="uid"/>
            </model>
          </h:head>
          <h:body>
            <input ref="/data/village"><label>Village</label></input>
            <input ref="/data/visits"><label>Visits</label></input>
            <group ref="/data/members"><label>Household members</label>
              <repeat nodeset="/data/members">
                <group ref="/data/members"><label>Member</label>
                  <input ref="/data/members/mname"><label>Name</label><hint>Person <output value="position(..)"/> of <output value="count(/data/members)"/></hint></input>
                  <input ref="/data/members/age"><label>Age</label></input>
                  <input ref="/data/members/number"><label>Number</label></input>
                  <input ref="/data/members/home"><label>Home</label></input>
                  <select1 ref="/data/members/pregnant"><label>Pregnant?</label>
                    <item><label>Yes</label><value>yes</value></item>
                    <item><label>No</label><value>no</value></item>
                  </select1>
                </group>
              </repeat>
            </group>
            <group ref="/data/visit"><label>Visits made</label>
              <repeat nodeset="/data/visit" jr:count="/data/visits">
                <input ref="/data/visit/on"><label>Visited on</label></input>
              </repeat>
            </group>
          </h:body>
        </h:html>
        """

    /// A server over a new data folder holding the imported `sources`, the admin token set; the
    /// folder is kept for the stored instances to be read once the server is done (and removed by
    /// the caller).
    static func serving(
        _ sources: [String: String], _ test: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws -> URL {
        let data = Fixtures.temporaryDataFolder()
        try await XFormSubmissionTests.importing(sources, into: data)
        try await TestApp.run(forms: [], data: data, keepData: true, adminToken: XFormSubmissionTests.token, test)
        return data
    }

    @Test("the page: items start as the instance holds them, are judged per item, and are stored in the instance")
    func page() async throws {
        let box = IDBox()
        let data = try await Self.serving(["roster.xml": Self.roster]) { client in
            let browser = TestBrowser(client)
            let fresh = try await browser.get("/forms/roster/new")
            #expect(fresh.status == .ok)
            #expect(fresh.body.contains("Household members (1)"))
            #expect(fresh.body.contains("<legend class=\"fw-item__legend\">Member 1</legend>"))
            #expect(fresh.body.contains(#"name="members[0].mname""#))
            // The count jr:count gives: none yet; and neither Add nor Remove for it.
            #expect(fresh.body.contains("Visits made (0)"))
            #expect(!fresh.body.contains(#"value="visit""#))
            let token = try #require(fresh.csrf)
            var sent = [("_csrf", token), ("village", "Kibera"), ("visits", "2")]
            if let once = fresh.body.firstMatch(of: /name="_once" value="([^"]*)"/) {
                sent.append(("_once", String(once.1)))
            }
            // Update asks the rules: two visits shown, the pregnancy question for the adult only.
            let updated = try await browser.post(
                "/forms/roster",
                sent + [
                    ("members[0].mname", "Ada"), ("members[0].age", "34"), ("members[1].mname", "Bo"),
                    ("members[1].age", "3"), ("_update", "1"),
                ])
            #expect(updated.status == .ok)
            #expect(updated.body.contains("Visits made (2)"))
            #expect(updated.body.contains(#"name="visit[1].on""#))
            // The cell around an input: the last one opened before it.
            func cell(_ name: String) throws -> Substring {
                let input = try #require(updated.body.range(of: #"name="\#(name)""#))
                let start = try #require(
                    updated.body[..<input.lowerBound].range(of: "<div class=\"fw-cell", options: .backwards))
                return updated.body[start.lowerBound...].prefix { $0 != ">" }
            }
            #expect(try cell("members[1].pregnant").contains(" hidden"))
            // An item's hint shows its outputs, evaluated for that item.
            #expect(
                updated.body.contains(
                    #"Person <span data-output="members[1].mname.0">2</span> of <span data-output="members[1].mname.1">2</span>"#
                ))
            // An item's computed value, shown in its read-only cell.
            #expect(updated.body.contains(#"name="members[1].number""#))
            #expect(updated.body.firstMatch(of: /name="members\[1\]\.number"[^>]*value="2"/) != nil)
            #expect(try !cell("members[0].pregnant").contains(" hidden"))
            // The script's question gets the same answer, items by input name.
            let asked = try await browser.post(
                "/forms/roster/rules",
                [("_csrf", token), ("members[0].age", "34"), ("members[1].age", "3"), ("visits", "1")])
            #expect(asked.status == .ok)
            #expect(asked.body.contains(#""members[1].pregnant""#) && !asked.body.contains(#""members[0].pregnant""#))
            let refused = try await browser.post(
                "/forms/roster",
                sent + [
                    ("members[0].mname", "Ada"), ("members[0].age", "34"), ("members[1].mname", ""),
                    ("members[1].age", "130"), ("visit[0].on", "2026-11-01"),
                ])
            #expect(refused.status == .unprocessableContent)
            #expect(
                refused.body.contains(##"<a href="#field-members[1].mname">Member 2: Name each member</a>"##),
                "\(refused.body)")
            #expect(refused.body.contains(##"href="#field-visit[1].on""##))
            let created = try await browser.post(
                "/forms/roster",
                sent + [
                    ("members[0].mname", "Ada"), ("members[0].age", "34"), ("members[0].pregnant", "no"),
                    ("members[1].mname", "Bo"), ("members[1].age", "3"), ("members[1].pregnant", "yes"),
                    ("visit[0].on", "2026-11-01"), ("visit[1].on", "2026-11-08"),
                ])
            #expect(created.status == .seeOther, "\(created.body)")
            box.set(try #require(created.location), "")
        }
        defer { try? FileManager.default.removeItem(at: data) }
        let location = box.get().0
        let id = String(location.split(separator: "/").last ?? "")
        let instance = try #require(try await XFormSubmissionTests.instance(of: id, in: data))
        #expect(
            instance.xml.contains(
                "<members><mname>Ada</mname><age>34</age><pregnant>no</pregnant><number>1</number><home/></members><members><mname>Bo</mname><age>3</age><number>2</number><home/></members>"
            ), "\(instance.xml)")
        #expect(instance.xml.contains("<visit><on>2026-11-01</on></visit><visit><on>2026-11-08</on></visit>"))
        #expect(instance.xml.contains("<total>37</total>") && !instance.xml.contains("template"))
    }

    @Test("the API: lists of objects in, judged per item; the answer lists the items with their ids")
    func api() async throws {
        let data = try await Self.serving(["roster.xml": Self.roster]) { client in
            let path = "/api/forms/roster/objects"
            let refused = try await XFormSubmissionTests.send(
                client, path, json: #"{"village":"K","members":[{"mname":"Ada","age":34},{"age":200}]}"#)
            #expect(refused.status == .unprocessableContent)
            #expect(
                refused.body.contains(#"{"code":"required","field":"members[1].mname","message":"Name each member"}"#),
                "\(refused.body)")
            #expect(refused.body.contains(#""code":"constraint","field":"members[1].age""#))
            // An item's geopoint is judged as ODK writes one.
            let nowhere = try await XFormSubmissionTests.send(
                client, path, json: #"{"village":"K","members":[{"mname":"Ada","home":"somewhere"}]}"#)
            #expect(nowhere.status == .unprocessableContent)
            #expect(nowhere.body.contains(#""code":"type","field":"members[0].home""#), "\(nowhere.body)")
            let visits = try await XFormSubmissionTests.send(
                client, path, json: #"{"village":"K","visits":1,"members":[]}"#)
            #expect(
                visits.status == .unprocessableContent && visits.body.contains(#""field":"visit[0].on""#),
                "\(visits.body)")
            let created = try await XFormSubmissionTests.send(
                client, path,
                json:
                    #"{"village":"K","visits":1,"visit":[{"on":"2026-11-01"}],"members":[{"mname":"Ada","age":34,"pregnant":"no"},{"mname":"Bo","age":3,"pregnant":"yes"}]}"#
            )
            #expect(created.status == .created, "\(created.body)")
            let json = try JSONSerialization.jsonObject(with: Data(created.body.utf8)) as? [String: Any]
            let values = json?["values"] as? [String: Any]
            let members = values?["members"] as? [[String: Any]] ?? []
            #expect(members.map { $0["mname"] as? String } == ["Ada", "Bo"])
            // Bo is too young for the question: it does not apply, and is not stored.
            #expect(members.last?["pregnant"] == nil && members.first?["pregnant"] as? String == "no")
            #expect(members.allSatisfy { ($0["_id"] as? String).flatMap(UUID.init(uuidString:)) != nil })
            #expect((values?["visit"] as? [[String: Any]])?.count == 1)
        }
        try? FileManager.default.removeItem(at: data)
    }
}

/// Times and dateTimes as ODK tools send them: seconds, milliseconds and an offset, kept.
@Suite("XForm times with offsets")
struct XFormOffsetTests {
    static let visit = """
        <h:html xmlns="http://www.w3.org/2002/xforms" xmlns:h="http://www.w3.org/1999/xhtml">
          <h:head><h:title>Visit</h:title>
            <model>
              <instance><data id="visit"><place/><seen>2024-05-15T10:30:00.000+03:00</seen><at/></data></instance>
              <bind nodeset="/data/place" type="string"/>
              <bind nodeset="/data/seen" type="dateTime"/>
              <bind nodeset="/data/at" type="time"/>
            </model>
          </h:head>
          <h:body>
            <input ref="/data/place"><label>Place</label></input>
            <input ref="/data/seen"><label>Seen</label></input>
            <input ref="/data/at"><label>At</label></input>
          </h:body>
        </h:html>
        """

    @Test("the JSON API takes them and the instance keeps them; the default is kept; the page shows the clock")
    func offsets() async throws {
        let box = IDBox()
        let data = try await XFormRepeatWebTests.serving(["visit.xml": Self.visit]) { client in
            let created = try await XFormSubmissionTests.send(
                client, "/api/forms/visit/objects",
                json: #"{"place":"Clinic","seen":"2024-05-16T08:15:30.250-04:00","at":"22:02:10.562+07:00"}"#)
            #expect(created.status == .created, "\(created.body)")
            #expect(created.body.contains(#""seen":"2024-05-16T08:15:30.250-04:00""#), "\(created.body)")
            #expect(created.body.contains(#""at":"22:02:10.562+07:00""#))
            box.set(try #require(created.headers[.location]), "")
            let fresh = try await TestBrowser(client).get("/forms/visit/new")
            #expect(fresh.body.contains(#"type="datetime-local""#) && fresh.body.contains(#"value="2024-05-15T10:30""#))
        }
        defer { try? FileManager.default.removeItem(at: data) }
        let id = String(box.get().0.split(separator: "/").last ?? "")
        let instance = try #require(try await XFormSubmissionTests.instance(of: id, in: data))
        #expect(instance.xml.contains("<seen>2024-05-16T08:15:30.250-04:00</seen>"), "\(instance.xml)")
        #expect(instance.xml.contains("<at>22:02:10.562+07:00</at>"))
    }
}

/// An OData composition's item list through the JSON API and the page, as a native list's.
@Suite("OData compositions through the API and the page")
struct ODataCompositionWebTests {
    @Test("a travel with its bookings: the create view shows the list, the API takes items and judges them")
    func travel() async throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FormImportTests/Fixtures/odata/composition-v4.xml")
        let source = try String(contentsOf: fixture, encoding: .utf8)
        let data = try await XFormRepeatWebTests.serving(["composition-v4.xml": source]) { client in
            let form = "com-example-travel-travel"
            let page = try await TestBrowser(client).get("/forms/\(form)/new")
            #expect(page.status == .ok)
            #expect(page.body.contains("Bookings of the trip (0)") && page.body.contains("Add booking"))
            let refused = try await XFormSubmissionTests.send(
                client, "/api/forms/\(form)/objects",
                json: #"{"Description":"Trip","_Booking":[{"FlightDate":"2026-12-01","Price":100},{"Price":"a lot"}]}"#)
            #expect(refused.status == .unprocessableContent)
            #expect(refused.body.contains(#""field":"_Booking[1].Price""#), "\(refused.body)")
            let created = try await XFormSubmissionTests.send(
                client, "/api/forms/\(form)/objects",
                json:
                    #"{"Description":"Trip","_Booking":[{"FlightDate":"2026-12-01","Price":100,"_Supplement":[{"SupplementID":"S1"}]}]}"#
            )
            #expect(created.status == .created, "\(created.body)")
            #expect(
                created.body.contains(#""SupplementID":"S1""#) && created.body.contains(#""FlightDate":"2026-12-01""#))
        }
        try? FileManager.default.removeItem(at: data)
    }
}
