import FormImport
import FormModel
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import TestSupport
import Testing

@testable import FormWeb

/// An XForm shown in each of its languages (`../shared/spec/languages.md`): the one the browser
/// asks for, the switch's choice kept in the `lang` cookie, everything typed kept on a switch.
@Suite("A form in its languages")
struct FormLanguageTests {
    static let household = """
        <h:html xmlns="http://www.w3.org/2002/xforms" xmlns:h="http://www.w3.org/1999/xhtml"
                xmlns:jr="http://openrosa.org/javarosa">
          <h:head><h:title>Household</h:title>
            <model>
              <itext>
                <translation lang="English (en)" default="true()">
                  <text id="village"><value>Village</value></text>
                  <text id="water"><value>Water source</value></text>
                  <text id="well"><value>Well</value></text>
                  <text id="tap"><value>Tap</value></text>
                  <text id="short"><value>Enter a longer name</value></text>
                </translation>
                <translation lang="Français (fr)">
                  <text id="village"><value>Commune</value></text>
                  <text id="water"><value>Source d'eau</value></text>
                  <text id="well"><value>Puits</value></text>
                  <text id="tap"><value>Robinet</value></text>
                  <text id="short"><value>Saisissez un nom plus long</value></text>
                </translation>
              </itext>
              <instance><data id="household"><village/><water/></data></instance>
              <bind nodeset="/data/village" type="string" required="true()"
                    constraint="string-length(.) &gt; 2" jr:constraintMsg="jr:itext('short')"/>
              <bind nodeset="/data/water" type="string"/>
            </model>
          </h:head>
          <h:body>
            <input ref="/data/village"><label ref="jr:itext('village')"/></input>
            <select1 ref="/data/water"><label ref="jr:itext('water')"/>
              <item><label ref="jr:itext('well')"/><value>well</value></item>
              <item><label ref="jr:itext('tap')"/><value>tap</value></item>
            </select1>
          </h:body>
        </h:html>
        """

    @Test("the browser's language, then the switch's choice; a switch keeps everything typed")
    func languages() async throws {
        try await XFormPageTests.withForms(["household.xml": Self.household]) { browser in
            let english = try await browser.get("/forms/household/new")
            #expect(english.body.contains("Village"))
            #expect(
                !english.body.contains(
                    #"class="fw-form" method="post" action="/forms/household" enctype="application/x-www-form-urlencoded" lang="#
                ))
            #expect(english.body.contains(#"name="_lang" value="fr" lang="fr" formnovalidate>Français</button>"#))
            #expect(
                english.body.contains(
                    #"name="_lang" value="en" lang="en" formnovalidate aria-current="true">English</button>"#))

            let french = try await browser.send(
                "/forms/household/new", method: .get, headers: [.acceptLanguage: "fr-CH, en;q=0.5"], body: nil)
            #expect(french.body.contains("Commune"))
            #expect(french.body.contains("Puits") && french.body.contains("Robinet"))
            #expect(french.body.contains(#"enctype="application/x-www-form-urlencoded" lang="fr""#))
            #expect(!french.body.contains(">Village<"))

            // Switched to English from the French page: the same values, in English, kept in a cookie.
            let token = try #require(french.csrf)
            let switched = try await browser.send(
                "/forms/household", method: .post,
                headers: [.acceptLanguage: "fr", .contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "_csrf=\(token)&village=Kisumu&water=tap&_lang=en"))
            #expect(switched.status == .ok)
            #expect(switched.body.contains("Village") && switched.body.contains(#"value="Kisumu""#))
            #expect(!switched.body.contains("Enter"), "nothing judged")
            // The cookie wins over Accept-Language from then on.
            let again = try await browser.send(
                "/forms/household/new", method: .get, headers: [.acceptLanguage: "fr"], body: nil)
            #expect(again.body.contains("Village") && !again.body.contains("Commune"))

            // A create in French, its detail page in French too.
            let created = try await browser.send(
                "/forms/household", method: .post,
                headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "_csrf=\(token)&village=Kisumu&water=well&_lang=fr"))
            #expect(created.body.contains("Commune"))
            // The form's own message in French too; in English for the English page.
            let refused = try await browser.post("/forms/household", [("_csrf", token), ("village", "Ki")])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.body.contains("Saisissez un nom plus long"))
            let stored = try await browser.post(
                "/forms/household", [("_csrf", token), ("village", "Kisumu"), ("water", "well")])
            #expect(stored.status == .seeOther)
            let detail = try await browser.get(try #require(stored.location))
            #expect(detail.body.contains("Commune") && detail.body.contains("Puits"))
        }
    }
}
