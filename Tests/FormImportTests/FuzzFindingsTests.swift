import Foundation
import Testing

@testable import FormImport
@testable import FormModel

/// Inputs the importer fuzzer (`scripts/fuzz`) found, reduced by hand, with what they must give.
@Suite("Fuzz findings")
struct FuzzFindingsTests {
    @Test("a property declared twice in a type gives one field, from the first declaration, and a warning")
    func propertyDeclaredTwice() throws {
        let document = OData.v4(
            """
            <EntityType Name="Order">
              <Key><PropertyRef Name="ID"/></Key>
              <Property Name="ID" Type="Edm.String" MaxLength="10" Nullable="false"/>
              <Property Name="RequiredDate" Type="Edm.Date"/>
              <Property Name="Note" Type="Edm.String" MaxLength="40"/>
              <Property Name="RequiredDate" Type="Edm.String" MaxLength="20"/>
            </EntityType>
            <EntityContainer Name="Service">
              <EntitySet Name="Orders" EntityType="demo.Order"/>
            </EntityContainer>
            """)
        let result = try OData.importing([document])
        let form = try #require(result.forms.first)
        #expect(form.ruleViolations().isEmpty)
        #expect(form.allFields.filter { $0.name == "RequiredDate" }.map(\.kind) == [.date])
        #expect(
            result.warnings.contains {
                $0.code == .mappingDropped
                    && $0.message == "Order/RequiredDate is declared twice; the second declaration is left out."
                    && $0.line > 0
            })
    }

    @Test(
        "a Decimal's Scale outside 0 to 18, with or without a Precision, is left out with a warning",
        arguments: [#"Scale="19""#, #"Scale="-1""#, #"Precision="30" Scale="25""#])
    func scaleOutOfRange(_ facets: String) throws {
        let result = try OData.importing([
            OData.v4(OData.entity(#"<Property Name="WeightMeasure" Type="Edm.Decimal" \#(facets)/>"#))
        ])
        let form = try #require(result.forms.first)
        #expect(form.ruleViolations().isEmpty, "\(form.ruleViolations())")
        #expect(try OData.field(form, "WeightMeasure").constraints.scale == nil)
        #expect(result.warnings.contains { $0.code == .mappingDropped && $0.message.contains("WeightMeasure") })
    }
}
