import FormXML
import Foundation
import Testing

@testable import FormImport
@testable import FormModel

@Suite("Format detection")
struct FormImporterTests {
    @Test("OData metadata without entity sets imports with a report and no form", arguments: ["odata-v2", "odata-v4"])
    func odataWithoutSets(_ fixture: String) throws {
        let result = try FormImporter.importDocuments([Fixtures.document(fixture)])
        #expect(result.kind == (fixture == "odata-v2" ? .odataV2 : .odataV4))
        #expect(result.forms.isEmpty)
        #expect(result.warnings.map(\.code) == ["no-forms"])
        #expect(result.warnings.first?.file == "\(fixture).xml")
    }

    @Test("V2 metadata and V4 annotation documents are one OData import, not mixed formats")
    func odataVersionsTogether() throws {
        let metadata = OData.v2(
            """
                  <EntityType Name="T"><Key><PropertyRef Name="ID"/></Key><Property Name="ID" Type="Edm.String" Nullable="false"/></EntityType>
                  <EntityContainer Name="C"><EntitySet Name="Ts" EntityType="DEMO_SRV.T"/></EntityContainer>
            """)
        let annotations = OData.annotations(
            #"<Annotations Target="SAP.T/ID"><Annotation Term="Common.Label" String="Identifier"/></Annotations>"#,
            service: "DEMO_SRV")
        let result = try FormImporter.importDocuments([annotations, metadata])
        #expect(result.kind == .odataV2)
        #expect(result.forms.first?.field(named: "ID")?.label == "Identifier")
    }

    @Test(
        "a batch groups each OData metadata document with the annotation documents after it; annotations alone are no refusal"
    )
    func batch() throws {
        let outcomes = FormImporter.importBatch([
            try OData.fixture("layers-backend"), try Fixtures.document("minimal"), try OData.fixture("layers-metadata"),
            try OData.fixture("layers-backend"), try OData.fixture("layers-local"),
        ])
        #expect(
            outcomes.map(\.documents) == [
                ["layers-backend.xml"], ["minimal.xml"],
                ["layers-metadata.xml", "layers-backend.xml", "layers-local.xml"],
            ])
        // Annotations with no metadata before them import alone: no form, and the report says why.
        let orphan = try outcomes[0].result.get()
        #expect(orphan.forms.isEmpty)
        #expect(orphan.warnings.map(\.code).contains("no-forms"))
        #expect(
            orphan.warnings.contains {
                $0.message.contains("holds only annotations; import it right after its service's metadata document")
            })
        let odata = try outcomes[2].result.get()
        #expect(odata.forms.first?.field(named: "Name")?.label == "Name (local)")
    }

    @Test("a batch's later import of a form id an earlier one gave warns that it becomes the next version")
    func formIDAgain() throws {
        let minimal = try Fixtures.document("minimal")
        var copy = minimal
        copy.name = "copy.xml"
        let outcomes = FormImporter.importBatch([minimal, copy])
        #expect(try outcomes[0].result.get().warnings.allSatisfy { $0.code != .formIDAgain })
        let again = try outcomes[1].result.get().warnings.filter { $0.code == .formIDAgain }
        #expect(again.count == 1)
        #expect(again.first?.file == "copy.xml")
        #expect(again.first?.message.hasPrefix("minimal.xml gave the form id") == true)
    }

    /// The importer that takes a document, from its root element read before parsing.
    private func importer(_ text: String) -> FormImporter.Importer? {
        XMLRootElement.probe(Array(text.utf8)).flatMap(FormImporter.Importer.taking)
    }

    @Test("EDMX is recognised from its root element whatever the prefix, past the declaration and comments")
    func importerTaking() {
        #expect(importer(#"<?xml version="1.0"?><!-- c --><edmx:Edmx Version="4.0">"#) == .odata)
        #expect(importer("\u{FEFF}<x:Edmx>") == .odata)
        #expect(importer(#"<form xmlns="urn:fieldwork:form:1">"#) == .native)
        #expect(importer(#"<form xmlns="urn:other">"#) == .native)
        #expect(importer("<EdmxNot/>") == nil)
        #expect(importer("<html/>") == nil)
    }

    /// A small V4 metadata document with one creatable entity set.
    private static let metadataV4 =
        #"<edmx:Edmx xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx" Version="4.0"><edmx:DataServices>"#
        + #"<Schema xmlns="http://docs.oasis-open.org/odata/ns/edm" Namespace="S">"#
        + #"<EntityType Name="T"><Key><PropertyRef Name="ID"/></Key><Property Name="ID" Type="Edm.String" Nullable="false"/></EntityType>"#
        + #"<EntityContainer Name="C"><EntitySet Name="Ts" EntityType="S.T"/></EntityContainer></Schema></edmx:DataServices></edmx:Edmx>"#

    @Test("EDMX is parsed once and imported whatever comes before its root", arguments: ["utf-16", "comment", "bom"])
    func edmxPastItsProlog(_ prolog: String) throws {
        let data: [UInt8]
        switch prolog {
        case "utf-16":
            data =
                [0xFF, 0xFE]
                + "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n\(Self.metadataV4)".utf16.flatMap {
                    [UInt8($0 & 0xFF), UInt8($0 >> 8)]
                }
        case "comment":
            data = Array(("<!-- " + String(repeating: "a <b> c ", count: 1300) + " -->\n" + Self.metadataV4).utf8)
            #expect(data.count > 10_000)
        default:
            data = [0xEF, 0xBB, 0xBF] + Array(Self.metadataV4.utf8)
        }
        let parsed = FormImporter.parse(ImportDocument(name: "m.xml", data: data))
        guard case .odata(let edmx)? = parsed.recognised else {
            Issue.record("not read as EDMX: \(parsed.errors)")
            return
        }
        #expect(edmx.version == .v4 && edmx.role == .metadata)
        let result = try FormImporter.importDocuments([ImportDocument(name: "m.xml", data: data)])
        #expect(result.kind == .odataV4)
        #expect(result.forms.map(\.id) == ["s-ts"])
    }

    @Test("a document malformed before its root is refused as malformed, with where")
    func malformedBeforeTheRoot() throws {
        let text = "<?xml version=\"1.0\"?>\n<!-- a -- b -->\n" + Self.metadataV4
        let errors = Fixtures.errors(of: [ImportDocument(name: "m.xml", data: Array(text.utf8))])
        #expect(errors.map(\.code) == ["malformed-xml"])
        #expect(errors.first?.line == 2)
        #expect(errors.first?.message.hasPrefix("Malformed XML: ") == true)
    }

    @Test("the root read before parsing is the root the parse finds, for every fixture that parses")
    func probeAgreesWithTheParse() throws {
        let folder = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
        let files = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "xml" }
        #expect(files.count > 40)
        for file in files {
            let bytes = Array(try Data(contentsOf: file))
            let probed = XMLRootElement.probe(bytes)
            guard let root = (try? SafeXMLDocument.parse(bytes))?.root else {
                continue
            }
            #expect(
                probed == XMLRootElement(localName: root.localName, namespaceURI: root.namespaceURI, line: root.line),
                "\(file.lastPathComponent)")
        }
    }

    @Test("an EDMX document that is not well-formed is refused")
    func malformedEDMX() throws {
        let broken = ImportDocument(
            name: "broken.xml",
            data: Array("<edmx:Edmx xmlns:edmx=\"http://docs.oasis-open.org/odata/ns/edmx\"><x>".utf8))
        #expect(Fixtures.errors(of: [broken]).map(\.code) == ["malformed-xml"])
    }

    @Test("an unknown root names what was found and what was expected")
    func unknownFormat() throws {
        let errors = try Fixtures.errors("unknown-format")
        #expect(errors.map(\.code) == ["unknown-format"])
        #expect(
            errors.first?.message
                == "The root element is <svg> in namespace http://www.w3.org/2000/svg; expected <form xmlns=\"urn:fieldwork:form:1\"> (a native form spec), <edmx:Edmx> (OData metadata) or <h:html> (ODK XForm)."
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
        #expect(
            errors.first?.message
                == "copy.xml and minimal.xml both declare the form id \"minimal\"; give each form its own id.")
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
            _ = try NativeSpecImporter.importSpec(
                Array("<list xmlns=\"urn:fieldwork:form:1\"/>".utf8), file: "list.xml")
        }
        #expect(failure.errors.map(\.code) == ["wrong-root"])
        #expect(failure.errors.first?.line == 1)
    }
}
