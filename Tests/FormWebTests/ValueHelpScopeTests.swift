import FormModel
import FormService
import Foundation
import Testing

@testable import FormWeb

/// An item's value helps are its composition's, asked with its own item's values; the page names
/// the answers as it names the item's inputs.
@Suite("Value helps of items")
struct ValueHelpScopeTests {
    static let flight = ValueHelp(
        collectionPath: "I_Flight",
        parameters: [
            .init(kind: .inOut, listProperty: "ConnectionID", field: "ConnectionID"),
            .init(kind: .inOut, listProperty: "AirlineID", field: "AirlineID"),
            .init(kind: .out, listProperty: "Price", field: "FlightPrice"),
        ])

    static var schema: FormSchema {
        let bookings = ItemList(
            name: "_Booking", label: "Bookings", object: "Booking",
            groups: [
                FieldGroup(fields: [
                    Field(name: "AirlineID", kind: .valueList, label: "Airline", list: "carriers"),
                    Field(name: "ConnectionID", kind: .valueList, label: "Flight", list: "flights"),
                    Field(name: "FlightPrice", kind: .number, label: "Price"),
                ])
            ])
        var schema = FormSchema(
            id: "travel", title: "New Travel",
            sections: [
                FormSection(kind: .key, groups: [FieldGroup(fields: [Field(name: "Memo", kind: .text)])]),
                FormSection(kind: .properties, groups: [FieldGroup(items: bookings)]),
            ],
            lists: [
                OptionList(id: "carriers", groups: [], external: true),
                OptionList(id: "flights", groups: [], external: true),
            ])
        schema.listFilters["_Booking[].ConnectionID"] = ["AirlineID"]
        return schema
    }

    static func binding() -> ServiceBinding {
        var booking = ServiceBinding(
            version: .v4, entitySet: "Booking", entityType: "Booking", keys: [], fields: [:],
            valueHelps: ["ConnectionID": flight])
        booking.compositions = nil
        var travel = ServiceBinding(version: .v4, entitySet: "Travel", entityType: "Travel", keys: [], fields: [:])
        travel.compositions = ["_Booking": ServiceComposition(navigation: "_Booking", binding: booking)]
        return travel
    }

    @Test("an item's input is asked in its composition's binding, with its own item's values under their names")
    func scope() throws {
        let http = ServiceHTTPClient()
        defer { try? http.client.syncShutdown() }
        let client = try ODataClient(connection: ODataConnection(serviceRoot: "http://127.0.0.1:9/s/"), http: http)
        var schema = Self.schema
        schema.markRemoteLists(forFields: ["_Booking[].ConnectionID"])
        #expect(schema.list(id: "flights")?.remote == true)
        #expect(schema.list(id: "carriers")?.remote != true)
        let target = ServiceTarget(client: client, binding: Self.binding(), kinds: [:])

        let (scope, field) = try #require(ValueHelpScope.of("_Booking[1].ConnectionID", schema: schema, target: target))
        #expect(field == "ConnectionID")
        #expect(scope.prefix == "_Booking[1].")
        #expect(scope.target.binding.entitySet == "Booking")
        #expect(ServiceValueHelps.feeds(field, scope.schema, scope.target))
        #expect(scope.schema.listFilters == ["ConnectionID": ["AirlineID"]])
        let strings = [
            "Memo": ["x"], "_Booking[0].AirlineID": ["LH"], "_Booking[1].AirlineID": ["AA"],
            "_Booking[1].ConnectionID._q": ["0017"],
        ]
        #expect(scope.local(strings) == ["AirlineID": ["AA"], "ConnectionID._q": ["0017"]])
        #expect(scope.global(["FlightPrice": "422"]) == ["_Booking[1].FlightPrice": "422"])
        #expect(
            ServiceValueHelps.gives(field, schema: scope.schema, target: scope.target).map(\.name) == [
                "AirlineID", "FlightPrice",
            ])
        // The form's own field stays the form's; a name no list has is none.
        #expect(ValueHelpScope.of("Memo", schema: schema, target: target)?.scope.prefix == "")
        #expect(ValueHelpScope.of("_Other[0].X", schema: schema, target: target) == nil)
        #expect(
            ValueHelpScope.items(
                of: Submission(items: ["_Booking": [Submission(), Submission()]]), schema: schema,
                target: target
            ).map(\.scope.prefix) == ["_Booking[0].", "_Booking[1]."])
    }

    @Test("without JavaScript an item's Search and Use this choice are read by the item's input name")
    func searchNames() {
        var received = ReceivedSubmission(fields: [
            "_search": ["_Booking[1].ConnectionID"], "_Booking[1].ConnectionID._q": ["0017"],
            "_Booking[0].AirlineID": ["LH"], "_Booking[1].AirlineID": ["AA"],
        ])
        received.submission = received.submission.gatheringItems(of: Self.schema.itemLists)
        let lists = ["_Booking[].ConnectionID"]
        #expect(received.listSearch(longLists: lists) == ListSearch(field: "_Booking[1].ConnectionID", query: "0017"))
        // Enter in the booking's box searches it too.
        var entered = ReceivedSubmission(fields: ["_enter": [""], "_Booking[0].ConnectionID._q": ["0064"]])
        entered.submission = entered.submission.gatheringItems(of: Self.schema.itemLists)
        #expect(entered.listSearch(longLists: lists)?.field == "_Booking[0].ConnectionID")
        let pick = ReceivedSubmission(fields: ["_pick": ["_Booking[0].ConnectionID"]])
        #expect(pick.listPick(longLists: lists) == "_Booking[0].ConnectionID")
        #expect(pick.listPick(longLists: ["ConnectionID"]) == nil)
    }
}
