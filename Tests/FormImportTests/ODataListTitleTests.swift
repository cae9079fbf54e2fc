import Foundation
import Testing

@testable import FormImport
@testable import FormModel

/// A `Common.ValueList`'s `Label` titles the option list the field names.
@Suite("OData: value list titles")
struct ODataListTitleTests {
    @Test("a V4 Common.ValueList Label titles the list; the property keeps a label of its own")
    func v4Title() throws {
        let result = try OData.importing("value-list-title-v4")
        let form = try #require(result.forms.first)
        let supplier = try OData.field(form, "Supplier")
        #expect(supplier.label == "Supplier")
        #expect(supplier.list == "Supplier")
        #expect(form.list(id: "Supplier")?.title == "Approved suppliers")
        #expect(form.list(id: "Supplier")?.external == true)
    }

    @Test("a property without a label of its own is labelled by its list's title, which titles the list too")
    func v4TitleLabelsUnlabelled() throws {
        let form = try #require(try OData.importing("value-list-title-v4").forms.first)
        #expect(try OData.field(form, "CURR_KEY").label == "Currencies")
        #expect(form.list(id: "CURR_KEY")?.title == "Currencies")
    }

    @Test("a value help without a Label gives a list without a title")
    func v4NoTitle() throws {
        let form = try #require(try OData.importing("value-list-title-v4").forms.first)
        #expect(try OData.field(form, "Country").label == "Country")
        #expect(form.list(id: "Country")?.title == nil)
    }

    @Test("a V2 service's inline Common.ValueList Label titles the list; sap:value-list alone gives none")
    func v2Title() throws {
        let result = try OData.importing("value-list-title-v2")
        #expect(result.kind == .odataV2)
        let form = try #require(result.forms.first)
        #expect(try OData.field(form, "Plant").label == "Plant")
        #expect(form.list(id: "Plant")?.title == "Plants")
        #expect(try OData.field(form, "StorageLocation").kind == .valueList)
        #expect(form.list(id: "StorageLocation")?.title == nil)
    }

    @Test("the title is in the form's canonical JSON")
    func titleStored() throws {
        let form = try #require(try OData.importing("value-list-title-v2").forms.first)
        let json = String(decoding: try form.canonicalJSON(), as: UTF8.self)
        #expect(json.contains(#"{"external":true,"groups":[],"id":"Plant","title":"Plants"}"#))
        #expect(json.contains(#"{"external":true,"groups":[],"id":"StorageLocation"}"#))
    }
}
