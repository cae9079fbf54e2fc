import FormImport
import FormModel
import Foundation
import HummingbirdTesting
import Testing

@testable import FormPages
@testable import FormStore
@testable import FormWeb

/// A value list given its value by its parent page needs no options (the create pattern's
/// "task pre-populated from the task screen").
@Suite("Value list from the parent")
struct ParentValueTests {
    static let spec = """
        <form xmlns="urn:fieldwork:form:1" id="log-time" title="Log Time" object="Entry">
          <key><text name="title" placeholder="Title" required="true"/></key>
          <properties><group>
            <value-list name="task" label="Task" editable="false" prefill="query" required="true"/>
          </group></properties>
        </form>
        """

    @Test("it imports without options, shows the parent's value read-only and stores it from the seal")
    func fromParent() async throws {
        let result = try FormImporter.importDocuments([
            ImportDocument(name: "log-time.xml", data: Array(Self.spec.utf8))
        ])
        let schema = try #require(result.forms.first)
        try await TestApp.run(forms: [(schema, .public)]) { client in
            let browser = TestBrowser(client)
            let page = try await browser.get("/forms/log-time/new?task=T-1001")
            #expect(page.status == .ok)
            #expect(
                page.body.contains(
                    #"id="field-task" name="task" type="text" autocomplete="off" readonly value="T-1001""#))
            // What the browser sends for it is ignored: the seal decides.
            let created = try await browser.post(
                "/forms/log-time",
                [
                    ("_csrf", page.csrf ?? ""), ("_prefill", page.prefill ?? ""), ("title", "Standup"),
                    ("task", "T-9999"),
                ])
            #expect(created.status == .seeOther)
            let detail = try await browser.get(try #require(created.location))
            #expect(detail.body.contains("T-1001"))
            #expect(!detail.body.contains("T-9999"))
        }
    }
}
