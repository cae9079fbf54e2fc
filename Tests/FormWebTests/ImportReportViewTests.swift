import FormImport
import Foundation
import Testing

@testable import FormPages
@testable import FormStore
@testable import FormWeb

/// The import report page's context, from a stored report.
@Suite("Import report")
struct ImportReportViewTests {
    static func view(_ warnings: [ImportWarning]) -> ImportReportView {
        let summary = ImportSummary(
            documents: ["sloppy.xml"],
            forms: [ImportSummary.Form(id: "demo-trips", title: "New Trip", version: 1, fieldCount: 3)],
            warnings: warnings, skipped: [])
        let page = AdminPage(
            viewer: Viewer(account: nil, browserID: "b", csrfToken: "t"), token: "t", heading: "Import")
        return ImportReportView(page: page, summary: summary, kind: .odataV4, at: nil, by: nil)
    }

    static let message = "Trips (Trip): the service requires Budget to create one."

    @Test("a required-for-create warning counts in its form's row and is listed under the form's id")
    func requiredForCreate() {
        let view = Self.view([ImportWarning(code: .requiredForCreate, message: Self.message, form: "demo-trips")])
        #expect(view.forms.first?.requiredAdded == 1)
        #expect(view.requiredForCreate.map(\.message.text) == ["demo-trips: \(Self.message)"])
    }

    @Test("a report stored before warnings named their form, with the form's id as the term, reads the same")
    func storedWithTheFormAsTerm() throws {
        let stored = try JSONDecoder().decode(
            ImportWarning.self,
            from: Data(
                #"{"code":"required-for-create","message":"\#(Self.message)","line":20,"column":0,"term":"demo-trips","count":1}"#
                    .utf8))
        #expect(stored.form == nil)
        let view = Self.view([stored])
        #expect(view.forms.first?.requiredAdded == 1)
        #expect(view.requiredForCreate.map(\.message.text) == ["demo-trips: \(Self.message)"])
    }
}
