import FormXML
import Foundation
import Testing

@testable import FormImport
@testable import FormModel

/// Reading EDMX as real files write it: namespaces not prefixes, aliases, layers, qualifiers,
/// targets, and the import report.
@Suite("OData reading and report")
struct ODataReaderTests {
    static let labelled = """
              <Annotations Target="self.T/P"><Annotation Term="Common.Label" String="From the alias"/></Annotations>
        """

    @Test(
        "terms resolve through Include aliases, SAP__ style aliases and full namespaces alike",
        arguments: [
            "Common.Label", "SAP__common.Label", "com.sap.vocabularies.Common.v1.Label",
        ])
    func termAliases(_ term: String) throws {
        let references =
            OData.v4References + """

                  <edmx:Reference Uri="https://sap.github.io/odata-vocabularies/vocabularies/Common.xml">
                    <edmx:Include Namespace="com.sap.vocabularies.Common.v1" Alias="SAP__common"/>
                  </edmx:Reference>
                """
        let annotations =
            #"<Annotations Target="self.T/P"><Annotation Term="\#(term)" String="Resolved"/></Annotations>"#
        let result = try OData.importing([
            OData.v4(OData.entity(#"<Property Name="P" Type="Edm.String"/>"#) + annotations, references: references)
        ])
        #expect(try OData.field(try #require(result.forms.first), "P").label == "Resolved")
        #expect(OData.warnings(result, "undeclared-alias").isEmpty)
    }

    @Test(
        "targets resolve through the schema's alias and its full namespace",
        arguments: ["self.T/P", "demo.T/P", "  demo.T/P "])
    func targetAliases(_ target: String) throws {
        let annotations =
            #"<Annotations Target="\#(target)"><Annotation Term="Common.Label" String="Found"/></Annotations>"#
        let field = try OData.v4Field(#"<Property Name="P" Type="Edm.String"/>"#, annotations: annotations)
        #expect(field.label == "Found")
    }

    @Test("annotation paths resolve aliases in their term: @UI.FieldGroup#Q written with any alias")
    func annotationPathAliases() throws {
        let annotations = """
              <Annotations Target="self.T">
                <Annotation Term="com.sap.vocabularies.UI.v1.Facets">
                  <Collection><Record Type="UI.ReferenceFacet">
                    <PropertyValue Property="Label" String="Group"/>
                    <PropertyValue Property="Target" AnnotationPath="@com.sap.vocabularies.UI.v1.FieldGroup#Q"/>
                  </Record></Collection>
                </Annotation>
                <Annotation Term="UI.FieldGroup" Qualifier="Q">
                  <Record><PropertyValue Property="Data"><Collection>
                    <Record Type="UI.DataField"><PropertyValue Property="Value" Path="P"/></Record>
                  </Collection></PropertyValue></Record>
                </Annotation>
              </Annotations>
            """
        let properties = #"<Property Name="P" Type="Edm.Int32"/><Property Name="Q" Type="Edm.Int32"/>"#
        let form = try #require(
            try OData.importing([OData.v4(OData.entity(properties, typeAnnotations: annotations))]).forms.first)
        #expect(OData.place(of: "P", in: form)?.1 == "Group")
        #expect(form.field(named: "Q") == nil)
    }

    @Test("qualifiers select among annotations of one term; Annotations Qualifier applies to its annotations")
    func qualifiers() throws {
        let annotations = """
              <Annotations Target="self.T">
                <Annotation Term="UI.Facets">
                  <Collection>
                    <Record Type="UI.ReferenceFacet"><PropertyValue Property="Target" AnnotationPath="@UI.FieldGroup#B"/></Record>
                    <Record Type="UI.ReferenceFacet"><PropertyValue Property="Target" AnnotationPath="@UI.FieldGroup#A"/></Record>
                  </Collection>
                </Annotation>
              </Annotations>
              <Annotations Target="self.T" Qualifier="A">
                <Annotation Term="UI.FieldGroup">
                  <Record><PropertyValue Property="Label" String="A"/><PropertyValue Property="Data"><Collection>
                    <Record Type="UI.DataField"><PropertyValue Property="Value" Path="P"/></Record>
                  </Collection></PropertyValue></Record>
                </Annotation>
              </Annotations>
              <Annotations Target="self.T">
                <Annotation Term="UI.FieldGroup" Qualifier="B">
                  <Record><PropertyValue Property="Label" String="B"/><PropertyValue Property="Data"><Collection>
                    <Record Type="UI.DataField"><PropertyValue Property="Value" Path="Q"/></Record>
                  </Collection></PropertyValue></Record>
                </Annotation>
                <Annotation Term="UI.FieldGroup">
                  <Record><PropertyValue Property="Label" String="Unqualified"/><PropertyValue Property="Data"><Collection>
                    <Record Type="UI.DataField"><PropertyValue Property="Value" Path="R"/></Record>
                  </Collection></PropertyValue></Record>
                </Annotation>
              </Annotations>
            """
        let properties =
            #"<Property Name="P" Type="Edm.Int32"/><Property Name="Q" Type="Edm.Int32"/><Property Name="R" Type="Edm.Int32"/>"#
        let result = try OData.importing([OData.v4(OData.entity(properties, typeAnnotations: annotations))])
        let form = try #require(result.forms.first)
        #expect(form.section(.properties)?.groups.map(\.label) == ["B", "A"])
        #expect(form.field(named: "R") == nil)
        #expect(OData.warnings(result, "unused-annotation").first { $0.term == "UI.FieldGroup" }?.count == 1)
    }

    @Test("elements are matched by namespace URI: a rebound edmx prefix and other prefixes read the same")
    func prefixes() throws {
        let text = """
            <?xml version="1.0"?>
            <x:Edmx Version="1.0" xmlns:x="http://schemas.microsoft.com/ado/2007/06/edmx" xmlns:s="http://www.sap.com/Protocols/SAPData">
              <edmx:Reference Uri="v" xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx">
                <edmx:Include Namespace="com.sap.vocabularies.Common.v1" Alias="C"/>
              </edmx:Reference>
              <edmx:Reference Uri="w" xmlns:edmx="urn:not-edmx">
                <edmx:Include Namespace="com.sap.vocabularies.UI.v1" Alias="C"/>
              </edmx:Reference>
              <x:DataServices>
                <e:Schema Namespace="S" xmlns:e="http://schemas.microsoft.com/ado/2009/11/edm">
                  <e:EntityType Name="T" s:label="Thing">
                    <e:Key><e:PropertyRef Name="ID"/></e:Key>
                    <e:Property Name="ID" Type="Edm.String" Nullable="false"/>
                    <e:Property Name="P" Type="Edm.String" s:label="From sap"/>
                    <edm:Property Name="Ignored" Type="Edm.String" xmlns:edm="urn:not-edm"/>
                  </e:EntityType>
                  <e:EntityContainer Name="C1"><e:EntitySet Name="Ts" EntityType="S.T"/></e:EntityContainer>
                  <a:Annotations Target="S.T/ID" xmlns:a="http://docs.oasis-open.org/odata/ns/edm">
                    <a:Annotation Term="C.Label" String="Identifier"/>
                  </a:Annotations>
                </e:Schema>
              </x:DataServices>
            </x:Edmx>
            """
        let result = try OData.importing([ImportDocument(name: "prefixes.xml", data: Array(text.utf8))])
        let form = try #require(result.forms.first)
        #expect(form.id == "s-ts" && form.title == "New Thing")
        #expect(try OData.field(form, "ID").label == "Identifier")
        #expect(try OData.field(form, "P").label == "From sap")
        #expect(form.field(named: "Ignored") == nil)
    }

    @Test("annotation documents layer in order: later documents override earlier ones, all override the metadata")
    func layering() throws {
        let result = try OData.importing("layers-metadata", "layers-backend", "layers-local")
        #expect(result.kind == .odataV2)
        #expect(result.sources.map(\.name) == ["layers-metadata.xml", "layers-backend.xml", "layers-local.xml"])
        let form = try OData.form(result, "product-srv-products")
        #expect(try OData.field(form, "Name").label == "Name (local)")
        #expect(try OData.field(form, "Description").label == "Description (backend)")
        // The local FieldGroup#Main replaces the backend's (Name, Price) and the metadata's (Category),
        // under the backend's facet; Price, Mandatory in the metadata, is still a field after it.
        #expect(form.section(.properties)?.groups.map(\.label) == ["Main", "Also required"])
        #expect(form.section(.properties)?.groups.first?.fields.map(\.name) == ["Name", "Description"])
        #expect(form.section(.properties)?.groups.last?.fields.map(\.name) == ["Price"])
        #expect(form.field(named: "Category") == nil)
    }

    @Test("overridden annotations are not reported as unused; ones in effect that no form read are")
    func layeringReport() throws {
        let result = try OData.importing("layers-metadata", "layers-backend", "layers-local")
        let unused = OData.warnings(result, "unused-annotation")
        // Category's (read-only, and Category is no field); Price's Mandatory put Price on the form.
        #expect(unused.map(\.term) == ["Common.FieldControl"])
        #expect(unused.first?.count == 1)
        #expect(unused.first?.file == "layers-metadata.xml")
    }

    @Test("an annotation document whose targets match nothing gives a warning, not an error")
    func unknownTargets() throws {
        let result = try OData.importing("layers-metadata", "layers-backend", "layers-local")
        let warning = try #require(OData.warnings(result, "unknown-target").first)
        #expect(warning.file == "layers-local.xml")
        #expect(
            warning.message
                == "1 annotation target matches nothing in the metadata (\"PRODUCT_SRV.NoSuchType/Name\"); their annotations are ignored."
        )
        let stray = OData.annotations(
            #"<Annotations Target="SAP.Nothing"><Annotation Term="Common.Label" String="x"/></Annotations>"#)
        let strayResult = try OData.importing([OData.v4(OData.entity("")), stray])
        #expect(strayResult.forms.count == 1)
        #expect(OData.warnings(strayResult, "unknown-target").first?.file == "annotations.xml")
    }

    @Test("targets: Container/EntitySet, the container without its namespace, operation overloads quietly unused")
    func targets() throws {
        let schema =
            OData.entity(#"<Property Name="P" Type="Edm.String"/>"#)
                + """
                  <Action Name="act" IsBound="true"><Parameter Name="_it" Type="self.T"/></Action>
                  <Annotations Target="self.act(self.T)"><Annotation Term="Core.OperationAvailable" Bool="true"/></Annotations>
                  <Annotations Target="self.act(Collection(demo.T))/_it"><Annotation Term="Core.Description" String="x"/></Annotations>
                  <Annotations Target="Container/Ts">
                    <Annotation Term="Capabilities.InsertRestrictions">
                      <Record><PropertyValue Property="RequiredProperties"><Collection><PropertyPath>P</PropertyPath></Collection></PropertyValue></Record>
                    </Annotation>
                  </Annotations>
                """
        let result = try OData.importing([OData.v4(schema)])
        #expect(try OData.field(try #require(result.forms.first), "P").required)
        #expect(OData.warnings(result, "unknown-target").isEmpty)
        #expect(
            Set(OData.warnings(result, "unused-annotation").compactMap(\.term)) == [
                "Core.OperationAvailable", "Core.Description",
            ])
    }

    @Test("element notation reads as attribute notation: String, Bool, EnumMember, Path, records, collections")
    func elementNotation() throws {
        let annotations = """
              <Annotations Target="self.T/P">
                <Annotation Term="Common.Label"><String>Element label</String></Annotation>
                <Annotation Term="Common.FieldControl"><EnumMember>Common.FieldControlType/Mandatory</EnumMember></Annotation>
              </Annotations>
              <Annotations Target="self.T/Q">
                <Annotation Term="UI.Hidden"><Bool>true</Bool></Annotation>
              </Annotations>
              <Annotations Target="self.Container/Ts">
                <Annotation Term="Capabilities.InsertRestrictions">
                  <Record><PropertyValue Property="Insertable"><Bool>true</Bool></PropertyValue></Record>
                </Annotation>
              </Annotations>
            """
        let properties = #"<Property Name="P" Type="Edm.String"/><Property Name="Q" Type="Edm.String"/>"#
        let form = try #require(try OData.importing([OData.v4(OData.entity(properties) + annotations)]).forms.first)
        let p = try OData.field(form, "P")
        #expect(p.label == "Element label" && p.required)
        #expect(form.field(named: "Q") == nil)
    }

    @Test("inline annotations on properties, types and entity sets, and annotations nested in records")
    func inlineAnnotations() throws {
        let schema = """
              <EntityContainer Name="Container">
                <EntitySet Name="Ts" EntityType="self.T">
                  <Annotation Term="Capabilities.InsertRestrictions"><Record><PropertyValue Property="Insertable" Bool="false"/></Record></Annotation>
                </EntitySet>
                <EntitySet Name="Us" EntityType="self.T"/>
              </EntityContainer>
              <EntityType Name="T">
                <Annotation Term="Common.Label" String="Inline Thing"/>
                <Annotation Term="UI.Identification">
                  <Collection>
                    <Record Type="UI.DataField"><PropertyValue Property="Value" Path="ID"/></Record>
                    <Record Type="UI.DataField"><PropertyValue Property="Value" Path="P"/><Annotation Term="UI.Hidden"/></Record>
                  </Collection>
                </Annotation>
                <Key><PropertyRef Name="ID"/></Key>
                <Property Name="ID" Type="Edm.String" Nullable="false"><Annotation Term="Common.Label" String="Inline label"/></Property>
                <Property Name="P" Type="Edm.String"/>
              </EntityType>
            """
        let result = try OData.importing([OData.v4(schema)])
        #expect(result.skipped.map(\.name) == ["Ts"])
        let form = try #require(result.forms.first)
        #expect(form.title == "New Inline Thing")
        #expect(form.allFields.map(\.name) == ["ID"])
        #expect(try OData.field(form, "ID").label == "Inline label")
    }

    @Test("unused annotations are one warning per term with a count, named by the short vocabulary name")
    func unusedByTerm() throws {
        let result = try OData.importing("rules-v4")
        let unused = OData.warnings(result, "unused-annotation")
        #expect(Set(unused.compactMap(\.term)).count == unused.count)
        let lineItem = try #require(unused.first { $0.term == "UI.LineItem" })
        #expect(lineItem.count == 1 && lineItem.message == "UI.LineItem: 1 annotation not used for any form.")
        #expect(
            Vocabulary.displayName(ofTerm: "Org.OData.Aggregation.V1.ApplySupported")
                == "Org.OData.Aggregation.V1.ApplySupported")
        #expect(
            Vocabulary.displayName(ofTerm: "com.sap.vocabularies.Communication.v1.Contact") == "Communication.Contact")
    }

    @Test("an unqualified enumeration member is reported; the member is still read")
    func unqualifiedEnumMember() throws {
        let annotations =
            #"<Annotations Target="self.T/P"><Annotation Term="Common.FieldControl" EnumMember="Mandatory"/></Annotations>"#
        let result = try OData.importing([
            OData.v4(OData.entity(#"<Property Name="P" Type="Edm.String"/>"#) + annotations)
        ])
        #expect(OData.warnings(result, "unqualified-enum-value").count == 1)
        #expect(try OData.field(try #require(result.forms.first), "P").required)
    }

    @Test("CAP text keys left in labels read as the key in words; in hints they are dropped")
    func textKeys() throws {
        let annotations = """
              <Annotations Target="self.T/P">
                <Annotation Term="Common.Label" String="{i18n>CreatedAt}"/>
                <Annotation Term="Common.QuickInfo" String="{i18n>UserID.Description}"/>
              </Annotations>
            """
        let field = try OData.v4Field(#"<Property Name="P" Type="Edm.String"/>"#, annotations: annotations)
        #expect(field.label == "Created At" && field.hint == nil)
    }

    @Test(
        "a text key gives way to a label that is text further down: a DataField's key to Common.Label, a facet's to its field group's"
    )
    func textKeyGivesWay() throws {
        let annotations = """
              <Annotations Target="self.T">
                <Annotation Term="UI.Facets"><Collection>
                  <Record Type="UI.ReferenceFacet">
                    <PropertyValue Property="Label" String="{@i18n>generalInformation}"/>
                    <PropertyValue Property="Target" AnnotationPath="@UI.FieldGroup#Main"/>
                  </Record>
                </Collection></Annotation>
                <Annotation Term="UI.FieldGroup" Qualifier="Main"><Record>
                  <PropertyValue Property="Label" String="General"/>
                  <PropertyValue Property="Data"><Collection>
                    <Record Type="UI.DataField">
                      <PropertyValue Property="Label" String="{@i18n>labelStatus}"/><PropertyValue Property="Value" Path="Status"/>
                    </Record>
                    <Record Type="UI.DataField">
                      <PropertyValue Property="Label" String="{@i18n>labelNote}"/><PropertyValue Property="Value" Path="Note"/>
                    </Record>
                  </Collection></PropertyValue>
                </Record></Annotation>
              </Annotations>
              <Annotations Target="self.T/Status"><Annotation Term="Common.Label" String="Status"/></Annotations>
            """
        let members = """
            <Property Name="Status" Type="Edm.String" MaxLength="10"/>
            <Property Name="Note" Type="Edm.String" MaxLength="10"/>
            """
        let form = try #require(
            try OData.importing([OData.v4(OData.entity(members, typeAnnotations: annotations))]).forms.first)
        #expect(try OData.field(form, "Status").label == "Status")
        #expect(try OData.field(form, "Note").label == "Label Note", "no text further down: the key in words")
        let groups = form.sections.first { $0.kind == .properties }?.groups ?? []
        #expect(groups.map(\.label) == ["General"])
    }

    @Test("a property annotated through its entity set (Container/Set/Property) is annotated like Type/Property")
    func memberThroughEntitySet() throws {
        let annotations = """
              <Annotations Target="self.Container/Ts/Note">
                <Annotation Term="Common.Label" String="Remark"/>
              </Annotations>
              <Annotations Target="Container/Ts/Size"><Annotation Term="Common.Label" String="Shoe size"/></Annotations>
              <Annotations Target="self.Container/Ts">
                <Annotation Term="Capabilities.InsertRestrictions"><Record><PropertyValue Property="Insertable" Bool="true"/></Record></Annotation>
              </Annotations>
            """
        let members = """
            <Property Name="Note" Type="Edm.String" MaxLength="20"/>
            <Property Name="Size" Type="Edm.String" MaxLength="20"/>
            """
        let result = try OData.importing([OData.v4(OData.entity(members) + annotations)])
        let form = try #require(result.forms.first)
        #expect(try OData.field(form, "Note").label == "Remark")
        #expect(try OData.field(form, "Size").label == "Shoe size", "the container written without its namespace")
        #expect(OData.warnings(result, .unusedAnnotation).isEmpty)
        #expect(OData.warnings(result, .unknownTarget).isEmpty)
    }

    @Test("a property name that is not a valid field name is renamed and reported")
    func renamedField() throws {
        let result = try OData.importing([OData.v4(OData.entity(#"<Property Name="Größe" Type="Edm.String"/>"#))])
        let form = try #require(result.forms.first)
        #expect(form.allFields.map(\.name).contains("Gr__e"))
        #expect(OData.warnings(result, "renamed-field").count == 1)
        #expect(form.ruleViolations().isEmpty)
    }

    @Test("every fixture maps to sound forms by construction: no field is left out for breaking a schema rule")
    func soundByConstruction() throws {
        for documents in [["rules-v4"], ["rules-v2"], ["layers-metadata", "layers-backend", "layers-local"]] {
            let result = try OData.importing(try documents.map(OData.fixture))
            #expect(OData.warnings(result, "rule-violation").isEmpty, "\(documents)")
            for form in result.forms { #expect(form.ruleViolations().isEmpty, "\(form.id)") }
        }
    }

    @Test("the parsed documents are freed when the import returns")
    func documentsFreed() throws {
        weak var freed: LeanXMLDocument?
        do {
            let parsed = FormImporter.parse(try OData.fixture("rules-v2"))
            guard case .odata(let document)? = parsed.recognised else {
                Issue.record("rules-v2 is read as EDMX")
                return
            }
            freed = document.xml
            #expect(document.version == .v2)
            let output = ODataImporter.importDocuments([document])
            #expect(output.forms.count == 4)
        }
        #expect(freed == nil)
    }

    @Test("a type named without its namespace is read in its schema, and V2's True is true")
    func unqualifiedTypes() throws {
        let schema = """
                  <EntityType Name="T"><Key><PropertyRef Name="ID"/></Key>
                    <Property Name="ID" Type="Edm.String" Nullable="False"/>
                    <Property Name="Colour" Type="Colour"/>
                  </EntityType>
                  <EnumType Name="Colour" UnderlyingType="Edm.Int32" IsFlags="True">
                    <Member Name="Red" Value="1"/><Member Name="Blue" Value="2"/>
                  </EnumType>
                  <EntityContainer Name="C"><EntitySet Name="Ts" EntityType="T"/></EntityContainer>
            """
        let form = try #require(try OData.importing([OData.v2(schema)]).forms.first)
        let colour = try OData.field(form, "Colour")
        #expect(colour.kind == .chips && colour.constraints.multiple)
        #expect(try OData.field(form, "ID").required)
    }

    @Test("elements keep the line of their start tag, however long and however many lines the tag takes")
    func tagLines() throws {
        let padding = String(repeating: " ", count: 37)
        let text = """
            <edmx:Edmx Version="4.0" xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx"><edmx:DataServices>
            <Schema Namespace="demo" xmlns="http://docs.oasis-open.org/odata/ns/edm">
            <EntityContainer Name="C"><EntitySet Name="Ts" EntityType="demo.T"/></EntityContainer>
            <EntityType Name="T"><Key><PropertyRef Name="ID"/></Key>
            <Property Name="ID" Type="Edm.String" Nullable="false"/>
            <Property\(padding)Name="Long"\(padding)Type="Edm.String"\(padding)MaxLength="10"
            \(padding)Nullable="true"
            \(padding)/><Property Name="Short"
            Type="Edm.String"/></EntityType></Schema></edmx:DataServices></edmx:Edmx>
            """
        let form = try #require(
            try OData.importing([ImportDocument(name: "lines.xml", data: Array(text.utf8))]).forms.first)
        #expect(try OData.field(form, "Long").location?.line == 6)
        #expect(try OData.field(form, "Short").location?.line == 8)
    }

    @Test("a document without entity sets imports with a no-forms warning")
    func noForms() throws {
        let result = try OData.importing([
            OData.v4(#"<EntityType Name="T"><Property Name="P" Type="Edm.String"/></EntityType>"#)
        ])
        #expect(result.forms.isEmpty)
        #expect(OData.warnings(result, "no-forms").count == 1)
    }
}
