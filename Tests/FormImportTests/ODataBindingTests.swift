import Foundation
import Testing

@testable import FormImport
@testable import FormModel

/// Each form of an OData import has a `ServiceBinding`: how its fields meet the service.
@Suite("OData: service bindings")
struct ODataBindingTests {
    private func bound(_ result: ImportResult, _ id: String) throws -> ServiceBinding {
        try #require(result.bindings[id], "no binding \(id) in \(result.bindings.keys.sorted())")
    }

    // MARK: Entity set, keys and fields

    @Test("a V4 form is bound to its entity set, type, namespace and keys in declaration order")
    func v4SetAndKeys() throws {
        let result = try OData.importing("binding-v4-value-list")
        let binding = try bound(result, "sales-orders")
        #expect(binding.version == .v4)
        #expect(binding.entitySet == "Orders")
        #expect(binding.entityType == "sales.Order")
        #expect(binding.namespace == "sales")
        #expect(
            binding.keys == [
                ServiceProperty(name: "OrderNo", type: "Edm.String", maxLength: 10, nullable: false),
                ServiceProperty(name: "Year", type: "Edm.Int16", nullable: false),
            ])
        #expect(binding.draft == nil)
        #expect(binding.mediaEntity == false)
        #expect(Set(result.bindings.keys) == Set(result.forms.map(\.id)))
    }

    @Test("each field that stands for a property names it with its primitive type and facets")
    func v4FieldTypes() throws {
        let binding = try bound(try OData.importing("binding-v4-value-list"), "sales-orders")
        #expect(
            binding.fields["Amount"] == ServiceProperty(name: "Amount", type: "Edm.Decimal", precision: 15, scale: 2))
        #expect(binding.fields["Rate"] == ServiceProperty(name: "Rate", type: "Edm.Decimal", precision: 10, scale: nil))
        #expect(binding.fields["Plant"] == ServiceProperty(name: "Plant", type: "Edm.String", maxLength: 4))
        #expect(
            binding.fields["Priority"]
                == ServiceProperty(name: "Priority", type: "Edm.Byte", enumType: "sales.Priority"))
        #expect(binding.fields["OrderNo"]?.nullable == false)
    }

    @Test("a field renamed from its property is bound to the property by its own name")
    func renamedField() throws {
        let result = try OData.importing("binding-v4-value-list")
        let form = try OData.form(result, "sales-orders")
        _ = try OData.field(form, "Gr__e")
        let binding = try bound(result, "sales-orders")
        #expect(binding.fields["Gr__e"] == ServiceProperty(name: "Größe", type: "Edm.String", maxLength: 20))
        #expect(binding.field(forProperty: "Größe") == "Gr__e")
    }

    @Test("the binding's fields are exactly the form's fields; a computed property is neither")
    func fieldsAreTheForm() throws {
        let result = try OData.importing("binding-v4-value-list")
        let form = try OData.form(result, "sales-orders")
        let binding = try bound(result, "sales-orders")
        #expect(Set(binding.fields.keys) == Set(form.allFields.map(\.name)))
        #expect(binding.field(forProperty: "CreatedAt") == nil)
    }

    // MARK: Value helps

    @Test("a Common.ValueList gives the collection, its label, search, parameters, list types and text")
    func v4ValueList() throws {
        let binding = try bound(try OData.importing("binding-v4-value-list"), "sales-orders")
        let help = try #require(binding.valueHelps["Country"])
        #expect(help.collectionPath == "Countries")
        #expect(help.collectionRoot == nil)
        #expect(help.label == "Countries")
        #expect(help.searchSupported == false)
        #expect(help.fixedValues == false)
        #expect(
            help.parameters == [
                .init(kind: .inOut, listProperty: "Code", field: "Country"),
                .init(kind: .displayOnly, listProperty: "Name"),
            ])
        #expect(help.listTypes == ["Code": "Edm.String", "Name": "Edm.String", "Population": "Edm.Int64"])
        #expect(help.textProperty == "Name")
        #expect(help.references == nil)
        #expect(help.valueProperty(for: "Country") == "Code")
        #expect(help.labelProperties == ["Name"])
    }

    @Test("value list parameters of every kind: in, in-out, out, constant, filter-only and display-only")
    func parameterKinds() throws {
        let binding = try bound(try OData.importing("binding-v4-value-list"), "sales-orders")
        let help = try #require(binding.valueHelps["Region"])
        #expect(help.collectionPath == "Regions")
        #expect(
            help.parameters == [
                .init(kind: .in, listProperty: "Country", field: "Country"),
                .init(kind: .inOut, listProperty: "Code", field: "Region"),
                .init(kind: .out, listProperty: "Name", field: "RegionName"),
                .init(kind: .constant, listProperty: "Language", constant: "EN"),
                .init(kind: .filterOnly, listProperty: "Active"),
                .init(kind: .displayOnly, listProperty: "Name"),
            ])
        #expect(help.searchSupported, "SearchSupported is true when not written")
        #expect(help.listTypes["Active"] == "Edm.Boolean")
        #expect(help.textProperty == nil)
    }

    @Test("the unqualified Common.ValueList wins over a qualified one written before it")
    func unqualifiedFirst() throws {
        let binding = try bound(try OData.importing("binding-v4-value-list"), "sales-orders")
        #expect(binding.valueHelps["Region"]?.collectionPath == "Regions")
    }

    @Test("ValueListWithFixedValues makes a fixed-value help; a collection not in the metadata has no list types")
    func fixedValues() throws {
        let binding = try bound(try OData.importing("binding-v4-value-list"), "sales-orders")
        let help = try #require(binding.valueHelps["Status"])
        #expect(help.fixedValues)
        #expect(help.collectionPath == "Statuses")
        #expect(help.listTypes.isEmpty)
    }

    @Test(
        "ValueListReferences gives every reference and the first one's service root, the collection left to its mapping"
    )
    func references() throws {
        let binding = try bound(try OData.importing("binding-v4-value-list"), "sales-orders")
        let help = try #require(binding.valueHelps["Carrier"])
        #expect(help.collectionRoot == "../../carrier_vh/0001/")
        #expect(help.references == ["../../carrier_vh/0001/$metadata", "../../carrier_alt_vh/0001/$metadata"])
        #expect(help.collectionPath == "")
        #expect(help.parameters.isEmpty)
        #expect(ODataFormMapper.serviceRoot(ofMetadata: "vh/0001/$metadata") == "vh/0001/")
        #expect(ODataFormMapper.serviceRoot(ofMetadata: "vh/0001") == "vh/0001")
    }

    @Test("a Common.ValueListMapping written in the metadata itself is read as the field's value help")
    func valueListMapping() throws {
        let property = """
            <Property Name="Supplier" Type="Edm.String" MaxLength="10">
              <Annotation Term="Common.ValueListMapping">
                <Record Type="Common.ValueListMappingType">
                  <PropertyValue Property="CollectionPath" String="Suppliers"/>
                  <PropertyValue Property="Label" String="Supplier"/>
                  <PropertyValue Property="Parameters">
                    <Collection>
                      <Record Type="Common.ValueListParameterInOut">
                        <PropertyValue Property="ValueListProperty" String="ID"/>
                        <PropertyValue Property="LocalDataProperty" PropertyPath="Supplier"/>
                      </Record>
                    </Collection>
                  </PropertyValue>
                </Record>
              </Annotation>
            </Property>
            """
        let result = try OData.importing([OData.v4(OData.entity(property))])
        let help = try #require(try bound(result, "demo-ts").valueHelps["Supplier"])
        #expect(help.collectionPath == "Suppliers")
        #expect(help.label == "Supplier")
        #expect(help.parameters == [.init(kind: .inOut, listProperty: "ID", field: "Supplier")])
    }

    @Test("only value-list fields have value helps")
    func helpsOnlyForLists() throws {
        let result = try OData.importing("binding-v4-value-list")
        let form = try OData.form(result, "sales-orders")
        let binding = try bound(result, "sales-orders")
        #expect(Set(binding.valueHelps.keys) == Set(form.allFields.filter { $0.list != nil }.map(\.name)))
        #expect(Set(binding.valueHelps.keys) == ["Country", "Region", "Status", "Carrier"])
    }

    @Test("reading value helps for the binding changes no warning: Common.Text stays unused")
    func warningsUnchanged() throws {
        let result = try OData.importing("binding-v4-value-list")
        #expect(
            OData.warnings(result, .unusedAnnotation).map(\.message) == [
                "Common.Text: 1 annotation not used for any form."
            ])
    }

    // MARK: V2

    @Test("a V2 form is bound with V2's version, its key filled in by the service, and sap: facets")
    func v2SetAndKeys() throws {
        let result = try OData.importing("binding-v2-sap-value-list", "binding-v2-sap-value-list-annotations")
        #expect(result.kind == .odataV2)
        let binding = try bound(result, "zproduct-srv-productset")
        #expect(binding.version == .v2)
        #expect(binding.entitySet == "ProductSet")
        #expect(binding.entityType == "ZPRODUCT_SRV.Product")
        #expect(binding.namespace == "ZPRODUCT_SRV")
        #expect(
            binding.keys == [
                ServiceProperty(name: "ProductID", type: "Edm.String", maxLength: 10, nullable: false, computed: true)
            ])
        #expect(binding.fields["ProductID"] == nil, "a key the service fills in is no field")
        #expect(binding.fields["Price"] == ServiceProperty(name: "Price", type: "Edm.Decimal", precision: 16, scale: 3))
        #expect(
            binding.fields["Available"]
                == ServiceProperty(name: "Available", type: "Edm.DateTime", precision: 0, computed: true))
    }

    @Test("a V2 value help from the metadata's own Annotations, with sap:text as the text property")
    func v2InlineValueList() throws {
        let result = try OData.importing("binding-v2-sap-value-list", "binding-v2-sap-value-list-annotations")
        let help = try #require(try bound(result, "zproduct-srv-productset").valueHelps["Currency"])
        #expect(help.collectionPath == "VH_CurrencySet")
        #expect(help.label == "Currencies")
        #expect(help.searchSupported)
        #expect(help.fixedValues == false)
        #expect(
            help.parameters == [
                .init(kind: .inOut, listProperty: "Code", field: "Currency"),
                .init(kind: .displayOnly, listProperty: "Text"),
            ])
        #expect(help.listTypes == ["Code": "Edm.String", "Text": "Edm.String", "Decimals": "Edm.Byte"])
        #expect(help.textProperty == "Text")
    }

    @Test("a V2 value help from an annotation document, fixed values from sap:value-list")
    func v2AnnotationDocument() throws {
        let result = try OData.importing("binding-v2-sap-value-list", "binding-v2-sap-value-list-annotations")
        let help = try #require(try bound(result, "zproduct-srv-productset").valueHelps["Category"])
        #expect(help.collectionPath == "VH_CategorySet")
        #expect(help.fixedValues)
        #expect(help.searchSupported == false)
        #expect(help.parameters == [.init(kind: .inOut, listProperty: "Category", field: "Category")])
    }

    @Test("sap:value-list without an annotation naming a collection gives a value-list field and no value help")
    func v2ValueListWithoutAnnotation() throws {
        let result = try OData.importing("binding-v2-sap-value-list", "binding-v2-sap-value-list-annotations")
        let form = try OData.form(result, "zproduct-srv-productset")
        #expect(try OData.field(form, "Supplier").list == "Supplier")
        let binding = try bound(result, "zproduct-srv-productset")
        #expect(binding.fields["Supplier"]?.name == "Supplier")
        #expect(binding.valueHelps["Supplier"] == nil)
    }

    @Test("a V2 draft root's actions are its function imports by name")
    func v2Draft() throws {
        let result = try OData.importing("binding-v2-sap-value-list", "binding-v2-sap-value-list-annotations")
        #expect(
            try bound(result, "zproduct-srv-productset").draft
                == DraftActions(activate: "ProductActivation", prepare: "ProductPreparation", edit: "ProductEdit"))
    }

    @Test("a V2 media entity (m:HasStream): its file field stands for no property")
    func v2Media() throws {
        let result = try OData.importing("binding-v2-sap-value-list")
        let form = try OData.form(result, "zproduct-srv-imageset")
        let binding = try bound(result, "zproduct-srv-imageset")
        #expect(binding.mediaEntity)
        #expect(try OData.field(form, "file").kind == .attachments)
        #expect(binding.fields["file"] == nil)
        #expect(Set(binding.fields.keys) == ["ImageID"])
        #expect(try bound(result, "zproduct-srv-productset").mediaEntity == false)
    }

    // MARK: Drafts

    @Test("a V4 Common.DraftRoot gives its actions by qualified name, aliases resolved; computed keys stay keys")
    func v4Draft() throws {
        let result = try OData.importing("binding-v4-draft-root")
        let binding = try bound(result, "com-example-travel-v0001-travel")
        #expect(
            binding.draft
                == DraftActions(
                    activate: "com.example.travel.v0001.Activate", prepare: "com.example.travel.v0001.Prepare",
                    discard: "com.example.travel.v0001.Discard", edit: "com.example.travel.v0001.Edit"))
        #expect(
            binding.keys == [
                ServiceProperty(name: "TravelUUID", type: "Edm.Guid", nullable: false, computed: true),
                ServiceProperty(name: "IsActiveEntity", type: "Edm.Boolean", nullable: false, computed: true),
            ])
        #expect(Set(binding.fields.keys) == ["Description", "BeginDate"])
    }

    @Test("a Common.DraftRoot without an activation action gives no draft actions")
    func draftNode() throws {
        let result = try OData.importing("binding-v4-draft-root")
        #expect(try bound(result, "com-example-travel-v0001-booking").draft == nil)
    }

    @Test("a V4 media entity (HasStream)")
    func v4Media() throws {
        let result = try OData.importing("binding-v4-draft-root")
        #expect(try bound(result, "com-example-travel-v0001-document").mediaEntity)
        #expect(try bound(result, "com-example-travel-v0001-travel").mediaEntity == false)
    }

    @Test("reading Common.DraftRoot for the binding leaves it reported as unused")
    func draftRootStaysUnused() throws {
        let result = try OData.importing("binding-v4-draft-root")
        #expect(
            OData.warnings(result, .unusedAnnotation).map(\.message) == [
                "Common.DraftRoot: 2 annotations not used for any form."
            ])
    }

    @Test("a native spec has no bindings")
    func nativeHasNone() throws {
        let url = try #require(
            Bundle.module.url(forResource: "minimal", withExtension: "xml", subdirectory: "Fixtures"))
        let result = try FormImporter.importDocuments([
            ImportDocument(name: "minimal.xml", data: Array(try Data(contentsOf: url)))
        ])
        #expect(result.bindings.isEmpty)
    }
}
