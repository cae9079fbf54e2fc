import Foundation
import Testing

@testable import FormImport
@testable import FormModel

/// Builds and imports OData documents for the tests: fixture files under Fixtures/odata, and
/// small documents written inline.
enum OData {
    static func fixture(_ name: String) throws -> ImportDocument {
        let url = try #require(
            Bundle.module.url(forResource: name, withExtension: "xml", subdirectory: "Fixtures/odata"),
            "no fixture odata/\(name).xml")
        return ImportDocument(name: "\(name).xml", data: Array(try Data(contentsOf: url)))
    }

    /// Imports documents, recording an issue if the import fails.
    static func importing(
        _ documents: [ImportDocument], sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws -> ImportResult {
        do {
            return try FormImporter.importDocuments(documents)
        } catch {
            Issue.record("the import failed: \(error)", sourceLocation: sourceLocation)
            throw error
        }
    }

    static func importing(
        _ fixtures: String..., sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws -> ImportResult {
        try importing(fixtures.map(fixture), sourceLocation: sourceLocation)
    }

    /// A CSDL V4 document around schema elements, with the usual vocabulary aliases declared.
    static func v4(
        _ schema: String, namespace: String = "demo", alias: String = "self", name: String = "service.xml",
        references: String = v4References
    ) -> ImportDocument {
        let text = """
            <?xml version="1.0" encoding="utf-8"?>
            <edmx:Edmx Version="4.0" xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx">
            \(references)
              <edmx:DataServices>
                <Schema Namespace="\(namespace)" Alias="\(alias)" xmlns="http://docs.oasis-open.org/odata/ns/edm">
            \(schema)
                </Schema>
              </edmx:DataServices>
            </edmx:Edmx>
            """
        return ImportDocument(name: name, data: Array(text.utf8))
    }

    static let v4References = """
          <edmx:Reference Uri="https://sap.github.io/odata-vocabularies/vocabularies/UI.xml">
            <edmx:Include Namespace="com.sap.vocabularies.UI.v1" Alias="UI"/>
          </edmx:Reference>
          <edmx:Reference Uri="https://sap.github.io/odata-vocabularies/vocabularies/Common.xml">
            <edmx:Include Namespace="com.sap.vocabularies.Common.v1" Alias="Common"/>
          </edmx:Reference>
          <edmx:Reference Uri="https://oasis-tcs.github.io/odata-vocabularies/vocabularies/Org.OData.Core.V1.xml">
            <edmx:Include Namespace="Org.OData.Core.V1" Alias="Core"/>
          </edmx:Reference>
          <edmx:Reference Uri="https://oasis-tcs.github.io/odata-vocabularies/vocabularies/Org.OData.Capabilities.V1.xml">
            <edmx:Include Namespace="Org.OData.Capabilities.V1" Alias="Capabilities"/>
          </edmx:Reference>
        """

    /// An OData V2 document around schema elements (the `sap` prefix declared).
    static func v2(_ schema: String, namespace: String = "DEMO_SRV", name: String = "metadata.xml") -> ImportDocument {
        let text = """
            <?xml version="1.0" encoding="utf-8"?>
            <edmx:Edmx Version="1.0" xmlns:edmx="http://schemas.microsoft.com/ado/2007/06/edmx" xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata" xmlns:sap="http://www.sap.com/Protocols/SAPData">
              <edmx:DataServices m:DataServiceVersion="2.0">
                <Schema Namespace="\(namespace)" xmlns="http://schemas.microsoft.com/ado/2008/09/edm">
            \(schema)
                </Schema>
              </edmx:DataServices>
            </edmx:Edmx>
            """
        return ImportDocument(name: name, data: Array(text.utf8))
    }

    /// An annotation-only V4 document that includes the service namespace under `alias`.
    static func annotations(
        _ body: String, service: String = "demo", alias: String = "SAP", name: String = "annotations.xml"
    ) -> ImportDocument {
        v4(
            body, namespace: "local", alias: "local", name: name,
            references: v4References + """

                  <edmx:Reference Uri="/here/goes/your/serviceurl/$metadata">
                    <edmx:Include Namespace="\(service)" Alias="\(alias)"/>
                  </edmx:Reference>
                """)
    }

    /// The form of an import with an id, recording an issue if there is none.
    static func form(
        _ result: ImportResult, _ id: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws -> FormSchema {
        try #require(
            result.forms.first { $0.id == id }, "no form \(id) in \(result.forms.map(\.id))",
            sourceLocation: sourceLocation)
    }

    /// The field of a form with a name, recording an issue if there is none.
    static func field(
        _ form: FormSchema, _ name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws -> Field {
        try #require(
            form.field(named: name), "no field \(name) in \(form.allFields.map(\.name))", sourceLocation: sourceLocation
        )
    }

    /// Which section and group label a field is in.
    static func place(of name: String, in form: FormSchema) -> (SectionKind, String?)? {
        for section in form.sections {
            for group in section.groups where group.fields.contains(where: { $0.name == name }) {
                return (section.kind, group.label)
            }
        }
        return nil
    }

    /// A minimal entity set around entity type members: `T`, keyed by `ID` (a string the user enters).
    static func entity(_ members: String, typeAnnotations: String = "", name: String = "T") -> String {
        """
          <EntityContainer Name="Container">
            <EntitySet Name="\(name)s" EntityType="self.\(name)"/>
          </EntityContainer>
          <EntityType Name="\(name)">
            <Key><PropertyRef Name="ID"/></Key>
            <Property Name="ID" Type="Edm.String" Nullable="false" MaxLength="10"/>
        \(members)
          </EntityType>
        \(typeAnnotations)
        """
    }

    /// The one field a one-set V4 service gives for a property declared with annotations.
    static func v4Field(
        _ property: String, annotations: String = "", sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws -> Field {
        let result = try importing([v4(entity(property) + annotations)], sourceLocation: sourceLocation)
        let form = try #require(result.forms.first, "no form", sourceLocation: sourceLocation)
        return try #require(
            form.allFields.first { $0.name != "ID" }, "no field besides ID", sourceLocation: sourceLocation)
    }

    /// The field of a one-set V2 service for a property.
    static func v2Field(_ property: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Field?
    {
        let schema = """
                  <EntityType Name="T">
                    <Key><PropertyRef Name="ID"/></Key>
                    <Property Name="ID" Type="Edm.String" Nullable="false" MaxLength="10"/>
                    \(property)
                  </EntityType>
                  <EntityContainer Name="DEMO_SRV_Entities" m:IsDefaultEntityContainer="true">
                    <EntitySet Name="TSet" EntityType="DEMO_SRV.T"/>
                  </EntityContainer>
            """
        let result = try importing([v2(schema)], sourceLocation: sourceLocation)
        let form = try #require(result.forms.first, "no form", sourceLocation: sourceLocation)
        return form.allFields.first { $0.name != "ID" }
    }

    /// The warnings of a code.
    static func warnings(_ result: ImportResult, _ code: ImportCode) -> [ImportWarning] {
        result.warnings.filter { $0.code == code }
    }
}
