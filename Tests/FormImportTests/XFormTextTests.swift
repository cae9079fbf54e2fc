import Foundation
import Testing

@testable import FormImport
@testable import FormModel

@Suite("XForms: texts, languages and outputs")
struct XFormTextTests {
    @Test("every language is kept; the one marked default is the default, and the form's labels are in it")
    func languages() throws {
        let (result, form, rules) = try XFormFixtures.importing("itext-languages")
        #expect(rules.translations.languages == ["English", "Français"])
        #expect(rules.translations.defaultLanguage == "Français")
        #expect(form.field(named: "name")?.label == "Nom")
        // An output shows as … until the page evaluates it.
        #expect(form.field(named: "age")?.label == "Âge de … ?")
        // A text missing in the default language falls back to another.
        #expect(form.field(named: "age")?.hint == "In years")
        #expect(rules.translations.text("/data/name:label", language: "English")?.text == [.text("Name")])
        #expect(
            rules.translations.texts["English"]?["/data/age:label"]?.text == [
                .text("Age of "),
                .output(
                    XFormExpression(source: "/data/name", element: "output", attribute: "value", line: 11, column: 35)),
                .text("?"),
            ])
        #expect(rules.translations.texts["English"]?["/data/age:hint"]?.guidance == [.text("Count full years only")])
        #expect(
            result.warnings(.mediaLeftOut) == [
                "1 image text (itext form=\"image\") is left out: media files are not supplied.",
                "1 audio text (itext form=\"audio\") is left out: media files are not supplied.",
            ])
    }

    @Test("without a translation marked default, the first is the default")
    func firstIsDefault() throws {
        let text = """
            <h:html xmlns:h="http://www.w3.org/1999/xhtml" xmlns="http://www.w3.org/2002/xforms">
            <h:head><h:title>T</h:title><model><itext>
            <translation lang="de"><text id="q"><value>Frage</value></text></translation>
            <translation lang="en"><text id="q"><value>Question</value></text></translation>
            </itext><instance><data id="t"><q/><r/></data></instance></model></h:head>
            <h:body><input ref="/data/q"><label ref="jr:itext('q')"/></input>
            <input ref="/data/r"><label ref="jr:itext('missing')"/></input></h:body></h:html>
            """
        let result = try FormImporter.importDocuments([ImportDocument(name: "t.xml", data: Array(text.utf8))])
        let rules = try #require(result.rules["t"])
        #expect(rules.translations.defaultLanguage == "de")
        #expect(result.forms.first?.allFields.map(\.label) == ["Frage", nil])
        #expect(
            result.warnings(.missingText) == [
                "The text 'missing' that a <label> names is in no translation; it is left empty."
            ])
    }

    @Test("constraint and required messages are kept literal or as itext ids")
    func messages() throws {
        let (_, _, rules) = try XFormFixtures.importing("itext-languages")
        let bind = try #require(rules.node(at: "/data/age")?.bind)
        #expect(bind.constraintMessage == XFormText(itext: "/data/age:constraintMsg"))
        #expect(bind.requiredMessage == .literal("Enter an age"))
        #expect(
            bind.constraintMessage?.segments(in: rules.translations).map {
                XFormSegment.joined($0, placeholder: "")
            } == "Trop âgé")
        #expect(
            bind.constraintMessage?.segments(in: rules.translations, language: "English").map {
                XFormSegment.joined($0, placeholder: "")
            } == "Too old")
        let label = try #require(rules.node(at: "/data/age")?.label)
        #expect(label == XFormText(itext: "/data/age:label"))
    }

    @Test("an output inside an inline label is a segment, with the output's place")
    func inlineOutput() throws {
        let (_, form, rules) = try XFormFixtures.importing("relevant-group")
        #expect(form.field(named: "age")?.label == "Age of …, in years")
        let segments = rules.node(at: "/visit/head/age")?.label?.inline
        #expect(
            segments == [
                .text("Age of "),
                .output(
                    XFormExpression(
                        source: " /visit/head/name ", element: "output", attribute: "value", line: 43, column: 31)),
                .text(", in years"),
            ])
    }

    @Test("text around outputs keeps entities, CDATA and line ends as the parser reads them")
    func mixedContent() throws {
        let text =
            "<h:html xmlns:h=\"http://www.w3.org/1999/xhtml\" xmlns=\"http://www.w3.org/2002/xforms\">"
            + "<h:head><h:title>A &amp; B</h:title><model><instance><data id=\"t\"><q/></data></instance></model>"
            + "</h:head><h:body><input ref=\"/data/q\"><label>x &lt; <output value=\"/data/q\"/><![CDATA[ <y> & ]]>"
            + "<!-- note --><b>bold</b>\r\nend</label></input></h:body></h:html>"
        let result = try FormImporter.importDocuments([ImportDocument(name: "t.xml", data: Array(text.utf8))])
        let rules = try #require(result.rules["t"])
        let label = rules.node(at: "/data/q")?.label?.inline
        #expect(
            label == [
                .text("x < "),
                .output(
                    XFormExpression(source: "/data/q", element: "output", attribute: "value", line: 1, column: 242)),
                .text(" <y> & bold\nend"),
            ])
        #expect(result.forms.first?.title == "A & B")
        // The element `b` is no XForms element: reported, its text kept.
        #expect(result.warnings(.unknownElement).isEmpty)
    }
}
