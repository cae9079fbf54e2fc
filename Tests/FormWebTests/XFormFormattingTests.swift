import FormModel
import Foundation
import HTTPTypes
import Testing

@testable import FormWeb

/// ODK's formatting in an XForm's labels and hints on the page (`docs/odk-markdown.md`): the
/// marks ODK reads become markup made from escaped text, the form's HTML never does, and the
/// messages and summaries name the field by its plain words.
@Suite("XForm formatting")
struct XFormFormattingTests {
    static let form = """
        <h:html xmlns="http://www.w3.org/2002/xforms" xmlns:h="http://www.w3.org/1999/xhtml">
          <h:head><h:title>Styled</h:title>
            <model>
              <instance><data id="styled"><intro/><name/><age/></data></instance>
              <bind nodeset="/data/intro" type="string" readonly="true()"/>
              <bind nodeset="/data/name" type="string" required="true()"/>
              <bind nodeset="/data/age" type="int"/>
            </model>
          </h:head>
          <h:body>
            <input ref="/data/intro"><label># Welcome
        Read the [guide](https://docs.getodk.org/) *first*. &lt;script&gt;alert(1)&lt;/script&gt;</label></input>
            <input ref="/data/name"><label>Your **full** name</label>
              <hint>&lt;span style="color:red" onclick="x()"&gt;As in your passport&lt;/span&gt;</hint></input>
            <input ref="/data/age"><label>Age</label><hint>In [years](javascript:alert(1))</hint></input>
          </h:body>
        </h:html>
        """

    @Test("labels and hints show ODK's marks as markup of escaped text, and nothing of the form's HTML")
    func formatted() async throws {
        try await XFormPageTests.withForms(["styled.xml": Self.form]) { browser in
            let page = try await browser.get("/forms/styled/new")
            #expect(page.status == .ok)
            let body = page.body
            #expect(body.contains("/css/rich.css"))
            #expect(
                body.contains(
                    #"<p class="fw-label"><span class="fw-rich-h1">Welcome</span><br>Read the <a href="https://docs.getodk.org/" target="_blank" rel="noopener noreferrer">guide<span class="fw-visually-hidden"> (opens in a new tab)</span></a> <em>first</em>. &lt;script&gt;alert(1)&lt;/script&gt;</p>"#
                ), "\(body)")
            #expect(!body.contains("<script>alert"))
            #expect(body.contains(#"Your <strong>full</strong> name"#))
            #expect(body.contains(#"<span class="fw-rich--red">As in your passport</span>"#))
            #expect(!body.contains("onclick") && !body.contains("javascript:"))
            #expect(body.contains(">In years</p>"))
            // The messages name the field by its words, without marks.
            let refused = try await browser.post("/forms/styled", [("_csrf", try #require(page.csrf)), ("age", "4")])
            #expect(refused.status == .unprocessableContent)
            #expect(
                refused.body.contains("Enter your full name") || refused.body.contains("Enter Your full name"),
                "\(refused.body)")
            #expect(!refused.body.contains("**"))
        }
    }

    @Test("a form without formatting links no rich.css")
    func plain() async throws {
        try await XFormPageTests.withForms(["visit.xml": XFormPageTests.survey]) { browser in
            let page = try await browser.get("/forms/visit/new")
            #expect(!page.body.contains("rich.css"))
        }
    }
}
