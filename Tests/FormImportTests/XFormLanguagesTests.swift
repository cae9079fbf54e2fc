import Foundation
import Testing

@testable import FormImport
@testable import FormModel

/// An XForm in each of its languages (`../shared/spec/languages.md`, "The form's texts").
@Suite("XForm languages")
struct XFormLanguagesTests {
    static let source = """
        <h:html xmlns="http://www.w3.org/2002/xforms" xmlns:h="http://www.w3.org/1999/xhtml"
                xmlns:jr="http://openrosa.org/javarosa">
          <h:head><h:title>Household</h:title>
            <model>
              <itext>
                <translation lang="English (en)" default="true()">
                  <text id="/data/village:label"><value>Village</value></text>
                  <text id="/data/village:hint"><value>Where you live</value></text>
                  <text id="/data/water:label"><value>**Water** source</value></text>
                  <text id="/data/water/well:label"><value>Well</value></text>
                  <text id="/data/water/tap:label"><value>Tap</value></text>
                  <text id="/data/member/name:label"><value>Name</value></text>
                  <text id="c-nairobi"><value>Nairobi</value></text>
                  <text id="place"><value>Place</value></text>
                  <text id="members"><value>Members</value></text>
                </translation>
                <translation lang="French">
                  <text id="/data/village:label"><value>Village (fr)</value></text>
                  <text id="/data/water:label"><value>Source d'**eau**</value></text>
                  <text id="/data/water/well:label"><value>Puits</value></text>
                  <text id="/data/member/name:label"><value>Nom</value></text>
                  <text id="c-nairobi"><value>Nairobi (fr)</value></text>
                  <text id="place"><value>Lieu</value></text>
                  <text id="members"><value>Membres</value></text>
                </translation>
              </itext>
              <instance><data id="household"><village/><water/><city/><member jr:template=""><name/></member></data></instance>
              <instance id="cities"><root><item><name>nbo</name><itextId>c-nairobi</itextId></item></root></instance>
              <bind nodeset="/data/village" type="string"/>
              <bind nodeset="/data/water" type="string"/>
              <bind nodeset="/data/city" type="string"/>
              <bind nodeset="/data/member/name" type="string"/>
            </model>
          </h:head>
          <h:body>
            <input ref="/data/village"><label ref="jr:itext('/data/village:label')"/><hint ref="jr:itext('/data/village:hint')"/></input>
            <group><label ref="jr:itext('place')"/>
            <select1 ref="/data/water"><label ref="jr:itext('/data/water:label')"/>
              <item><label ref="jr:itext('/data/water/well:label')"/><value>well</value></item>
              <item><label ref="jr:itext('/data/water/tap:label')"/><value>tap</value></item>
            </select1>
            </group>
            <select1 ref="/data/city"><label>City</label>
              <itemset nodeset="instance('cities')/root/item"><value ref="name"/><label ref="jr:itext(itextId)"/></itemset>
            </select1>
            <repeat nodeset="/data/member"><label ref="jr:itext('members')"/>
              <input ref="/data/member/name"><label ref="jr:itext('/data/member/name:label')"/></input>
            </repeat>
          </h:body>
        </h:html>
        """

    @Test(
        "each language with its tag, the default first; the fields' texts in a language, the default's where it lacks one"
    )
    func translated() throws {
        let result = try FormImporter.importDocuments([
            ImportDocument(name: "household.xml", data: Array(Self.source.utf8))
        ])
        let form = try #require(result.forms.first)
        let rules = try #require(result.rules[form.id])
        #expect(
            XFormLanguages.languages(of: rules) == [
                .init(name: "English (en)", tag: "en"), .init(name: "French", tag: "fr"),
            ])
        #expect(form.field(named: "village")?.label == "Village")
        let french = XFormLanguages.schema(form, rules: rules, language: "French")
        #expect(french.field(named: "village")?.label == "Village (fr)")
        // A hint French lacks stays English.
        #expect(french.field(named: "village")?.hint == "Where you live")
        let water = try #require(french.field(named: "water"))
        #expect(water.label == "Source d'eau")
        #expect(water.presentation.labelFormat != nil, "its formatting read as at import")
        #expect(french.options(for: water).map(\.label) == ["Puits", "Tap"])
        let city = try #require(french.field(named: "city"))
        #expect(french.options(for: city).map(\.label) == ["Nairobi (fr)"])
        #expect(french.itemLists.first?.fields.first?.label == "Nom")
        // Group and list headings given through itext.
        #expect(form.sections.flatMap(\.groups).compactMap(\.label).contains("Place"))
        #expect(french.sections.flatMap(\.groups).compactMap(\.label).contains("Lieu"))
        #expect(form.itemLists.first?.label == "Members")
        #expect(french.itemLists.first?.label == "Membres")
        // The default language, or one the form does not have, is the schema as imported.
        #expect(XFormLanguages.schema(form, rules: rules, language: "English (en)") == form)
        #expect(XFormLanguages.schema(form, rules: rules, language: "Klingon") == form)
    }
}
