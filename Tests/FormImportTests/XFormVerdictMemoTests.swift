import Foundation
import Testing

@testable import FormImport
@testable import FormModel
@testable import FormRules
@testable import FormXML

/// A form's verdict for answers it has judged before is kept when its rules read nothing but
/// the answers: every fresh create view asks for the verdict of the same starting answers.
@Suite("The verdict of answers judged before")
struct XFormVerdictMemoTests {
    static func prepared(_ instance: String, binds: String, body: String) throws -> PreparedForm {
        let document = XFormExpressionTests.form(instance, binds: binds, body: body)
        let result = try FormImporter.importDocuments([document])
        let schema = try #require(result.forms.first)
        let judge = try XFormRuleJudge(rules: try #require(result.rules["rules"]), schema: schema)
        return PreparedForm(schema: schema, version: 1, mode: .create, rules: judge)
    }

    static let body = """
        <input ref="/data/age"><label>Age</label></input>
        <input ref="/data/school"><label>School</label></input>
        """

    @Test("a call of a varying function is found outside string literals, also in a longer name or behind jr:")
    func varyingCalls() {
        #expect(ODKFunctions.callsVarying("today()"))
        #expect(ODKFunctions.callsVarying("/data/age > 3 and decimal-date-time(now ()) > 0"))
        #expect(ODKFunctions.callsVarying("5-today()") && ODKFunctions.callsVarying("today\n ()"))
        #expect(ODKFunctions.callsVarying("concat(uuid(), 'x')") && ODKFunctions.callsVarying("random() < 0.5"))
        #expect(ODKFunctions.callsVarying("count(randomize(instance('c')/root/item))"))
        #expect(!ODKFunctions.callsVarying("/data/age >= 5 and /data/today != 'now()'"))
        #expect(!ODKFunctions.callsVarying(#"concat("today()", /data/now, node())"#))
        #expect(!ODKFunctions.callsVarying("format-date(/data/born, '%Y')"))
        // A literal right after a name, without a space: still a literal, and the call after it
        // still found.
        #expect(ODKFunctions.callsVarying("/data/a or' ' = /data/b or today() > '2020'"))
        #expect(!ODKFunctions.callsVarying("/data/a or'today()' = /data/b"))
    }

    @Test("rules of the answers alone: the second ask of the same answers gets the verdict found, others are judged")
    func answersAlone() throws {
        let form = try Self.prepared(
            "<age/><school/>", binds: #"<bind nodeset="/data/school" relevant="/data/age &gt;= 5"/>"#, body: Self.body)
        #expect(form.rules?.judgesAnswersAlone == true)
        let session = RuleSession(now: XFormJudgeTests.now, timeZone: TimeZone(identifier: "UTC")!)
        #expect(form.knownVerdict(for: ["age": ["7"]]) == nil)
        _ = form.rulesVerdict(for: ["age": ["7"]], session: session)
        #expect(form.knownVerdict(for: ["age": ["7"]]) == nil, "answers being typed are not kept")
        let first = try #require(form.rulesVerdict(for: ["age": ["7"]], session: session, keep: true))
        #expect(first.relevant.contains("school"))
        let known = try #require(form.knownVerdict(for: ["age": ["7"]]))
        #expect(known.relevant == first.relevant && known.required == first.required)
        #expect(form.knownVerdict(for: ["age": ["3"]]) == nil)
        let other = try #require(form.rulesVerdict(for: ["age": ["3"]], session: session, keep: true))
        #expect(!other.relevant.contains("school"))
        #expect(form.knownVerdict(for: ["age": ["7"]]) == nil, "only the last starting answers are kept")
    }

    @Test("rules that read the clock or preload a value are judged every time")
    func clockAndPreloads() throws {
        let clock = try Self.prepared(
            "<age/><school/>",
            binds: #"<bind nodeset="/data/school" relevant="/data/age &gt;= 5 and today() &gt; '2020-01-01'"/>"#,
            body: Self.body)
        #expect(clock.rules?.judgesAnswersAlone == false)
        let session = RuleSession(now: XFormJudgeTests.now, timeZone: TimeZone(identifier: "UTC")!)
        _ = clock.rulesVerdict(for: ["age": ["7"]], session: session, keep: true)
        #expect(clock.knownVerdict(for: ["age": ["7"]]) == nil)

        let preload = try Self.prepared(
            "<age/><school/><who/>",
            binds: """
                <bind nodeset="/data/school" relevant="/data/age &gt;= 5"/>
                <bind nodeset="/data/who" type="string" jr:preload="property" jr:preloadParams="username"/>
                """,
            body: Self.body + #"<input ref="/data/who"><label>Who</label></input>"#)
        #expect(preload.rules?.judgesAnswersAlone == false, "a question shows the user's name")

        // The usual preload, a hidden new id for the record, read by no rule, changes nothing.
        let hiddenID = try Self.prepared(
            "<age/><school/><meta><instanceID/></meta>",
            binds: """
                <bind nodeset="/data/school" relevant="/data/age &gt;= 5"/>
                <bind nodeset="/data/meta/instanceID" type="string" readonly="true()" jr:preload="uid"/>
                """,
            body: Self.body)
        #expect(hiddenID.rules?.judgesAnswersAlone == true)
        let readsID = try Self.prepared(
            "<age/><school/><meta><instanceID/></meta>",
            binds: """
                <bind nodeset="/data/school" relevant="string-length(/data/meta/instanceID) &gt; 0"/>
                <bind nodeset="/data/meta/instanceID" type="string" readonly="true()" jr:preload="uid"/>
                """,
            body: Self.body)
        #expect(readsID.rules?.judgesAnswersAlone == false)
        // The same id read without its name: every node of its group (`hiddenID` above is the same
        // form with a rule that reads none).
        let readsGroup = try Self.prepared(
            "<age/><school/><meta><instanceID/></meta>",
            binds: """
                <bind nodeset="/data/school" relevant="string-length(concat(/data/meta/*)) &gt; 0"/>
                <bind nodeset="/data/meta/instanceID" type="string" readonly="true()" jr:preload="uid"/>
                """,
            body: Self.body)
        #expect(readsGroup.rules?.judgesAnswersAlone == false)
    }
}
