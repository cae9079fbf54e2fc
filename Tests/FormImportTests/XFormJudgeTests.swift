import Foundation
import Testing

@testable import FormImport
@testable import FormModel
@testable import FormRules

/// Submissions of imported XForms judged on the server by their rules, as ODK Collect would judge
/// the same answers.
@Suite("XForm rules judged on the server")
struct XFormJudgeTests {
    /// 2024-05-15 12:00 UTC.
    static let now = Date(timeIntervalSince1970: 1_715_774_400)

    static func judge(
        _ instance: String, binds: String, body: String, secondary: String = "", _ submitted: [String: String]
    ) throws -> XFormJudge.Verdict {
        let document = XFormExpressionTests.form(instance, binds: binds + secondary, body: body)
        let result = try FormImporter.importDocuments([document])
        let rules = try #require(result.rules["rules"])
        let judge = try XFormJudge(rules: rules)
        return judge.judge(
            submitted, host: XFormHost(rules: rules, now: now, timeZone: TimeZone(identifier: "UTC")!))
    }

    static let household = (
        instance: "<consent/><head><name/><age/></head><note/>",
        binds: """
          <bind nodeset="/data/consent" type="string" required="true()"/>
          <bind nodeset="/data/head" relevant="/data/consent = 'yes'"/>
          <bind nodeset="/data/head/name" type="string" required="true()" jr:requiredMsg="Say who heads the household"/>
          <bind nodeset="/data/head/age" type="int" constraint=". &gt;= 18 and . &lt; 120" jr:constraintMsg="The head is 18 or older"/>
          <bind nodeset="/data/note" type="string" calculate="concat(/data/head/name, ' (', /data/head/age, ')')"/>
        """,
        body: """
        <input ref="/data/consent"><label>Consent</label></input>
        <group ref="/data/head"><label>Head</label>
          <input ref="/data/head/name"><label>Name</label></input>
          <input ref="/data/head/age"><label>Age</label></input>
        </group>
        """
    )

    @Test("a relevant group's questions are judged: required with the form's message, the constraint with its own")
    func relevantGroup() throws {
        let h = Self.household
        let verdict = try Self.judge(h.instance, binds: h.binds, body: h.body, ["consent": "yes", "age": "16"])
        #expect(
            verdict.issues == [
                .init(field: "name", code: "required", message: "Say who heads the household"),
                .init(field: "age", code: "constraint", message: "The head is 18 or older"),
            ])
        #expect(verdict.relevant == ["consent", "name", "age"])
    }

    @Test("a group that is not relevant is neither judged nor stored; its answers are dropped")
    func notRelevant() throws {
        let h = Self.household
        let verdict = try Self.judge(
            h.instance, binds: h.binds, body: h.body, ["consent": "no", "name": "Ann", "age": "7"])
        #expect(verdict.issues.isEmpty)
        #expect(verdict.values == ["consent": "no"])
        #expect(verdict.relevant == ["consent"])
        #expect(!verdict.instanceXML.contains("<head") && !verdict.instanceXML.contains("Ann"))
        #expect(verdict.instanceXML.contains("<consent>no</consent>"))
    }

    @Test("a calculate is the server's own: a submitted value is ignored, the computed one stored")
    func calculated() throws {
        let h = Self.household
        let verdict = try Self.judge(
            h.instance, binds: h.binds, body: h.body,
            ["consent": "yes", "name": "Ann", "age": "40", "note": "forged"])
        #expect(verdict.issues.isEmpty)
        #expect(verdict.instanceXML.contains("<note>Ann (40)</note>"))
    }

    @Test("a date is compared as a date: a birth date after today breaks . <= today(); a required empty one is missing")
    func dates() throws {
        let binds = """
                  <bind nodeset="/data/dob" type="date" required="true()" constraint=". &lt;= today()"/>
                  <bind nodeset="/data/days" type="int" calculate="int(today() - /data/dob)"/>
            """
        let body = #"<input ref="/data/dob"><label>Date of birth</label></input>"#
        let future = try Self.judge("<dob/><days/>", binds: binds, body: body, ["dob": "2030-01-01"])
        #expect(future.issues == [.init(field: "dob", code: "constraint", message: "Date of birth is not valid")])
        let past = try Self.judge("<dob/><days/>", binds: binds, body: body, ["dob": "2024-05-01"])
        #expect(past.issues.isEmpty)
        #expect(past.instanceXML.contains("<days>14</days>"))
        let missing = try Self.judge("<dob/><days/>", binds: binds, body: body, [:])
        #expect(missing.issues == [.init(field: "dob", code: "required", message: "Enter Date of birth")])
    }

    @Test("a calculate chain is computed in dependency order, whatever the document order")
    func chain() throws {
        let binds = """
                  <bind nodeset="/data/total" type="int" calculate="/data/sub + 1"/>
                  <bind nodeset="/data/sub" type="int" calculate="/data/n * 2"/>
                  <bind nodeset="/data/n" type="int"/>
            """
        let verdict = try Self.judge(
            "<total/><sub/><n/>", binds: binds, body: #"<input ref="/data/n"><label>N</label></input>"#, ["n": "5"])
        #expect(verdict.instanceXML.contains("<total>11</total>") && verdict.instanceXML.contains("<sub>10</sub>"))
    }

    @Test("a filtered itemset's value must be one the filter offers for this submission")
    func itemsetFilter() throws {
        let secondary = """
                  <instance id="cities"><root>
                    <item><name>nbo</name><country>ke</country></item>
                    <item><name>kla</name><country>ug</country></item>
                  </root></instance>
            """
        let body = """
            <input ref="/data/country"><label>Country</label></input>
            <select1 ref="/data/city"><label>City</label>
              <itemset nodeset="instance('cities')/root/item[country = current()/../country]">
                <value ref="name"/><label ref="name"/></itemset></select1>
            """
        let ok = try Self.judge(
            "<country/><city/>", binds: "", body: body, secondary: secondary, ["country": "ke", "city": "nbo"])
        #expect(ok.issues.isEmpty)
        let wrong = try Self.judge(
            "<country/><city/>", binds: "", body: body, secondary: secondary, ["country": "ke", "city": "kla"])
        #expect(wrong.issues.map(\.code) == ["choice"])
        #expect(wrong.issues.first?.field == "city")
    }

    @Test("an empty secondary instance offers no options: a choice from it is refused, the form still judged")
    func emptyInstance() throws {
        let body = """
            <select1 ref="/data/city"><label>City</label>
              <itemset nodeset="instance('cities')/root/item"><value ref="name"/><label ref="name"/></itemset></select1>
            """
        let verdict = try Self.judge(
            "<city/>", binds: "", body: body, secondary: #"      <instance id="cities"/>"#, ["city": "nbo"])
        #expect(verdict.issues.map(\.code) == ["choice"])
        #expect(verdict.errors.isEmpty)
    }

    @Test("a rule with a function the server does not evaluate is not enforced")
    func notEnforced() throws {
        let verdict = try Self.judge(
            "<code/>", binds: #"      <bind nodeset="/data/code" constraint="pulldata('x', 'y', 'z', .) = 1"/>"#,
            body: #"<input ref="/data/code"><label>Code</label></input>"#, ["code": "A"])
        #expect(verdict.issues.isEmpty)
        #expect(verdict.values == ["code": "A"])
    }

    /// A judge and host of a form, for the tests that need more than one verdict.
    static func judged(_ instance: String, binds: String, body: String) throws -> (XFormJudge, XFormHost) {
        let document = XFormExpressionTests.form(instance, binds: binds, body: body)
        let rules = try #require(try FormImporter.importDocuments([document]).rules["rules"])
        return (try XFormJudge(rules: rules), XFormHost(rules: rules, now: now, timeZone: TimeZone(identifier: "UTC")!))
    }

    @Test("first-load setvalues fill a new instance before the answers; a field's answer, empty too, wins")
    func firstLoad() throws {
        let (judge, host) = try Self.judged(
            "<code/><token/><visit/>",
            binds: """
                  <bind nodeset="/data/code" type="string"/>
                  <bind nodeset="/data/token" type="string"/>
                  <bind nodeset="/data/visit" type="date"/>
                  <setvalue event="odk-instance-first-load" ref="/data/token" value="concat('T', 1 + 1)"/>
                  <setvalue event="odk-instance-first-load" ref="/data/visit" value="today()"/>
                  <setvalue event="odk-instance-first-load" ref="/data/code">A1</setvalue>
                """,
            body: """
                <input ref="/data/code"><label>Code</label></input>
                <input ref="/data/visit"><label>Visit</label></input>
                """)
        #expect(judge.firstLoadValues(host: host) == ["code": "A1", "visit": "2024-05-15"])
        let kept = judge.judge(["code": "B2"], host: host)
        #expect(kept.instanceXML.contains("<token>T2</token>") && kept.values["code"] == "B2")
        #expect(kept.values["visit"] == "2024-05-15", "not answered: the first load's value stands")
        let cleared = judge.judge(["code": "", "visit": ""], host: host)
        #expect(cleared.values["code"] == nil && cleared.values["visit"] == nil)
    }

    @Test("preloads: uid is the instance id, start and end the server's clock, the account's name; an edit deprecates")
    func preloadsAndEdits() throws {
        let (judge, host) = try Self.judged(
            "<name/><start/><end/><today/><user/><device/><token/><meta><instanceID/></meta>",
            binds: """
                  <bind nodeset="/data/name" type="string"/>
                  <bind nodeset="/data/start" type="dateTime" jr:preload="timestamp" jr:preloadParams="start"/>
                  <bind nodeset="/data/end" type="dateTime" jr:preload="timestamp" jr:preloadParams="end"/>
                  <bind nodeset="/data/today" type="date" jr:preload="date" jr:preloadParams="today"/>
                  <bind nodeset="/data/user" type="string" jr:preload="property" jr:preloadParams="username"/>
                  <bind nodeset="/data/device" type="string" jr:preload="property" jr:preloadParams="deviceid"/>
                  <bind nodeset="/data/meta/instanceID" type="string" readonly="true()" jr:preload="uid"/>
                  <setvalue event="odk-instance-first-load" ref="/data/token" value="concat('first-', /data/name)"/>
                """,
            body: #"<input ref="/data/name"><label>Name</label></input>"#)
        let started = Date(timeIntervalSince1970: 1_715_770_800)  // 11:00 UTC
        let first = judge.judge(
            ["name": "Ada"], host: host, meta: XFormMeta(started: started, username: "ada", instanceID: "uuid:one"))
        let xml = first.instanceXML
        #expect(first.instanceID == "uuid:one" && xml.contains("<instanceID>uuid:one</instanceID>"))
        #expect(
            xml.contains("<start>2024-05-15T11:00:00.000Z</start>")
                && xml.contains("<end>2024-05-15T12:00:00.000Z</end>"))
        #expect(xml.contains("<today>2024-05-15</today>") && xml.contains("<user>ada</user>"))
        #expect(xml.contains("<device/>") && xml.contains("<token>first-</token>"))
        #expect(!xml.contains("deprecatedID"))

        // An hour later, another account edits: start, today, the user and the first load's value
        // stay; end is the edit's; the new id deprecates the old one.
        let later = XFormHost(
            rules: try #require(
                try FormImporter.importDocuments([
                    XFormExpressionTests.form("<name/>", binds: "", body: nil)
                ]).rules["rules"]), now: Self.now.addingTimeInterval(3600), timeZone: TimeZone(identifier: "UTC")!)
        let edit = judge.judge(
            ["name": "Ada Lovelace"], host: later,
            meta: XFormMeta(username: "bo", previous: xml, instanceID: "uuid:two"))
        let edited = edit.instanceXML
        #expect(edit.instanceID == "uuid:two" && edited.contains("<deprecatedID>uuid:one</deprecatedID>"))
        #expect(
            edited.contains("<start>2024-05-15T11:00:00.000Z</start>")
                && edited.contains("<end>2024-05-15T13:00:00.000Z</end>"))
        #expect(edited.contains("<user>ada</user>") && edited.contains("<token>first-</token>"))
        #expect(edited.contains("<name>Ada Lovelace</name>"))
    }

    @Test("an expression over the operation limit on the form's defaults is refused at import, naming the bind")
    func overLimit() throws {
        let items = (0..<500).map { "<item><name>n\($0)</name></item>" }.joined()
        let document = XFormExpressionTests.form(
            "<code/>",
            binds: """
                  <bind nodeset="/data/code" type="string"
                        constraint="count(instance('big')/root/item[name = instance('big')/root/item/name]) &gt; 0"/>
                  <instance id="big"><root>\(items)</root></instance>
                """,
            body: #"<input ref="/data/code"><label>Code</label></input>"#)
        #expect {
            try FormImporter.importDocuments([document])
        } throws: { error in
            let failure = error as? ImportFailure
            return failure?.errors.map(\.code) == [.expressionOverLimit]
                && failure?.errors.first?.message.hasPrefix("The constraint of /data/code") == true
        }
    }

    @Test("a question read-only for the answers keeps its default: a submitted value is ignored, not an error")
    func readonly() throws {
        let binds = """
              <bind nodeset="/data/locked" type="string"/>
              <bind nodeset="/data/price" type="int" readonly="/data/locked = 'yes'"/>
            """
        let body = """
            <input ref="/data/locked"><label>Locked</label></input>
            <input ref="/data/price"><label>Price</label></input>
            """
        let locked = try Self.judge(
            "<locked/><price>10</price>", binds: binds, body: body, ["locked": "yes", "price": "99"])
        #expect(locked.issues.isEmpty && locked.values["price"] == "10")
        let open = try Self.judge(
            "<locked/><price>10</price>", binds: binds, body: body, ["locked": "no", "price": "99"])
        #expect(open.issues.isEmpty && open.values["price"] == "99")
    }
}
