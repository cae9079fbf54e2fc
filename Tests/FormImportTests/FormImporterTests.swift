import Foundation
import Testing

@testable import FormImport
@testable import FormModel

@Suite("Format detection")
struct FormImporterTests {
    @Test("OData metadata is recognised but not imported yet", arguments: ["odata-v2", "odata-v4"])
    func odataNotYet(_ fixture: String) throws {
        let errors = try Fixtures.errors(fixture)
        #expect(errors.map(\.code) == ["odata-not-yet"])
        #expect(errors.first?.line == 2)
        #expect(errors.first?.file == "\(fixture).xml")
        #expect(errors.first?.message.contains("OData import is not available yet") == true)
    }

    @Test("an unknown root names what was found and what was expected")
    func unknownFormat() throws {
        let errors = try Fixtures.errors("unknown-format")
        #expect(errors.map(\.code) == ["unknown-format"])
        #expect(
            errors.first?.message
                == "The root element is <html> in namespace http://www.w3.org/1999/xhtml; expected <form xmlns=\"urn:fieldwork:form:1\"> (a native form spec) or <edmx:Edmx> (OData metadata)."
        )
        #expect(errors.first?.line == 2)
    }

    @Test("several native specs import together")
    func severalNative() throws {
        let demo = ImportDocument(name: "new-issue.xml", data: try Fixtures.demoBytes())
        let result = try FormImporter.importDocuments([demo, Fixtures.document("minimal")])
        #expect(result.forms.map(\.id) == ["new-issue", "minimal"])
        #expect(result.sources.map(\.name) == ["new-issue.xml", "minimal.xml"])
    }

    @Test("two specs with the same form id are refused")
    func duplicateFormID() throws {
        let minimal = try Fixtures.document("minimal")
        let copy = ImportDocument(name: "copy.xml", data: minimal.data)
        let errors = Fixtures.errors(of: [minimal, copy])
        #expect(errors.map(\.code) == ["duplicate-form-id"])
        #expect(errors.first?.file == "copy.xml")
        #expect(errors.first?.message == "copy.xml and minimal.xml both declare the form id \"minimal\"; give each form its own id.")
    }

    @Test("errors of every document are reported, each with its file")
    func errorsPerDocument() throws {
        let errors = Fixtures.errors(of: [try Fixtures.document("malformed"), try Fixtures.document("unknown-list")])
        #expect(errors.map(\.code) == ["malformed-xml", "unknown-list"])
        #expect(errors.map(\.file) == ["malformed.xml", "unknown-list.xml"])
    }

    @Test("native and OData documents in one import are refused")
    func mixedFormats() throws {
        let errors = Fixtures.errors(of: [try Fixtures.document("minimal"), try Fixtures.document("odata-v4")])
        #expect(errors.map(\.code) == ["mixed-formats"])
    }

    @Test("an import without documents is refused")
    func noDocuments() {
        #expect(Fixtures.errors(of: []).map(\.code) == ["no-documents"])
    }

    @Test("an empty document is malformed")
    func emptyDocument() {
        let errors = Fixtures.errors(of: [ImportDocument(name: "empty.xml", data: [])])
        #expect(errors.map(\.code) == ["malformed-xml"])
        #expect(errors.first?.file == "empty.xml")
    }

    @Test("the native importer refuses a root other than form")
    func wrongRoot() throws {
        let failure = try #require(throws: ImportFailure.self) {
            _ = try NativeSpecImporter.importSpec(Array("<list xmlns=\"urn:fieldwork:form:1\"/>".utf8), file: "list.xml")
        }
        #expect(failure.errors.map(\.code) == ["wrong-root"])
        #expect(failure.errors.first?.line == 1)
    }
}
