import FormModel
import Foundation
import Testing

@testable import FormService

/// A travel with its bookings, each with its supplements: a RAP draft root (V4) and, without
/// drafts, a sales order with its items (V2).
private let supplements = ServiceComposition(
    navigation: "_BookSupplement",
    binding: ServiceBinding(
        version: .v4, entitySet: "BookingSupplement", entityType: "T.BookingSupplement",
        keys: [
            ServiceProperty(name: "SupplUUID", type: "Edm.Guid", computed: true),
            ServiceProperty(name: "IsActiveEntity", type: "Edm.Boolean"),
        ],
        fields: ["SupplementID": ServiceProperty(name: "SupplementID", type: "Edm.String")]))

private let bookings: ServiceComposition = {
    var binding = ServiceBinding(
        version: .v4, entitySet: "Booking", entityType: "T.Booking",
        keys: [
            ServiceProperty(name: "BookingUUID", type: "Edm.Guid", computed: true),
            ServiceProperty(name: "IsActiveEntity", type: "Edm.Boolean"),
        ],
        fields: ["FlightDate": ServiceProperty(name: "FlightDate", type: "Edm.Date")])
    binding.compositions = ["_BookSupplement": supplements]
    return ServiceComposition(navigation: "_Booking", binding: binding)
}()

private let travel: ServiceBinding = {
    var binding = ServiceBinding(
        version: .v4, entitySet: "Travel", entityType: "T.Travel",
        keys: [
            ServiceProperty(name: "TravelUUID", type: "Edm.Guid", computed: true),
            ServiceProperty(name: "IsActiveEntity", type: "Edm.Boolean"),
        ],
        fields: ["Memo": ServiceProperty(name: "Memo", type: "Edm.String")],
        draft: DraftActions(activate: "Activate", edit: "Edit"), namespace: "T")
    binding.compositions = ["_Booking": bookings]
    return binding
}()

private let salesOrder: ServiceBinding = {
    var binding = ServiceBinding(
        version: .v2, entitySet: "A_SalesOrder", entityType: "S.A_SalesOrder",
        keys: [ServiceProperty(name: "SalesOrder", type: "Edm.String", computed: true)],
        fields: ["SoldToParty": ServiceProperty(name: "SoldToParty", type: "Edm.String")])
    binding.compositions = [
        "to_Item": ServiceComposition(
            navigation: "to_Item",
            binding: ServiceBinding(
                version: .v2, entitySet: "A_SalesOrderItem", entityType: "S.A_SalesOrderItem",
                keys: [
                    ServiceProperty(name: "SalesOrder", type: "Edm.String"),
                    ServiceProperty(name: "SalesOrderItem", type: "Edm.String", computed: true),
                ],
                fields: [
                    "Material": ServiceProperty(name: "Material", type: "Edm.String"),
                    "RequestedQuantity": ServiceProperty(name: "RequestedQuantity", type: "Edm.Decimal"),
                ]))
    ]
    return binding
}()

private let travelKey: [String: FieldValue] = [
    "TravelUUID": .text("7a000000-0000-4000-8000-000000000001"), "IsActiveEntity": .bool(true),
]

@Test("a deep insert writes each list's items under its navigation property, every level, and reads them back")
func deepInsert() async throws {
    let answer = #"""
        {"d":{"__metadata":{"etag":"W/\"o\""},"SalesOrder":"3","SoldToParty":"17100003","to_Item":{"results":[
          {"__metadata":{"etag":"W/\"a\""},"SalesOrder":"3","SalesOrderItem":"10","Material":"TG11"},
          {"__metadata":{"etag":"W/\"b\""},"SalesOrder":"3","SalesOrderItem":"20","Material":"TG12"}]},
          "to_Partner":{"__deferred":{"uri":"x"}}}}
        """#
    try await TestServer.with({ request in request.method == "GET" ? .init(200) : .json(201, answer) }) { server in
        let created = try await withClient(server) { client in
            try await client.create(
                [
                    "SoldToParty": .text("17100003"),
                    "to_Item": .items([
                        ItemValues(id: "a", values: ["Material": .text("TG11"), "RequestedQuantity": .number(2)]),
                        ItemValues(id: "b", values: ["Material": .text("TG12"), "RequestedQuantity": .number(5)]),
                    ]),
                ], binding: salesOrder, requestID: UUID(), firstSent: Date(), deep: true)
        }
        let body = try JSONReader.parse(server.requests[1].body)
        #expect(body["SoldToParty"]?.string == "17100003")
        #expect(body["to_Item"]?.array?.count == 2)
        #expect(body["to_Item"]?.array?[1]["Material"]?.string == "TG12")
        #expect(body["to_Item"]?.array?[1]["RequestedQuantity"]?.string == "5")
        #expect(created.items["to_Item"]?.map(\.etag) == ["W/\"a\"", "W/\"b\""])
        #expect(created.items["to_Item"]?[1].key["SalesOrderItem"] == .text("20"))
    }
}

@Test("a read with its items expands every composition, V4 nested and V2 as paths")
func expansions() {
    #expect(ODataClient.expansion(travel, version: .v4) == "_Booking($expand=_BookSupplement)")
    var v2 = travel
    v2.compositions?["_Booking"]?.binding.version = .v2
    #expect(ODataClient.expansion(v2, version: .v2) == "_Booking,_Booking/_BookSupplement")
    #expect(ODataClient.expansion(salesOrder, version: .v2) == "to_Item")
}

@Test("an item goes to its parent draft's navigation, the Edit action to the active entity with If-Match")
func itemRequests() async throws {
    let booking =
        #"{"@odata.etag":"W/\"1\"","BookingUUID":"f294d572-0000-4000-8000-000000000001","IsActiveEntity":false}"#
    let draft = #"{"@odata.etag":"W/\"2\"","TravelUUID":"7a000000-0000-4000-8000-000000000001","IsActiveEntity":false}"#
    try await TestServer.with({ request in
        switch request.method {
        case "GET": .init(200)
        case "DELETE": .init(204)
        default: request.uri.hasSuffix("/T.Edit") ? .json(200, draft) : .json(201, booking)
        }
    }) { server in
        try await withClient(server) { client in
            let edited = try await client.editDraft(key: travelKey, etag: "W/\"9\"", binding: travel)
            #expect(edited.key["IsActiveEntity"] == .bool(false))
            let created = try await client.createItem(
                ["FlightDate": .date(LocalDate(year: 2026, month: 12, day: 3)!)], composition: bookings,
                parent: edited.key, parentBinding: travel, draft: true)
            #expect(created.key["BookingUUID"] == .text("f294d572-0000-4000-8000-000000000001"))
            try await client.deleteItem(key: created.key, etag: nil, binding: bookings.binding, draft: true)
        }
        let requests = server.requests
        #expect(
            requests[1].uri == "/s/Travel(TravelUUID=7a000000-0000-4000-8000-000000000001,IsActiveEntity=true)/T.Edit")
        #expect(requests[1].header("If-Match") == "W/\"9\"")
        #expect(requests[1].text == #"{"PreserveChanges":true}"#)
        #expect(
            requests[2].uri
                == "/s/Travel(TravelUUID=7a000000-0000-4000-8000-000000000001,IsActiveEntity=false)/_Booking")
        #expect(requests[2].text == #"{"FlightDate":"2026-12-03"}"#)
        #expect(requests[3].method == "DELETE")
        #expect(requests[3].uri == "/s/Booking(BookingUUID=f294d572-0000-4000-8000-000000000001,IsActiveEntity=false)")
        #expect(requests[3].header("If-Match") == "*")
    }
}

@Test("an Edit action answered 412 reads the entity back for the page that says someone changed it")
func editMeetsChange() async throws {
    let current =
        #"{"@odata.etag":"W/\"10\"","TravelUUID":"7a000000-0000-4000-8000-000000000001","IsActiveEntity":true,"Memo":"now"}"#
    try await TestServer.with({ request in
        request.method == "GET" && request.uri.contains("Travel(")
            ? .json(200, current)
            : request.method == "GET" ? .init(200) : .init(412)
    }) { server in
        let failed: ServiceFailure? = try await withClient(server) { client -> ServiceFailure? in
            do throws(ServiceFailure) {
                _ = try await client.editDraft(key: travelKey, etag: "W/\"9\"", binding: travel)
                return nil
            } catch {
                return error
            }
        }
        guard case .preconditionFailed(let now)? = failed else {
            Issue.record("no 412: \(String(describing: failed))")
            return
        }
        #expect(now?.etag == "W/\"10\"")
        #expect(now?.values["Memo"] == .text("now"))
    }
}
