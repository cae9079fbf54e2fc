import Foundation
import Testing

@testable import FormImport
@testable import FormModel

/// Sloppy documents (EDM elements in no namespace or the wrong one), the fields a create
/// requires, value helps on numbers and descriptions as hints.
@Suite("OData: sloppy documents and required fields")
struct ODataSloppyTests {
    @Test(
        "a V4 Schema in no namespace is metadata: every entity set gives a form, with a warning naming the assumption")
    func noNamespace() throws {
        let result = try OData.importing("sloppy-no-namespace")
        #expect(result.kind == .odataV4)
        #expect(
            result.forms.map(\.id) == [
                "sample-bookshop-books", "sample-bookshop-authors", "sample-bookshop-genres",
            ])
        #expect(OData.warnings(result, .noForms).isEmpty)
        let books = try OData.form(result, "sample-bookshop-books")
        #expect(books.allFields.map(\.name) == ["Title", "ID", "Stock"])  // CreatedAt is Core.Computed
        let assumed = OData.warnings(result, .assumedNamespace)
        #expect(assumed.count == 1)
        #expect(assumed.first?.line == 9)
        #expect(
            assumed.first?.message
                == "<Schema> and the elements in it are in no namespace; they are read as OData V4 EDM (http://docs.oasis-open.org/odata/ns/edm). To silence this, declare xmlns=\"http://docs.oasis-open.org/odata/ns/edm\" on it."
        )
    }

    @Test("a V4 document whose Schema is in the V2 EDM namespace imports, with a warning naming the mix-up")
    func mixedNamespaces() throws {
        let result = try OData.importing("sloppy-mixed-namespaces")
        let trips = try OData.form(result, "sample-travel-trips")
        #expect(try OData.field(trips, "Destination").label == "Destination city")
        #expect(try OData.field(trips, "StartsOn").kind == .date)
        let assumed = OData.warnings(result, .assumedNamespace)
        #expect(
            assumed.map(\.message) == [
                "<Schema> is in the OData V2 EDM namespace http://schemas.microsoft.com/ado/2008/09/edm, but the document is OData V4 (edmx:Edmx in http://docs.oasis-open.org/odata/ns/edmx); it is read as OData V4 metadata, as its root says. To silence this, use xmlns=\"http://docs.oasis-open.org/odata/ns/edm\" on the Schema."
            ])
    }

    @Test("a V2 document whose Schema is in the V4 EDM namespace imports as V2, with a warning")
    func v2WithV4Schema() throws {
        let text = """
            <?xml version="1.0" encoding="utf-8"?>
            <edmx:Edmx Version="1.0" xmlns:edmx="http://schemas.microsoft.com/ado/2007/06/edmx" xmlns:sap="http://www.sap.com/Protocols/SAPData">
              <edmx:DataServices>
                <Schema Namespace="DEMO_SRV" xmlns="http://docs.oasis-open.org/odata/ns/edm">
                  <EntityType Name="T">
                    <Key><PropertyRef Name="ID"/></Key>
                    <Property Name="ID" Type="Edm.String" Nullable="false" MaxLength="10" sap:label="Code"/>
                  </EntityType>
                  <EntityContainer Name="C"><EntitySet Name="TSet" EntityType="DEMO_SRV.T"/></EntityContainer>
                </Schema>
              </edmx:DataServices>
            </edmx:Edmx>
            """
        let result = try OData.importing([ImportDocument(name: "v2.xml", data: Array(text.utf8))])
        #expect(result.kind == .odataV2)
        #expect(try OData.field(try OData.form(result, "demo-srv-tset"), "ID").label == "Code")
        let message = try #require(OData.warnings(result, .assumedNamespace).first?.message)
        #expect(
            message.hasPrefix(
                "<Schema> is in the OData V4 EDM namespace http://docs.oasis-open.org/odata/ns/edm, but the document is OData V2"
            ))
        #expect(message.hasSuffix("use xmlns=\"http://schemas.microsoft.com/ado/2008/09/edm\" on the Schema."))
    }

    @Test("a prefix bound to an unexpected URI: its EDM elements are read, with a warning naming the URI")
    func unexpectedURI() throws {
        let result = try OData.importing("sloppy-unexpected-uri")
        let stores = try OData.form(result, "sample-stores-stores")
        #expect(try OData.field(stores, "City").hint == "Where the store is")
        let assumed = OData.warnings(result, .assumedNamespace)
        #expect(
            assumed.map(\.message) == [
                "<Schema> and the elements in it are in the namespace https://docs.oasis-open.org/odata/ns/edm, which is no OData EDM namespace; they are read as OData V4 EDM (http://docs.oasis-open.org/odata/ns/edm). To silence this, bind its prefix to http://docs.oasis-open.org/odata/ns/edm."
            ])
    }

    @Test(
        "an Edmx root in no namespace (its edmx prefix declared but not used) is V2 metadata by its Version, with a warning"
    )
    func rootInNoNamespace() throws {
        let result = try OData.importing("sloppy-root-no-namespace")
        #expect(result.kind == .odataV2)
        #expect(result.forms.map(\.id) == ["espm-customers", "espm-suppliers"])
        let customers = try OData.form(result, "espm-customers")
        #expect(try OData.field(customers, "EmailAddress").label == "E-mail")
        #expect(try OData.field(customers, "EmailAddress").required)
        #expect(try OData.field(customers, "DateOfBirth").kind == .date)
        let assumed = OData.warnings(result, .assumedNamespace)
        #expect(assumed.map(\.line) == [2])
        #expect(
            assumed.map(\.message) == [
                "<Edmx> and the elements in it are in no namespace; they are read as OData V2 EDMX (http://schemas.microsoft.com/ado/2007/06/edmx). To silence this, declare xmlns=\"http://schemas.microsoft.com/ado/2007/06/edmx\" on it."
            ])
    }

    @Test(
        "a sloppy Edmx root with no Version takes its version from its schemas; one in an unknown namespace is read too"
    )
    func rootVersion() throws {
        func document(_ root: String, schema: String) -> ImportDocument {
            let text = """
                <?xml version="1.0" encoding="utf-8"?>
                \(root)
                  <edmx:DataServices>
                    <Schema Namespace="S" xmlns="\(schema)">
                      <EntityType Name="T"><Key><PropertyRef Name="ID"/></Key>
                        <Property Name="ID" Type="Edm.String" Nullable="false" MaxLength="10"/>
                        <Property Name="At" Type="Edm.DateTimeOffset"/>
                      </EntityType>
                      <EntityContainer Name="C"><EntitySet Name="Ts" EntityType="S.T"/></EntityContainer>
                    </Schema>
                  </edmx:DataServices>
                </edmx:Edmx>
                """
            return ImportDocument(name: "sloppy.xml", data: Array(text.utf8))
        }
        let v4 = try OData.importing([
            document(
                #"<edmx:Edmx xmlns:edmx="urn:not-edmx">"#, schema: "http://docs.oasis-open.org/odata/ns/edm")
        ])
        #expect(v4.kind == .odataV4)
        #expect(v4.forms.map(\.id) == ["s-ts"])
        #expect(
            OData.warnings(v4, .assumedNamespace).map(\.message) == [
                "<Edmx> and the elements in it are in the namespace urn:not-edmx, which is no OData EDMX namespace; they are read as OData V4 EDMX (http://docs.oasis-open.org/odata/ns/edmx). To silence this, bind its prefix to http://docs.oasis-open.org/odata/ns/edmx."
            ])
        let v2 = try OData.importing([
            document(
                #"<edmx:Edmx xmlns:edmx="urn:not-edmx">"#, schema: "http://schemas.microsoft.com/ado/2009/11/edm")
        ])
        #expect(v2.kind == .odataV2)
    }

    @Test(
        "an Edmx root of no OData version that holds no DataServices (an Entity Framework designer file) is refused, saying why"
    )
    func entityFrameworkDesignerFile() throws {
        let text = """
            <?xml version="1.0" encoding="utf-8"?>
            <edmx:Edmx Version="2.0" xmlns:edmx="http://schemas.microsoft.com/ado/2008/10/edmx">
              <edmx:Runtime><edmx:ConceptualModels>
                <Schema Namespace="M" xmlns="http://schemas.microsoft.com/ado/2008/09/edm">
                  <EntityType Name="T"><Key><PropertyRef Name="ID"/></Key><Property Name="ID" Type="Int32" Nullable="false"/></EntityType>
                </Schema>
              </edmx:ConceptualModels></edmx:Runtime>
            </edmx:Edmx>
            """
        let outcome = FormImporter.importBatch([ImportDocument(name: "Model.edmx", data: Array(text.utf8))])
        guard case .failure(let failure) = try #require(outcome.first).result else {
            Issue.record("an Entity Framework designer file is refused")
            return
        }
        let error = try #require(failure.errors.first)
        #expect(error.code == .unknownFormat)
        #expect(error.line == 2)
        #expect(
            error.message
                == "The root element is <Edmx> in namespace http://schemas.microsoft.com/ado/2008/10/edmx, which is no OData EDMX namespace (V2: http://schemas.microsoft.com/ado/2007/06/edmx; V4: http://docs.oasis-open.org/odata/ns/edmx), and it holds no <DataServices>: it is not OData service metadata. (An Entity Framework designer file is not either: import the service's $metadata document.)"
        )
    }

    @Test("a sloppy Edmx root whose version nothing tells is refused, saying how to tell it")
    func rootOfNoVersion() throws {
        let text = """
            <Edmx><DataServices><Schema Namespace="S"><EntityType Name="T"/></Schema></DataServices></Edmx>
            """
        let outcome = FormImporter.importBatch([ImportDocument(name: "x.xml", data: Array(text.utf8))])
        guard case .failure(let failure) = try #require(outcome.first).result else {
            Issue.record("refused")
            return
        }
        #expect(
            failure.errors.map(\.message) == [
                "The root element is <Edmx> in no namespace, which is no OData EDMX namespace (V2: http://schemas.microsoft.com/ado/2007/06/edmx; V4: http://docs.oasis-open.org/odata/ns/edmx), and neither its Version nor its schemas say which OData version it is. Bind the edmx prefix to one of those namespaces, or give the root Version=\"1.0\" (V2) or Version=\"4.0\" (V4)."
            ])
    }

    @Test("a sloppy Edmx root after a long comment is read as EDMX")
    func sloppyRootPastTheHint() throws {
        let text =
            "<!-- " + String(repeating: "a <b> ", count: 800) + " -->\n"
            + #"<Edmx Version="4.0"><DataServices><Schema xmlns="http://docs.oasis-open.org/odata/ns/edm" Namespace="S">"#
            + #"<EntityType Name="T"><Key><PropertyRef Name="ID"/></Key><Property Name="ID" Type="Edm.String" Nullable="false"/></EntityType>"#
            + #"<EntityContainer Name="C"><EntitySet Name="Ts" EntityType="S.T"/></EntityContainer></Schema></DataServices></Edmx>"#
        let result = try OData.importing([ImportDocument(name: "late.xml", data: Array(text.utf8))])
        #expect(result.kind == .odataV4)
        #expect(result.forms.map(\.id) == ["s-ts"])
    }

    @Test("clean documents give no assumed-namespace warning")
    func cleanDocuments() throws {
        for fixture in ["rules-v4", "rules-v2", "layers-metadata"] {
            #expect(OData.warnings(try OData.importing(fixture), .assumedNamespace).isEmpty, "\(fixture)")
        }
    }

    @Test("metadata or annotations is decided by what a document declares, in any namespace")
    func roles() throws {
        let annotations = OData.annotations(
            #"<Annotations Target="SAP.Book/Title"><Annotation Term="Common.Label" String="Book title"/></Annotations>"#,
            service: "Sample.Bookshop")
        let batch = FormImporter.importBatch([annotations, try OData.fixture("sloppy-no-namespace"), annotations])
        // The annotations before any metadata are an import of their own; the ones after join it.
        #expect(batch.map(\.documents) == [["annotations.xml"], ["sloppy-no-namespace.xml", "annotations.xml"]])
        let result = try batch[1].result.get()
        #expect(try OData.field(try OData.form(result, "sample-bookshop-books"), "Title").label == "Book title")
        let alone = try batch[0].result.get()
        #expect(
            OData.warnings(alone, .noForms).first?.message
                == "annotations.xml gives no form: it holds only annotations; import it right after its service's metadata document, in the same import."
        )
    }

    // MARK: Required for a create

    static let publication = "com-sap-gateway-srvd-zui-publication-o4-v0001-publication"

    @Test(
        "properties a create requires that the facets leave out are fields, after the groups, in a group of their own")
    func requiredForCreate() throws {
        let result = try OData.importing("required-publication")
        let form = try OData.form(result, Self.publication)
        let groups = form.sections.first { $0.kind == .properties }?.groups ?? []
        #expect(groups.map(\.label) == ["General", "Also required"])
        #expect(groups.last?.fields.map(\.name) == ["PublicationType", "Price", "Currency", "Language"])
        for name in ["PublicationType", "Price", "Currency", "Language"] {
            let field = try OData.field(form, name)
            #expect(field.required, "\(name)")
            #expect(field.editable == .yes, "\(name)")
        }
        #expect(try OData.field(form, "Price").hint == "In the currency given in Currency.")
        #expect(OData.place(of: "PublicationID", in: form)?.0 == .key)
        let added = OData.warnings(result, .requiredForCreate)
        #expect(added.count == 1)
        #expect(added.first?.form == Self.publication)
        #expect(added.first?.term == nil)
        #expect(added.first?.count == 4)
        #expect(
            added.first?.message
                == "Publication (PublicationType): the service requires PublicationType, Price, Currency and Language to create one (Common.FieldControl Mandatory or Capabilities.InsertRestrictions/RequiredProperties), but the layout leaves them out; they are added after its groups, under \"Also required\". To place them yourself, add them to a UI.FieldGroup the facets show."
        )
        // Their annotations were read for the form.
        #expect(!OData.warnings(result, .unusedAnnotation).contains { $0.term == "Common.FieldControl" })
    }

    @Test("only what the service requires is added: not Nullable=false alone, not computed, not without a layout")
    func requiredOnlyWhenRequired() throws {
        let members = """
            <Property Name="Name" Type="Edm.String" MaxLength="20"/>
            <Property Name="Code" Type="Edm.String" Nullable="false" MaxLength="4"/>
            <Property Name="Stamp" Type="Edm.String" MaxLength="4"/>
            <Property Name="Kind" Type="Edm.String" MaxLength="4"/>
            """
        let annotations = """
            <Annotations Target="self.T">
              <Annotation Term="UI.Facets"><Collection>
                <Record Type="UI.ReferenceFacet"><PropertyValue Property="Target" AnnotationPath="@UI.FieldGroup#Main"/></Record>
              </Collection></Annotation>
              <Annotation Term="UI.FieldGroup" Qualifier="Main"><Record><PropertyValue Property="Data"><Collection>
                <Record Type="UI.DataField"><PropertyValue Property="Value" Path="Name"/></Record>
              </Collection></PropertyValue></Record></Annotation>
            </Annotations>
            <Annotations Target="self.T/Stamp">
              <Annotation Term="Common.FieldControl" EnumMember="Common.FieldControlType/Mandatory"/>
              <Annotation Term="Core.Computed"/>
            </Annotations>
            <Annotations Target="self.T/Kind">
              <Annotation Term="Common.FieldControl" Path="KindControl"/>
            </Annotations>
            """
        let laidOut = try OData.importing([OData.v4(OData.entity(members, typeAnnotations: annotations))])
        let form = try #require(laidOut.forms.first)
        #expect(form.allFields.map(\.name) == ["ID", "Name"])
        #expect(OData.warnings(laidOut, .requiredForCreate).isEmpty)

        // Without any layout every property is a field already: nothing is added.
        let mandatory = """
            <Annotations Target="self.T/Kind">
              <Annotation Term="Common.FieldControl" EnumMember="Common.FieldControlType/Mandatory"/>
            </Annotations>
            """
        let plain = try OData.importing([OData.v4(OData.entity(members, typeAnnotations: mandatory))])
        #expect(try #require(plain.forms.first).allFields.map(\.name) == ["ID", "Name", "Code", "Stamp", "Kind"])
        #expect(OData.warnings(plain, .requiredForCreate).isEmpty)
    }

    // MARK: Value helps and descriptions

    @Test("a number with a Common.ValueList is a value list that keeps to whole numbers")
    func numericValueList() throws {
        let form = try OData.form(try OData.importing("required-publication"), Self.publication)
        let publisher = try OData.field(form, "Publisher")
        #expect(publisher.kind == .valueList)
        #expect(publisher.list == "Publisher")
        #expect(publisher.constraints.pattern == KnownPattern.integer)
        #expect(publisher.label == "Publisher")
        #expect(form.list(id: "Publisher")?.external == true)
    }

    @Test("Core.Description is the hint when there is no Common.QuickInfo; QuickInfo wins")
    func descriptionHint() throws {
        let form = try OData.form(try OData.importing("required-publication"), Self.publication)
        #expect(try OData.field(form, "Summary").hint == "A sentence or two for the catalogue.")
        let both = try OData.v4Field(
            #"<Property Name="Note" Type="Edm.String" MaxLength="20"/>"#,
            annotations: """
                <Annotations Target="self.T/Note">
                  <Annotation Term="Core.Description" String="Long words"/>
                  <Annotation Term="Common.QuickInfo" String="Short words"/>
                </Annotations>
                """)
        #expect(both.hint == "Short words")
    }

    @Test("a Common.ValueList Label names a property that has no label of its own")
    func valueListLabel() throws {
        let unlabelled = try OData.v4Field(
            #"<Property Name="CURR_KEY" Type="Edm.String" MaxLength="5"/>"#,
            annotations: """
                <Annotations Target="self.T/CURR_KEY">
                  <Annotation Term="Common.ValueList"><Record>
                    <PropertyValue Property="Label" String="Currencies"/>
                    <PropertyValue Property="CollectionPath" String="Currencies"/>
                  </Record></Annotation>
                </Annotations>
                """)
        #expect(unlabelled.kind == .valueList)
        #expect(unlabelled.label == "Currencies")
        let labelled = try OData.v4Field(
            #"<Property Name="Curr" Type="Edm.String" MaxLength="5"/>"#,
            annotations: """
                <Annotations Target="self.T/Curr">
                  <Annotation Term="Common.Label" String="Currency"/>
                  <Annotation Term="Common.ValueList"><Record>
                    <PropertyValue Property="Label" String="Currencies"/>
                  </Record></Annotation>
                </Annotations>
                """)
        #expect(labelled.label == "Currency")
    }
}
