import Foundation
import Testing

@testable import FormImport
@testable import FormModel

/// `UI.InputMask` on text properties: the default rules become the native grouped format, custom
/// rules a full-match pattern (the vocabulary's own example, `UI.InputMask-sample.xml`).
@Suite("OData UI.InputMask")
struct ODataInputMaskTests {
    static let service = OData.v4(
        """
        <EntityType Name="Customer">
          <Key><PropertyRef Name="ID"/></Key>
          <Property Name="ID" Type="Edm.Guid" Nullable="false"/>
          <Property Name="DUNS" Type="Edm.String" MaxLength="9"/>
          <Property Name="SwiftCode" Type="Edm.String" MaxLength="11"/>
          <Property Name="Plate" Type="Edm.String" MaxLength="8"/>
          <Property Name="Broken" Type="Edm.String" MaxLength="8"/>
        </EntityType>
        <EntityContainer Name="Service"><EntitySet Name="Customers" EntityType="demo.Customer"/></EntityContainer>
        <Annotations Target="demo.Customer/DUNS">
          <Annotation Term="UI.InputMask"><Record><PropertyValue Property="Mask" String="99-999-9999"/></Record></Annotation>
        </Annotations>
        <Annotations Target="demo.Customer/SwiftCode">
          <Annotation Term="UI.InputMask">
            <Record>
              <PropertyValue Property="Mask" String="CCCCCCAAAAA"/>
              <PropertyValue Property="Rules">
                <Collection>
                  <Record><PropertyValue Property="MaskSymbol" String="C"/><PropertyValue Property="RegExp" String="[A-Z]"/></Record>
                  <Record><PropertyValue Property="MaskSymbol" String="A"/><PropertyValue Property="RegExp" String="[A-Z0-9]"/></Record>
                </Collection>
              </PropertyValue>
            </Record>
          </Annotation>
        </Annotations>
        <Annotations Target="demo.Customer/Plate">
          <Annotation Term="UI.InputMask"><Record><PropertyValue Property="Mask" String="CC:9999"/></Record></Annotation>
        </Annotations>
        <Annotations Target="demo.Customer/Broken">
          <Annotation Term="UI.InputMask">
            <Record>
              <PropertyValue Property="Mask" String="XX"/>
              <PropertyValue Property="Rules">
                <Collection><Record><PropertyValue Property="MaskSymbol" String="X"/><PropertyValue Property="RegExp" String="[A-"/></Record></Collection>
              </PropertyValue>
            </Record>
          </Annotation>
        </Annotations>
        """)

    @Test(
        "the default rules give the native format: typed with or without the dashes, stored without them within MaxLength 9"
    )
    func defaultRules() throws {
        let result = try OData.importing([Self.service])
        let duns = try #require(try OData.form(result, "demo-customers").field(named: "DUNS"))
        #expect(duns.constraints.format == "##-###-####" && duns.constraints.pattern == nil)
        let schema = try OData.form(result, "demo-customers")
        for typed in ["12-345-6789", "123456789"] {
            let outcome = FormValidator.validate(
                schema, Submission(fields: ["ID": ["7c9e6679-7425-40de-944b-e07fc1f90ae7"], "DUNS": [typed]]))
            #expect(outcome.issues.isEmpty, "\(typed)")
            #expect(outcome.values["DUNS"] == .text("123456789"))
        }
        #expect(
            OData.warnings(result, "unused-annotation").allSatisfy { $0.term != "com.sap.vocabularies.UI.v1.InputMask" }
        )
    }

    @Test("custom rules, or literals that are not separators, give a full-match pattern")
    func customRules() throws {
        let schema = try OData.form(try OData.importing([Self.service]), "demo-customers")
        let swift = try #require(schema.field(named: "SwiftCode"))
        #expect(
            swift.constraints.pattern
                == "(?:[A-Z])(?:[A-Z])(?:[A-Z])(?:[A-Z])(?:[A-Z])(?:[A-Z])(?:[A-Z0-9])(?:[A-Z0-9])(?:[A-Z0-9])(?:[A-Z0-9])(?:[A-Z0-9])"
        )
        let plate = try #require(schema.field(named: "Plate"))
        #expect(plate.constraints.pattern == "(?:[a-zA-Z])(?:[a-zA-Z]):(?:[0-9])(?:[0-9])(?:[0-9])(?:[0-9])")
        func issues(_ name: String, _ value: String) -> [FieldIssue] {
            FormValidator.validate(
                schema, Submission(fields: ["ID": ["7c9e6679-7425-40de-944b-e07fc1f90ae7"], name: [value]])
            ).issues
        }
        #expect(issues("SwiftCode", "DEUTDEFF500").isEmpty)
        #expect(issues("SwiftCode", "deutdeff500").map(\.code) == ["pattern"])
        #expect(issues("Plate", "AB:1234").isEmpty)
        #expect(issues("Plate", "AB1234").map(\.code) == ["pattern"])
    }

    @Test("a rule the server cannot use leaves the field without a mask, and the report says why")
    func badRule() throws {
        let result = try OData.importing([Self.service])
        let broken = try #require(try OData.form(result, "demo-customers").field(named: "Broken"))
        #expect(broken.constraints.pattern == nil && broken.constraints.format == nil)
        #expect(
            result.warnings.contains {
                $0.message.contains("a rule of its UI.InputMask is not one symbol with a regular expression")
            })
    }
}
