import FormModel
import FormService
import FormStore
import Foundation
import Testing

@testable import FormWeb

/// Bookings of a travel, as a RAP draft root's composition names them.
private let bookings = ServiceBinding(
    version: .v4, entitySet: "Booking", entityType: "T.Booking",
    keys: [
        ServiceProperty(name: "BookingUUID", type: "Edm.Guid", computed: true),
        ServiceProperty(name: "IsActiveEntity", type: "Edm.Boolean"),
    ],
    fields: ["FlightDate": ServiceProperty(name: "FlightDate", type: "Edm.Date")])

private let travel: ServiceBinding = {
    var binding = ServiceBinding(
        version: .v4, entitySet: "Travel", entityType: "T.Travel",
        keys: [ServiceProperty(name: "TravelUUID", type: "Edm.Guid", computed: true)],
        fields: ["Memo": ServiceProperty(name: "Memo", type: "Edm.String")])
    binding.compositions = ["_Booking": ServiceComposition(navigation: "_Booking", binding: bookings)]
    return binding
}()

private let first = "9378f87b-1c83-4deb-8af0-910cfb6ce482"
private let second = "048c6b93-f957-455e-a795-1102ed8db8d4"

private func key(_ uuid: String, active: Bool) -> [String: FieldValue] {
    ["BookingUUID": .text(uuid), "IsActiveEntity": .bool(active)]
}

@Test("the items of an object as the service holds them keep their ids; one added there gets one, one gone goes")
func refreshedItems() {
    let links = [
        "a": ServiceLink.Item(key: ServiceKey.encode(key(first, active: true), binding: bookings), etag: "W/\"1\""),
        "b": ServiceLink.Item(key: ServiceKey.encode(key(second, active: true), binding: bookings), etag: "W/\"2\""),
    ]
    let ours: [String: FieldValue] = [
        "Memo": .text("Trip"),
        "_Booking": .items([
            ItemValues(id: "a", values: ["FlightDate": .text("old")]),
            ItemValues(id: "b", values: ["FlightDate": .text("gone")]),
        ]),
    ]
    let added = "11111111-2222-4333-8444-555555555555"
    let read = ODataEntity(
        values: ["Memo": .text("Trip")], key: ["TravelUUID": .text("t")],
        items: [
            "_Booking": [
                ODataEntity(values: ["FlightDate": .text("new")], key: key(first, active: true), etag: "W/\"3\""),
                ODataEntity(values: [:], key: key(added, active: true), etag: "W/\"4\""),
            ]
        ])
    let (values, kept) = ServiceItemWriter.refreshed(ours, entity: read, binding: travel, links: links, timeZone: .utc)
    guard case .items(let items)? = values["_Booking"] else {
        Issue.record("no bookings: \(values)")
        return
    }
    #expect(items.count == 2)
    #expect(items[0].id == "a")
    #expect(items[0].values["FlightDate"] == .text("new"))
    #expect(items[1].id != "b" && items[1].id != nil)
    #expect(kept["a"]?.etag == "W/\"3\"")
    #expect(kept["b"] == nil)
    #expect(kept.count == 2)
}

@Test("a draft's items are found again among the active ones by their keys, the draft flag aside")
func activeLinks() {
    let drafts = [
        "a": ServiceLink.Item(key: ServiceKey.encode(key(first, active: false), binding: bookings)),
        "b": ServiceLink.Item(key: ServiceKey.encode(key(second, active: false), binding: bookings)),
    ]
    let values: [String: FieldValue] = [
        "_Booking": .items([ItemValues(id: "a", values: [:]), ItemValues(id: "b", values: [:])])
    ]
    // The service lists them in its own order.
    let active = ODataEntity(
        values: [:], key: [:],
        items: [
            "_Booking": [
                ODataEntity(values: [:], key: key(second, active: true), etag: "W/\"s\""),
                ODataEntity(values: [:], key: key(first, active: true), etag: "W/\"f\""),
            ]
        ])
    let links = ServiceItemWriter.links(values, entity: active, binding: travel, known: drafts, timeZone: .utc)
    #expect(links["a"]?.etag == "W/\"f\"")
    #expect(links["b"]?.etag == "W/\"s\"")
    #expect(links["a"]?.key.contains("true") == true)
}

@Test("a kept draft's items are known by their paths: the corrected form's items take them, whatever their new ids")
func keptDraftItems() {
    let sent: [String: FieldValue] = [
        "_Booking": .items([
            ItemValues(id: "a", values: ["_X": .items([ItemValues(id: "a1", values: [:])])]),
            ItemValues(id: "b", values: [:]),
        ])
    ]
    let links = [
        "a": ServiceLink.Item(key: "k-a"), "a1": ServiceLink.Item(key: "k-a1"), "b": ServiceLink.Item(key: "k-b"),
    ]
    let paths = ServiceItemWriter.byPath(sent, links: links)
    #expect(paths == ["_Booking[0]": links["a"]!, "_Booking[0]._X[0]": links["a1"]!, "_Booking[1]": links["b"]!])
    // Sent again with new ids and the first booking removed: the one now first takes its place.
    let again: [String: FieldValue] = ["_Booking": .items([ItemValues(id: "n", values: [:])])]
    #expect(ServiceItemWriter.byID(again, paths: paths) == ["n": links["a"]!])
    // A draft kept before item links existed is read as having none.
    let old = try? JSONDecoder().decode(ServiceDraft.self, from: Data(#"{"key":"{}"}"#.utf8))
    #expect(old?.items == nil)
}
