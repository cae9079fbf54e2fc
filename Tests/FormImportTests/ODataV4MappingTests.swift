import Foundation
import Testing

@testable import FormImport
@testable import FormModel

/// The mapping rules of docs/odata.md on CSDL V4 (fixture rules-v4.xml and inline services).
@Suite("OData V4 mapping")
struct ODataV4MappingTests {
    static let id = "com-example-rules-v0001-orders"

    @Test("one form per creatable entity set; a set with Insertable false is skipped with the reason")
    func formsPerSet() throws {
        let result = try OData.importing("rules-v4")
        #expect(result.kind == .odataV4)
        #expect(
            result.forms.map(\.id) == [
                "com-example-rules-v0001-orders", "com-example-rules-v0001-readings", "com-example-rules-v0001-plain",
                "com-example-rules-v0001-documents", "com-example-rules-v0001-archive", "com-example-rules-v0001-notes",
            ])
        #expect(result.skipped.map(\.name) == ["Codes"])
        #expect(result.skipped.first?.reason == "Not insertable: Capabilities.InsertRestrictions/Insertable is false.")
        #expect(result.skipped.first?.file == "rules-v4.xml")
    }

    @Test("title and object: UI.HeaderInfo/TypeName, else the type's Common.Label, else its name in words")
    func titles() throws {
        let result = try OData.importing("rules-v4")
        let order = try OData.form(result, Self.id)
        #expect(order.title == "New Sales Order")
        #expect(order.object == "Sales Order")
        #expect(try OData.form(result, "com-example-rules-v0001-readings").title == "New Meter Reading")
        #expect(try OData.form(result, "com-example-rules-v0001-plain").title == "New Plain Type")
    }

    @Test(
        "facets give groups in facet order with the facet labels; collection facets are walked, navigation and hidden facets left out"
    )
    func facets() throws {
        let form = try OData.form(try OData.importing("rules-v4"), Self.id)
        let groups = try #require(form.section(.properties)).groups
        #expect(groups.map(\.label) == ["Order Data", "Amounts", "Contact"])
        #expect(groups[0].fields.first?.name == "Customer")
        #expect(groups[1].fields.map(\.name) == ["NetAmount", "Currency", "Weight", "IsUrgent"])
        #expect(groups[2].fields.map(\.name) == ["ContactEmail", "ContactPhone"])
    }

    @Test("data fields: actions, navigation paths and unknown paths are not fields; an unknown path is reported")
    func dataFields() throws {
        let result = try OData.importing("rules-v4")
        let form = try OData.form(result, Self.id)
        #expect(form.field(named: "Missing") == nil)
        #expect(!form.allFields.contains { $0.label == "Approve" })
        let unknown = OData.warnings(result, "unknown-path")
        #expect(unknown.count == 1)
        #expect(unknown.first?.message.contains("Missing") == true)
    }

    @Test("HeaderInfo/Title/Value is the key information; keys the user enters follow it, required and create-only")
    func keySection() throws {
        let form = try OData.form(try OData.importing("rules-v4"), Self.id)
        let key = try #require(form.section(.key)).groups.flatMap(\.fields)
        #expect(key.map(\.name) == ["Description", "OrderID"])
        let orderID = try OData.field(form, "OrderID")
        #expect(orderID.required && orderID.editable == .createOnly)
        #expect(form.field(named: "OrderUUID") == nil)  // a computed key
    }

    @Test("without a header title the first editable string property is the key information")
    func keyFallback() throws {
        let form = try OData.form(try OData.importing("rules-v4"), "com-example-rules-v0001-plain")
        #expect(form.section(.key)?.groups.first?.fields.map(\.name) == ["CompanyName"])
    }

    @Test("labels: a DataField Label wins over Common.Label, which wins over the name in words")
    func labels() throws {
        let form = try OData.form(try OData.importing("rules-v4"), Self.id)
        #expect(try OData.field(form, "Customer").label == "Sold-To Party")
        #expect(try OData.field(form, "NetAmount").label == "Net Amount")
        #expect(try OData.field(form, "ContactEmail").label == "Contact Email")
        #expect(try OData.field(form, "OrderID").label == "Order")
    }

    @Test("hints come from Common.QuickInfo")
    func hints() throws {
        let form = try OData.form(try OData.importing("rules-v4"), Self.id)
        #expect(try OData.field(form, "Description").hint == "Short text of the order")
    }

    @Test("not a field: Core.Computed, static UI.Hidden, FieldControl Hidden and Inapplicable, navigation properties")
    func notFields() throws {
        let form = try OData.form(try OData.importing("rules-v4"), Self.id)
        for name in ["OrderUUID", "CreatedAt", "Region", "Priority", "Channel", "_Items"] {
            #expect(form.field(named: name) == nil, "\(name)")
        }
        #expect(form.field(named: "SalesArea") != nil)  // UI.Hidden false
    }

    @Test("Core.Immutable is create-only; FieldControl ReadOnly is read-only; FieldControl Mandatory is required")
    func editability() throws {
        let form = try OData.form(try OData.importing("rules-v4"), Self.id)
        #expect(try OData.field(form, "OrderType").editable == .createOnly)
        #expect(try OData.field(form, "Status").editable == .no)
        #expect(try OData.field(form, "Status").required == false)
        #expect(try OData.field(form, "Customer").required)
    }

    @Test("a FieldControl or UI.Hidden path is reported and the field stays optional, editable and shown")
    func dynamicFieldControl() throws {
        let result = try OData.importing("rules-v4")
        let form = try OData.form(result, Self.id)
        let approver = try OData.field(form, "Approver")
        #expect(!approver.required && approver.editable == .yes)
        #expect(form.field(named: "Plant") != nil)
        #expect(OData.warnings(result, "dynamic-field-control").first?.message.contains("Approver") == true)
        #expect(OData.warnings(result, "dynamic-hidden").first?.message.contains("Plant") == true)
    }

    @Test("an unknown FieldControl member is reported and ignored")
    func unknownEnumMember() throws {
        let result = try OData.importing("rules-v4")
        let warning = try #require(OData.warnings(result, "unknown-enum-value").first)
        #expect(warning.message.hasPrefix("Common.FieldControlType has no member \"Mandatoryy\""))
        #expect(try OData.field(try OData.form(result, Self.id), "Reviewer").required == false)
    }

    @Test("Nullable=false and InsertRestrictions/RequiredProperties make a field required")
    func required() throws {
        let form = try OData.form(try OData.importing("rules-v4"), Self.id)
        #expect(try OData.field(form, "Comment").required)  // Nullable="false"
        #expect(try OData.field(form, "Description").required)  // RequiredProperties
        #expect(try OData.field(form, "IsUrgent").required == false)  // a switch is never required
    }

    @Test("MaxLength, Precision and Scale become max-length, min, max and scale")
    func facetsOfTypes() throws {
        let form = try OData.form(try OData.importing("rules-v4"), Self.id)
        #expect(try OData.field(form, "Description").constraints.maxLength == 40)
        let amount = try OData.field(form, "NetAmount").constraints
        #expect(amount.min == "-9999999999999.99" && amount.max == "9999999999999.99" && amount.scale == 2)
    }

    @Test("integer types get their range and scale 0; Double none; Scale variable leaves the decimals open")
    func numberRanges() throws {
        let form = try OData.form(try OData.importing("rules-v4"), "com-example-rules-v0001-readings")
        let expected: [(String, String?, String?, Int?)] = [
            ("Small", "0", "255", 0), ("Signed", "-128", "127", 0), ("Short", "-32768", "32767", 0),
            ("ReadingID", "-2147483648", "2147483647", 0), ("Long", "-9223372036854775808", "9223372036854775807", 0),
            ("Ratio", nil, nil, nil), ("Percent", "-999.99", "999.99", 2), ("Floating", "-9999999", "9999999", nil),
        ]
        for (name, min, max, scale) in expected {
            let k = try OData.field(form, name).constraints
            #expect(try OData.field(form, name).kind == .number, "\(name)")
            #expect(
                k.min == min && k.max == max && k.scale == scale,
                "\(name): \(k.min ?? "-") \(k.max ?? "-") \(k.scale ?? -1)")
        }
    }

    @Test("Validation.Minimum and Maximum narrow the range; an exclusive bound on an integer moves by one")
    func validationBounds() throws {
        let form = try OData.form(try OData.importing("rules-v4"), "com-example-rules-v0001-readings")
        let level = try OData.field(form, "Level").constraints
        #expect(level.min == "1" && level.max == "9")
        #expect(try OData.field(form, "Mass").constraints.min == "0")
    }

    @Test("Validation.Pattern becomes the pattern; Edm.Guid is text matching the UUID form")
    func patterns() throws {
        let form = try OData.form(try OData.importing("rules-v4"), "com-example-rules-v0001-readings")
        #expect(try OData.field(form, "Sensor").constraints.pattern == "[A-Z]{2}-[0-9]{4}")
        let token = try OData.field(form, "Token")
        #expect(
            token.kind == .text && token.constraints.pattern == KnownPattern.uuid && token.constraints.maxLength == 36)
    }

    @Test("types to controls: date, datetime, time, duration, switch")
    func temporalKinds() throws {
        let result = try OData.importing("rules-v4")
        let readings = try OData.form(result, "com-example-rules-v0001-readings")
        #expect(try OData.field(readings, "Day").kind == .date)
        #expect(try OData.field(readings, "At").kind == .datetime)
        #expect(try OData.field(readings, "Clock").kind == .time)
        #expect(try OData.field(readings, "Span").kind == .duration)
        #expect(try OData.field(try OData.form(result, Self.id), "IsUrgent").kind == .switch)
    }

    @Test("allowed values known at import: buttons up to 3, chips up to 8, a value list with the options beyond")
    func allowedValues() throws {
        let form = try OData.form(try OData.importing("rules-v4"), "com-example-rules-v0001-readings")
        let grade = try OData.field(form, "Grade")
        #expect(grade.kind == .buttons)
        #expect(form.options(for: grade).map(\.label) == ["Good", "Fair", "Poor"])
        #expect(try OData.field(form, "Size").kind == .chips)
        let code = try OData.field(form, "Code")
        #expect(code.kind == .valueList && code.list == nil && form.options(for: code).count == 9)
        let colour = try OData.field(form, "Colour")  // an enumeration type
        #expect(colour.kind == .chips && form.options(for: colour).map(\.value) == ["Red", "Green", "Blue", "Black"])
    }

    @Test(
        "Common.ValueList, ValueListWithFixedValues and ValueListReferences give a value list with an external list of the field's name"
    )
    func valueLists() throws {
        let form = try OData.form(try OData.importing("rules-v4"), Self.id)
        let customer = try OData.field(form, "Customer")
        #expect(customer.kind == .valueList && customer.list == "Customer" && customer.presentation.searchable)
        let orderType = try OData.field(form, "OrderType")
        #expect(orderType.kind == .valueList && orderType.list == "OrderType" && !orderType.presentation.searchable)
        #expect(
            form.list(id: "Customer")
                == OptionList(id: "Customer", groups: [], external: true, location: customer.location))
        #expect(form.lists.allSatisfy { $0.external })
    }

    @Test("a value list accepts any text within its limits until its options are uploaded")
    func openValueListValidates() throws {
        let form = try OData.form(try OData.importing("rules-v4"), Self.id)
        let customer = try OData.field(form, "Customer")
        let ok = FormValidator.check(
            customer, in: form, Submission(fields: ["Customer": ["ACME"]]), ValidationContext())
        #expect(ok == .value(.choice("ACME")))
        let tooLong = FormValidator.check(
            customer, in: form, Submission(fields: ["Customer": ["ABCDEFGHIJKL"]]), ValidationContext())
        #expect(tooLong != .value(.choice("ABCDEFGHIJKL")))
    }

    @Test("UI.MultiLineText makes a note in the accessory area; email and phone annotations set the text type")
    func textFlavours() throws {
        let form = try OData.form(try OData.importing("rules-v4"), Self.id)
        #expect(try OData.field(form, "Remarks").kind == .note)
        #expect(OData.place(of: "Remarks", in: form)?.0 == .accessory)
        #expect(try OData.field(form, "ContactEmail").constraints.textType == .email)
        #expect(try OData.field(form, "ContactPhone").constraints.textType == .tel)
        #expect(try OData.field(form, "OrderType").constraints.upperCase)
    }

    @Test(
        "Measures: a fixed unit is the suffix; a unit path keeps the unit property beside the amount and names it in the hint"
    )
    func measures() throws {
        let form = try OData.form(try OData.importing("rules-v4"), Self.id)
        #expect(try OData.field(form, "Weight").presentation.suffix == "kg")
        #expect(try OData.field(form, "NetAmount").hint == "In the currency given in Currency.")
        #expect(try OData.field(form, "Currency").kind == .text)
    }

    @Test(
        "Core.MediaType and HasStream give attachments in the accessory area, AcceptableMediaTypes the accepted types")
    func media() throws {
        let form = try OData.form(try OData.importing("rules-v4"), "com-example-rules-v0001-documents")
        let scan = try OData.field(form, "Scan")
        #expect(
            scan.kind == .attachments && scan.constraints.accept == ["application/pdf"]
                && scan.constraints.maxCount == 1)
        let file = try OData.field(form, "file")
        #expect(file.kind == .attachments && file.required && file.constraints.accept == ["image/png", "image/jpeg"])
        #expect(OData.place(of: "file", in: form)?.0 == .accessory)
    }

    @Test("complex types, collections and Edm.Binary without a media type are not fields yet, and are reported")
    func unsupported() throws {
        let result = try OData.importing("rules-v4")
        let form = try OData.form(result, Self.id)
        #expect(form.field(named: "Attachments") == nil && form.field(named: "Thumbnail") == nil)
        let warning = try #require(OData.warnings(result, "unsupported-type").first)
        #expect(warning.count == 2)
        #expect(
            warning.message.contains("Attachments (a collection of String)")
                && warning.message.contains("Thumbnail (Edm.Binary)"))
    }

    @Test("DefaultValue becomes the field's default when it fits")
    func defaults() throws {
        let form = try OData.form(try OData.importing("rules-v4"), "com-example-rules-v0001-readings")
        #expect(try OData.field(form, "Reference").defaultValue == "R-1")
        #expect(try OData.field(form, "Active").defaultValue == "true")
        let field = try OData.v4Field(#"<Property Name="Count" Type="Edm.Byte" DefaultValue="300"/>"#)
        #expect(field.defaultValue == nil)
    }

    @Test("a DefaultValue the field refuses is left out with a warning that says why")
    func refusedDefaultSaysWhy() throws {
        let result = try OData.importing([
            OData.v4(
                OData.entity(
                    #"<Property Name="Rate" Type="Edm.Decimal" Precision="5" Scale="2" DefaultValue="1.234"/>"#))
        ])
        #expect(try OData.field(try #require(result.forms.first), "Rate").defaultValue == nil)
        let messages = OData.warnings(result, .mappingDropped).map(\.message)
        #expect(
            messages.contains {
                $0.contains(
                    #"its DefaultValue "1.234" is refused by the field's own rule ("Rate must have 2 decimal places or fewer")"#
                )
            }, "\(messages)")
        let byte = try OData.importing([
            OData.v4(OData.entity(#"<Property Name="Count" Type="Edm.Byte" DefaultValue="300"/>"#))
        ])
        #expect(
            OData.warnings(byte, .mappingDropped).map(\.message).contains {
                $0.contains(#"its DefaultValue "300" does not fit the property's type and facets"#)
            })
    }

    @Test("a Decimal wider than 38 digits keeps its scale and leaves its range open, with a warning")
    func widePrecision() throws {
        let result = try OData.importing([
            OData.v4(OData.entity(#"<Property Name="Freight" Type="Edm.Decimal" Precision="193" Scale="4"/>"#))
        ])
        let form = try #require(result.forms.first)
        #expect(form.ruleViolations().isEmpty, "\(form.ruleViolations())")
        let field = try OData.field(form, "Freight")
        #expect(field.constraints.min == nil && field.constraints.max == nil)
        #expect(
            OData.warnings(result, .mappingDropped).map(\.message).contains {
                $0.contains("its Precision 193 is more than the 38 digits a form checks exactly")
            })
        let widest = try OData.v4Field(#"<Property Name="Amount" Type="Edm.Decimal" Precision="38" Scale="4"/>"#)
        #expect(widest.constraints.max == String(repeating: "9", count: 34) + ".9999")
    }

    @Test("a form without a required property gets its first field made required, with a warning")
    func requiredAdded() throws {
        let result = try OData.importing("rules-v4")
        let notes = try OData.form(result, "com-example-rules-v0001-notes")
        #expect(try OData.field(notes, "Text").required)
        #expect(OData.warnings(result, "required-added").map(\.message).contains { $0.hasPrefix("Notes (NoteType)") })
    }

    @Test("no facets: UI.Identification, then each UI.FieldGroup in order, labelled by the group's Label or qualifier")
    func identificationThenFieldGroups() throws {
        let annotations = """
              <Annotations Target="self.T">
                <Annotation Term="UI.FieldGroup" Qualifier="SecondGroup">
                  <Record><PropertyValue Property="Data"><Collection>
                    <Record Type="UI.DataField"><PropertyValue Property="Value" Path="B"/></Record>
                  </Collection></PropertyValue></Record>
                </Annotation>
                <Annotation Term="UI.Identification">
                  <Collection><Record Type="UI.DataField"><PropertyValue Property="Value" Path="A"/></Record></Collection>
                </Annotation>
                <Annotation Term="UI.FieldGroup" Qualifier="Third">
                  <Record>
                    <PropertyValue Property="Label" String="Third group"/>
                    <PropertyValue Property="Data"><Collection>
                      <Record Type="UI.DataField"><PropertyValue Property="Value" Path="C"/></Record>
                    </Collection></PropertyValue>
                  </Record>
                </Annotation>
              </Annotations>
            """
        let properties = """
                <Property Name="A" Type="Edm.Int32"/><Property Name="B" Type="Edm.Int32"/><Property Name="C" Type="Edm.Int32"/>
                <Property Name="D" Type="Edm.Int32"/>
            """
        let form = try #require(
            try OData.importing([OData.v4(OData.entity(properties, typeAnnotations: annotations))]).forms.first)
        let groups = try #require(form.section(.properties)).groups
        #expect(groups.map(\.label) == [nil, "Second Group", "Third group"])
        #expect(groups.map { $0.fields.map(\.name) } == [["A"], ["B"], ["C"]])
        #expect(form.field(named: "D") == nil)
    }

    @Test("no annotations: every property in declaration order")
    func everyProperty() throws {
        let form = try OData.form(try OData.importing("rules-v4"), "com-example-rules-v0001-plain")
        #expect(form.allFields.map(\.name) == ["CompanyName", "PlainID", "COMPANY_CODE"])
        #expect(try OData.field(form, "COMPANY_CODE").label == "Company Code")
    }

    @Test("every form of the fixture passes the schema rules")
    func ruleViolations() throws {
        for form in try OData.importing("rules-v4").forms {
            #expect(form.ruleViolations().isEmpty, "\(form.id): \(form.ruleViolations().map(\.message))")
        }
    }

    @Test(
        "the header's field groups come first, as Fiori elements shows them editable in create mode; data points are no group"
    )
    func headerFacets() throws {
        let annotations = """
              <Annotations Target="self.T">
                <Annotation Term="UI.HeaderFacets"><Collection>
                  <Record Type="UI.ReferenceFacet">
                    <PropertyValue Property="Label" String="Header"/>
                    <PropertyValue Property="Target" AnnotationPath="@UI.FieldGroup#Head"/>
                  </Record>
                  <Record Type="UI.ReferenceFacet"><PropertyValue Property="Target" AnnotationPath="@UI.DataPoint#Rating"/></Record>
                </Collection></Annotation>
                <Annotation Term="UI.Facets"><Collection>
                  <Record Type="UI.ReferenceFacet">
                    <PropertyValue Property="Label" String="Main"/>
                    <PropertyValue Property="Target" AnnotationPath="@UI.FieldGroup#Main"/>
                  </Record>
                </Collection></Annotation>
                <Annotation Term="UI.FieldGroup" Qualifier="Head"><Record><PropertyValue Property="Data"><Collection>
                  <Record Type="UI.DataField"><PropertyValue Property="Value" Path="A"/></Record>
                </Collection></PropertyValue></Record></Annotation>
                <Annotation Term="UI.FieldGroup" Qualifier="Main"><Record><PropertyValue Property="Data"><Collection>
                  <Record Type="UI.DataField"><PropertyValue Property="Value" Path="B"/></Record>
                  <Record Type="UI.DataField"><PropertyValue Property="Value" Path="A"/></Record>
                </Collection></PropertyValue></Record></Annotation>
              </Annotations>
            """
        let properties = #"<Property Name="A" Type="Edm.Int32"/><Property Name="B" Type="Edm.Int32"/>"#
        let result = try OData.importing([OData.v4(OData.entity(properties, typeAnnotations: annotations))])
        let form = try #require(result.forms.first)
        let groups = try #require(form.section(.properties)).groups
        #expect(groups.map(\.label) == ["Header", "Main"])
        #expect(groups.map { $0.fields.map(\.name) } == [["A"], ["B"]])
        #expect(!OData.warnings(result, "unused-annotation").contains { $0.term == "UI.HeaderFacets" })
    }
}
