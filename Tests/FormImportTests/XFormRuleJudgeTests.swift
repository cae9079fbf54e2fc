import Foundation
import Testing

@testable import FormImport
@testable import FormModel
@testable import FormRules

/// The XForm judge as the create use case calls it: typed values into ODK's lexical forms and
/// the verdict back as field issues and stored values.
@Suite("XForm rules as the use case's judge")
struct XFormRuleJudgeTests {
    static func judge(
        _ instance: String, binds: String, body: String, _ fields: [String: [String]]
    ) throws -> RuleVerdict {
        let document = XFormExpressionTests.form(instance, binds: binds, body: body)
        let result = try FormImporter.importDocuments([document])
        let schema = try #require(result.forms.first)
        let judge = try XFormRuleJudge(rules: try #require(result.rules["rules"]), schema: schema)
        let checked = FormValidator.validate(schema, Submission(fields: fields))
        let utc = TimeZone(identifier: "UTC")!
        return judge.judge(checked, session: RuleSession(now: XFormJudgeTests.now, timeZone: utc))
    }

    @Test("geo answers are checked against ODK's text format: a point, a trace of two, a closed shape of three")
    func geo() throws {
        let binds = """
              <bind nodeset="/data/spot" type="geopoint"/>
              <bind nodeset="/data/path" type="geotrace"/>
              <bind nodeset="/data/plot" type="geoshape"/>
            """
        let body = """
            <input ref="/data/spot"><label>Spot</label></input>
            <input ref="/data/path"><label>Path</label></input>
            <input ref="/data/plot"><label>Plot</label></input>
            """
        let good = try Self.judge(
            "<spot/><path/><plot/>", binds: binds, body: body,
            [
                "spot": ["47.6062 -122.3321 20 5"], "path": ["47.61 -122.33; 47.62 -122.35"],
                "plot": ["47.61 -122.33;47.62 -122.35;47.60 -122.34;47.61 -122.33"],
            ])
        #expect(good.result.issues.isEmpty)
        #expect(good.record?.contains("<spot>47.6062 -122.3321 20 5</spot>") == true)
        let bad = try Self.judge(
            "<spot/><path/><plot/>", binds: binds, body: body,
            ["spot": ["91 10"], "path": ["47.61 -122.33"], "plot": ["1 1; 2 2; 3 3"]])
        #expect(bad.result.issues.map(\.field) == ["spot", "path", "plot"])
        #expect(bad.result.issues.allSatisfy { $0.code == .type })
        #expect(
            bad.result.issues[0].message
                == "Enter spot as latitude and longitude separated by a space, like 47.6062 -122.3321")
        #expect(bad.record?.contains("<spot/>") == true, "a value that is not one is empty for the rules")
    }

    @Test(
        "a value that does not parse is `type`, one not offered `choice`; month-year dates are stored as ODK stores them"
    )
    func codesAndPrecision() throws {
        let verdict = try Self.judge(
            "<age/><colour/><month/>",
            binds: """
                  <bind nodeset="/data/age" type="int"/>
                  <bind nodeset="/data/colour" type="select1"/>
                  <bind nodeset="/data/month" type="date"/>
                """,
            body: """
                <input ref="/data/age"><label>Age</label></input>
                <select1 ref="/data/colour"><label>Colour</label>
                  <item><label>Red</label><value>red</value></item><item><label>Blue</label><value>blue</value></item>
                </select1>
                <input ref="/data/month" appearance="month-year"><label>Month</label></input>
                """,
            ["age": ["1.5"], "colour": ["green"], "month": ["2024-05-17"]])
        #expect(verdict.result.issues.map(\.code) == [.type, .choice])
        #expect(verdict.result.values["month"] == .date(LocalDate(year: 2024, month: 5, day: 1)!))
        #expect(verdict.record?.contains("<month>2024-05-01</month>") == true)
    }

    @Test("a default the person cleared stays cleared; a multiple select from an itemset takes several choices")
    func clearedDefaultAndSeveralChoices() throws {
        let binds = """
              <bind nodeset="/data/note" type="string"/>
              <bind nodeset="/data/tags"/>
              <instance id="tags"><root><item><name>a</name></item><item><name>b</name></item><item><name>c</name></item></root></instance>
            """
        let body = """
            <input ref="/data/note"><label>Note</label></input>
            <select ref="/data/tags"><label>Tags</label>
              <itemset nodeset="instance('tags')/root/item"><value ref="name"/><label ref="name"/></itemset></select>
            """
        let verdict = try Self.judge("<note>hello</note><tags/>", binds: binds, body: body, ["tags": ["a", "c"]])
        #expect(verdict.result.issues.isEmpty, "\(verdict.result.issues)")
        #expect(verdict.result.values["note"] == nil && verdict.record?.contains("<note/>") == true)
        #expect(
            verdict.result.values["tags"] == .choices(["a", "c"])
                && verdict.record?.contains("<tags>a c</tags>") == true)
        let wrong = try Self.judge("<note/><tags/>", binds: binds, body: body, ["tags": ["a", "z"]])
        #expect(wrong.result.issues.map(\.code) == [.choice])
    }

    @Test("the fields whose options may depend on the answers are those with an itemset")
    func choicesByAnswers() throws {
        let binds = """
              <bind nodeset="/data/kind" type="select1"/>
              <bind nodeset="/data/tags"/>
              <instance id="tags"><root><item><name>a</name></item></root></instance>
            """
        let body = """
            <select1 ref="/data/kind"><label>Kind</label><item><label>X</label><value>x</value></item></select1>
            <select ref="/data/tags"><label>Tags</label>
              <itemset nodeset="instance('tags')/root/item"><value ref="name"/><label ref="name"/></itemset></select>
            """
        let document = XFormExpressionTests.form("<kind/><tags/>", binds: binds, body: body)
        let result = try FormImporter.importDocuments([document])
        let judge = try XFormRuleJudge(
            rules: try #require(result.rules["rules"]), schema: try #require(result.forms.first))
        #expect(judge.choicesByAnswers == ["tags"])
    }
}
