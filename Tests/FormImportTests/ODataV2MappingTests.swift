import Foundation
import Testing

@testable import FormImport
@testable import FormModel

/// The mapping rules of docs/odata.md on OData V2 with `sap:` attributes (fixture rules-v2.xml
/// and inline services).
@Suite("OData V2 mapping")
struct ODataV2MappingTests {
    static let id = "gwsample-basic-businesspartnerset"

    @Test("one form per creatable entity set; sap:creatable=\"false\" on the set skips it with the reason")
    func formsPerSet() throws {
        let result = try OData.importing("rules-v2")
        #expect(result.kind == .odataV2)
        #expect(
            result.forms.map(\.id) == [
                "gwsample-basic-businesspartnerset", "gwsample-basic-contactset", "gwsample-basic-productset",
                "gwsample-basic-businesspartnerset-2",
            ])
        #expect(result.skipped.map(\.name) == ["VH_CountrySet"])
        #expect(result.skipped.first?.reason == "Not insertable: sap:creatable=\"false\".")
    }

    @Test("form ids: slug of namespace and set; a clash gets -2 and is reported")
    func formIDs() throws {
        let result = try OData.importing("rules-v2")
        let clash = try #require(OData.warnings(result, "duplicate-form-id").first)
        #expect(
            clash.message
                == "The entity sets BusinessPartnerSet and BUSINESSPARTNERSET both give the form id \"gwsample-basic-businesspartnerset\"; BUSINESSPARTNERSET's form is \"gwsample-basic-businesspartnerset-2\"."
        )
        #expect(FormIDs.slug("GWSAMPLE_BASIC-BusinessPartnerSet") == "gwsample-basic-businesspartnerset")
        #expect(
            FormIDs.slug("com.sap.gateway.srvd.dmo.sd_travel_mduu.v0001-Travel")
                == "com-sap-gateway-srvd-dmo-sd-travel-mduu-v0001-travel")
        #expect(FormIDs.slug("__") == "form")
    }

    @Test("title from the entity type's sap:label, else its name in words")
    func titles() throws {
        let result = try OData.importing("rules-v2")
        #expect(try OData.form(result, Self.id).title == "New Business Partner")
        #expect(try OData.form(result, "gwsample-basic-contactset").title == "New Contact")
    }

    @Test("labels from sap:label, else the name in words; hints from sap:quickinfo; a Common.Label wins over sap:label")
    func labels() throws {
        let result = try OData.importing("rules-v2")
        let form = try OData.form(result, Self.id)
        #expect(try OData.field(form, "CompanyName").label == "Company Name")
        #expect(try OData.field(form, "CompanyName").hint == "Name of the company")
        #expect(try OData.field(form, "Region").label == "Sales Region")
        #expect(try OData.field(form, "Region").hint == "Region of the sales office")
        #expect(
            try OData.field(try OData.form(result, "gwsample-basic-contactset"), "FIRST_NAME").label == "First Name")
    }

    @Test(
        "not a field: sap:visible=\"false\", sap:creatable and sap:updatable both false, navigation properties, StoreGeneratedPattern"
    )
    func notFields() throws {
        let result = try OData.importing("rules-v2")
        let form = try OData.form(result, Self.id)
        for name in ["SearchTerm", "BusinessPartnerID", "CreatedBy", "Note_fc", "ToContacts"] {
            #expect(form.field(named: name) == nil, "\(name)")
        }
        #expect(try OData.form(result, "gwsample-basic-productset").field(named: "ProductID") == nil)
    }

    @Test("sap:creatable=\"false\" alone is read-only; sap:updatable=\"false\" is create-only")
    func editability() throws {
        let form = try OData.form(try OData.importing("rules-v2"), Self.id)
        #expect(try OData.field(form, "Status").editable == .no)
        #expect(try OData.field(form, "PartnerRole").editable == .createOnly)
    }

    @Test("a key the user enters is required and create-only; Nullable=\"false\" is required; RequiredProperties too")
    func required() throws {
        let result = try OData.importing("rules-v2")
        let contact = try OData.form(result, "gwsample-basic-contactset")
        let guid = try OData.field(contact, "ContactGuid")
        #expect(guid.required && guid.editable == .createOnly && guid.constraints.pattern == KnownPattern.uuid)
        #expect(try OData.field(contact, "LastName").required)
        let partner = try OData.form(result, Self.id)
        #expect(try OData.field(partner, "CompanyName").required)
        #expect(try OData.field(partner, "IsActive").required == false)
    }

    @Test("sap:field-control is a path: reported, and the field stays optional and editable")
    func fieldControl() throws {
        let result = try OData.importing("rules-v2")
        let note = try OData.field(try OData.form(result, Self.id), "Note")
        #expect(!note.required && note.editable == .yes)
        #expect(OData.warnings(result, "dynamic-field-control").first?.message.contains("Note") == true)
    }

    @Test("sap:semantics email, tel and url set the text type; sap:display-format UpperCase stores upper case")
    func textFlavours() throws {
        let form = try OData.form(try OData.importing("rules-v2"), Self.id)
        #expect(try OData.field(form, "EmailAddress").constraints.textType == .email)
        #expect(try OData.field(form, "PhoneNumber").constraints.textType == .tel)
        #expect(try OData.field(form, "WebAddress").constraints.textType == .url)
        let legalForm = try OData.field(form, "LegalForm")
        #expect(legalForm.constraints.upperCase)
        let outcome = FormValidator.check(
            legalForm, in: form, Submission(fields: ["LegalForm": ["gmbh"]]), ValidationContext())
        #expect(outcome == .value(.text("GMBH")))
    }

    @Test(
        "Edm.DateTime with display-format Date is a date, else a datetime; DateTimeOffset a datetime; Edm.Time a time")
    func temporalKinds() throws {
        let form = try OData.form(try OData.importing("rules-v2"), Self.id)
        #expect(try OData.field(form, "FoundedOn").kind == .date)
        #expect(try OData.field(form, "ChangedAt").kind == .datetime)
        #expect(try OData.field(form, "ReportedAt").kind == .datetime)
        #expect(try OData.field(form, "OpensAt").kind == .time)
        #expect(try OData.field(form, "IsActive").kind == .switch)
    }

    @Test("numbers: Precision and Scale, display-format NonNegative gives min 0")
    func numbers() throws {
        let form = try OData.form(try OData.importing("rules-v2"), Self.id)
        let limit = try OData.field(form, "CreditLimit").constraints
        #expect(limit.min == "-999999999999.999" && limit.max == "999999999999.999" && limit.scale == 3)
        let employees = try OData.field(form, "Employees").constraints
        #expect(employees.min == "0" && employees.max == "2147483647" && employees.scale == 0)
    }

    @Test("a string with display-format NonNegative is a digit sequence (SAP's code fields)")
    func nonNegativeText() throws {
        let field = try #require(
            try OData.v2Field(
                #"<Property Name="Plant" Type="Edm.String" MaxLength="4" sap:display-format="NonNegative"/>"#))
        #expect(field.kind == .text)
        #expect(field.constraints.pattern == KnownPattern.digits)
    }

    @Test("SuccessFactors' sap:required=\"true\" makes a field required, without an unknown-attribute warning")
    func sapRequired() throws {
        let required = try #require(
            try OData.v2Field(#"<Property Name="Name" Type="Edm.String" MaxLength="40" sap:required="true"/>"#))
        #expect(required.required)
        let optional = try #require(
            try OData.v2Field(#"<Property Name="Name" Type="Edm.String" MaxLength="40" sap:required="false"/>"#))
        #expect(!optional.required)
        let result = try OData.importing([
            OData.v2(
                """
                  <EntityType Name="T"><Key><PropertyRef Name="ID"/></Key>
                    <Property Name="ID" Type="Edm.String" Nullable="false" MaxLength="10"/>
                    <Property Name="Name" Type="Edm.String" MaxLength="40" sap:required="true"/>
                  </EntityType>
                  <EntityContainer Name="C" m:IsDefaultEntityContainer="true"><EntitySet Name="Ts" EntityType="DEMO_SRV.T"/></EntityContainer>
                """)
        ])
        #expect(OData.warnings(result, "unknown-sap-attribute").isEmpty)
    }

    @Test("sap:value-list standard, fixed-values and the undocumented true give value lists; a number keeps to numbers")
    func valueLists() throws {
        let form = try OData.form(try OData.importing("rules-v2"), Self.id)
        for name in ["CurrencyCode", "Country", "Region", "Rating"] {
            let field = try OData.field(form, name)
            #expect(field.kind == .valueList && field.list == name, "\(name)")
            #expect(form.list(id: name)?.external == true, "\(name)")
        }
        #expect(try OData.field(form, "Country").presentation.searchable == false)
        #expect(try OData.field(form, "CurrencyCode").presentation.searchable)
        let rating = try OData.field(form, "Rating")
        #expect(rating.constraints.pattern == "-?[0-9]+")
        let refused = FormValidator.check(
            rating, in: form, Submission(fields: ["Rating": ["five"]]), ValidationContext())
        #expect(refused != .value(.choice("five")))
    }

    @Test("sap:unit keeps the unit property a field and names it in the amount's hint")
    func units() throws {
        let form = try OData.form(try OData.importing("rules-v2"), Self.id)
        #expect(try OData.field(form, "CreditLimit").hint == "In the currency given in Currency.")
        #expect(form.field(named: "CurrencyCode") != nil)
    }

    @Test("m:HasStream gives a required attachments field in the accessory area")
    func media() throws {
        let form = try OData.form(try OData.importing("rules-v2"), "gwsample-basic-productset")
        let file = try OData.field(form, "file")
        #expect(file.kind == .attachments && file.required && file.constraints.maxCount == 1)
        #expect(OData.place(of: "file", in: form)?.0 == .accessory)
    }

    @Test("Edm.Binary is reported as not a field yet")
    func unsupported() throws {
        let result = try OData.importing("rules-v2")
        #expect(try OData.form(result, Self.id).field(named: "Logo") == nil)
        #expect(OData.warnings(result, "unsupported-type").first?.message.contains("Logo (Edm.Binary)") == true)
    }

    @Test("misspelt sap: attributes are reported with the likely one, counted")
    func typos() throws {
        let warnings = OData.warnings(try OData.importing("rules-v2"), "unknown-sap-attribute")
        #expect(
            warnings.map(\.message) == [
                "sap:content-versiom (did you mean sap:content-version?) is not an SAP annotation attribute; it is ignored.",
                "sap:lable (did you mean sap:label?) is not an SAP annotation attribute; it is ignored.",
            ])
    }

    @Test("an alias used without a reference is reported and read as its usual vocabulary")
    func undeclaredAlias() throws {
        let result = try OData.importing("rules-v2")
        let warning = try #require(OData.warnings(result, "undeclared-alias").first)
        #expect(
            warning.message
                == "The alias Core is used without an edmx:Reference or Schema declaring it; read as Org.OData.Core.V1."
        )
        #expect(OData.warnings(result, "unused-annotation").contains { $0.term == "Core.SchemaVersion" })
    }

    @Test(
        "a V2 property maps the same way inline",
        arguments: [
            (#"<Property Name="P" Type="Edm.String" MaxLength="5" sap:display-format="UpperCase"/>"#, FieldKind.text),
            (#"<Property Name="P" Type="Edm.Byte"/>"#, .number),
            (#"<Property Name="P" Type="Edm.DateTime" sap:display-format="Date"/>"#, .date),
            (#"<Property Name="P" Type="Edm.Time"/>"#, .time),
            (#"<Property Name="P" Type="Edm.String" sap:value-list="fixed-values"/>"#, .valueList),
        ])
    func inline(_ property: String, _ kind: FieldKind) throws {
        #expect(try OData.v2Field(property)?.kind == kind)
    }

    @Test("every form of the fixture passes the schema rules")
    func ruleViolations() throws {
        for form in try OData.importing("rules-v2").forms {
            #expect(form.ruleViolations().isEmpty, "\(form.id): \(form.ruleViolations().map(\.message))")
        }
    }

    @Test("a set that cannot be updated makes every enterable field create-only; read-only ones stay read-only")
    func notUpdatableSet() throws {
        let document = OData.v2(
            """
            <EntityType Name="Order">
              <Key><PropertyRef Name="ID"/></Key>
              <Property Name="ID" Type="Edm.String" Nullable="false" MaxLength="10"/>
              <Property Name="Note" Type="Edm.String" MaxLength="40"/>
              <Property Name="Status" Type="Edm.String" MaxLength="2" sap:creatable="false"/>
            </EntityType>
            <EntityContainer Name="DEMO_SRV_Entities" m:IsDefaultEntityContainer="true" xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata">
              <EntitySet Name="Orders" EntityType="DEMO_SRV.Order" sap:updatable="false"/>
              <EntitySet Name="OpenOrders" EntityType="DEMO_SRV.Order"/>
            </EntityContainer>
            """)
        let result = try OData.importing([document])
        let final = try OData.form(result, "demo-srv-orders")
        #expect(try OData.field(final, "Note").editable == .createOnly)
        #expect(try OData.field(final, "ID").editable == .createOnly)
        #expect(try OData.field(final, "Status").editable == .no)
        #expect(try OData.field(try OData.form(result, "demo-srv-openorders"), "Note").editable == .yes)
    }
}
