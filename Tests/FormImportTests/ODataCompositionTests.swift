import Foundation
import Testing

@testable import FormImport
@testable import FormModel

/// OData compositions as item lists (`../shared/spec/items.md`): V4 by containment, by
/// `Common.Composition` or as a draft node under a draft root; V2 by the facets' tables of a
/// creatable set. Their fields by the usual mapping, without computed keys or the parent's key.
@Suite("OData compositions")
struct ODataCompositionTests {
    @Test("V4: a draft root's draft node, and a contained collection within it, are item lists")
    func v4() throws {
        let result = try OData.importing("composition-v4")
        let travel = try OData.form(result, "com-example-travel-travel")
        let bookings = try #require(travel.itemList(named: "_Booking"))
        // The facet's label first; the item named by the child's HeaderInfo.
        #expect(bookings.label == "Bookings of the trip" && bookings.object == "Booking")
        // The computed key, the draft bookkeeping and the parent's key are no fields.
        #expect(bookings.fields.map(\.name) == ["FlightDate", "Price"])
        #expect(bookings.lists.map(\.name) == ["_Supplement"])
        #expect(bookings.lists.first?.fields.map(\.name) == ["SupplementID", "Note"])
        // The agency is a plain navigation: no list.
        #expect(travel.itemLists.map(\.name) == ["_Booking"])
        #expect(travel.ruleViolations().filter { $0.code != .noRequiredField }.isEmpty)
        let binding = try #require(result.bindings["com-example-travel-travel"])
        let composition = try #require(binding.compositions?["_Booking"])
        #expect(composition.navigation == "_Booking" && composition.binding.entitySet == "Booking")
        #expect(composition.binding.compositions?["_Supplement"]?.navigation == "_Supplement")
        // Booking takes no creates of its own: no form, but the travel's items.
        #expect(!result.forms.map(\.id).contains("com-example-travel-booking"))
    }

    @Test("V2: the facets' table of a creatable set is an item list; a set without creates or a table stays out")
    func v2() throws {
        let result = try OData.importing("composition-v2")
        let order = try OData.form(result, "sales-srv-salesorderset")
        #expect(order.itemLists.map(\.name) == ["to_Item"])
        let items = try #require(order.itemList(named: "to_Item"))
        #expect(items.label == "Items" && items.object == "Sales Order Item")
        // The order's key in the item is the parent's; the item's own position stays.
        #expect(items.fields.map(\.name) == ["ItemPosition", "Product", "Quantity"])
        #expect(
            result.bindings["sales-srv-salesorderset"]?.compositions?["to_Item"]?.binding.entitySet
                == "SalesOrderItemSet")
        #expect(order.ruleViolations().filter { $0.code != .noRequiredField }.isEmpty)
    }
}
