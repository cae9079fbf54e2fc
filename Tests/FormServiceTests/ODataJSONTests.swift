import FormModel
import Foundation
import Testing

@testable import FormService

private let travel = ServiceBinding(
    version: .v2, entitySet: "TravelSet", entityType: "T.Travel",
    keys: [ServiceProperty(name: "TravelID", type: "Edm.String")],
    fields: [
        "id": ServiceProperty(name: "TravelID", type: "Edm.String"),
        "price": ServiceProperty(name: "Price", type: "Edm.Decimal", precision: 15, scale: 2),
        "count": ServiceProperty(name: "Seats", type: "Edm.Int64"),
        "start": ServiceProperty(name: "BeginDate", type: "Edm.DateTime"),
        "at": ServiceProperty(name: "DepartureTime", type: "Edm.Time"),
        "changed": ServiceProperty(name: "ChangedAt", type: "Edm.DateTimeOffset", computed: true),
        "agency": ServiceProperty(name: "AgencyID", type: "Edm.Int32"),
        "note": ServiceProperty(name: "Note", type: "Edm.String"),
    ])

private let december = LocalDateTime(
    date: LocalDate(year: 2026, month: 12, day: 1)!, time: LocalTime(hour: 0, minute: 0)!)
private let half = LocalTime(hour: 14, minute: 30)!

private func json(
    _ version: ODataVersion, _ value: FieldValue, _ type: String, _ options: (inout ODataJSON) -> Void = { _ in }
)
    throws -> String
{
    var writer = ODataJSON(version: version)
    options(&writer)
    return try writer.json(value, for: ServiceProperty(name: "P", type: type)).text
}

// [MS-ODATA] §2.2.6.3.1 (verbose JSON primitive values); pyslet's DateTime reading (odata-peers.md).
@Test("V2 JSON writes decimals and Int64 as strings, DateTime as ISO unless asked for /Date(ms)/")
func v2Values() throws {
    #expect(try json(.v2, .datetime(december), "Edm.DateTime") == #""2026-12-01T00:00:00""#)
    #expect(
        try json(.v2, .datetime(december), "Edm.DateTime") { $0.v2DateTime = .milliseconds }
            == #""\/Date(1796083200000)\/""#)
    #expect(try json(.v2, .date(december.date), "Edm.DateTime") == #""2026-12-01T00:00:00""#)
    #expect(try json(.v2, .number(Decimal(string: "12.50")!), "Edm.Decimal") == #""12.5""#)
    #expect(try json(.v2, .number(12), "Edm.Int64") == #""12""#)
    #expect(try json(.v2, .number(12), "Edm.Int32") == "12")
    #expect(try json(.v2, .time(half), "Edm.Time") == #""PT14H30M00S""#)
    #expect(try json(.v2, .datetime(december), "Edm.DateTimeOffset") == #""2026-12-01T00:00:00Z""#)
    #expect(
        try json(.v2, .datetime(december), "Edm.DateTimeOffset") {
            $0.v2DateTime = .milliseconds
            $0.timeZone = TimeZone(identifier: "Europe/Berlin")!
        } == #""\/Date(1796079600000+0060)\/""#)
    #expect(try json(.v2, .bool(true), "Edm.Boolean") == "true")
    #expect(
        try json(.v2, .text("0AD1F3B2-5C6E-4D7A-9B8C-1E2F3A4B5C6D"), "Edm.Guid")
            == #""0ad1f3b2-5c6e-4d7a-9b8c-1e2f3a4b5c6d""#)
}

// OData JSON Format v4.01 §7.1 (primitive values) and §4.5.1 (IEEE754Compatible).
@Test("V4 JSON writes dates bare, offsets in the zone, decimals as numbers unless IEEE754Compatible")
func v4Values() throws {
    #expect(try json(.v4, .date(december.date), "Edm.Date") == #""2026-12-01""#)
    #expect(try json(.v4, .datetime(december), "Edm.DateTimeOffset") == #""2026-12-01T00:00:00Z""#)
    #expect(
        try json(.v4, .datetime(december), "Edm.DateTimeOffset") {
            $0.timeZone = TimeZone(identifier: "America/New_York")!
        }
            == #""2026-12-01T00:00:00-05:00""#)
    #expect(
        try json(.v4, .number(Decimal(string: "12345678901234567890.12")!), "Edm.Decimal") == "12345678901234567890.12")
    #expect(try json(.v4, .number(Decimal(string: "1.5")!), "Edm.Decimal") { $0.ieee754Compatible = true } == #""1.5""#)
    #expect(try json(.v4, .number(12), "Edm.Int64") == "12")
    #expect(try json(.v4, .number(12), "Edm.Int64") { $0.ieee754Compatible = true } == #""12""#)
    #expect(try json(.v4, .time(half), "Edm.TimeOfDay") == #""14:30:00""#)
    #expect(try json(.v4, .duration(ISODuration("PT1H30M")!), "Edm.Duration") == #""PT1H30M""#)
    #expect(try json(.v4, .bool(false), "Edm.Boolean") == "false")
    #expect(
        try json(.v4, .text("0ad1f3b2-5c6e-4d7a-9b8c-1e2f3a4b5c6d"), "Edm.Guid")
            == #""0ad1f3b2-5c6e-4d7a-9b8c-1e2f3a4b5c6d""#)
    #expect(try json(.v4, .number(7), "Edm.Byte") == "7")
    #expect(try json(.v4, .number(-3), "Edm.Int16") == "-3")
}

@Test("a create body holds the given fields only, never a computed one")
func createBody() throws {
    let body = try ODataJSON(version: .v2).body(
        [
            "price": .number(Decimal(string: "99.90")!), "start": .datetime(december), "changed": .datetime(december),
            "unbound": .text("x"),
        ], binding: travel)
    #expect(String(decoding: body, as: UTF8.self) == #"{"BeginDate":"2026-12-01T00:00:00","Price":"99.9"}"#)
}

// [MS-ODATA] §2.2.6.3.3 (entity), §2.2.6.3.2 (/Date(…)/ with offset).
@Test("a V2 answer is read into field values, key and ETag from __metadata")
func v2Entity() throws {
    let answer = Array(
        #"""
        {"d":{"__metadata":{"uri":"http://h/s/TravelSet('T1')","type":"T.Travel","etag":"W/\"datetime'2026-11-26T14%3A30%3A00'\""},
        "TravelID":"T1","Price":"99.90","Seats":"3","BeginDate":"\/Date(1764000000000)\/","DepartureTime":"PT14H30M00S",
        "ChangedAt":"\/Date(1764000000000+0060)\/","AgencyID":70001,"Note":null}}
        """#.utf8)
    let reader = ODataJSON(version: .v2)
    let entity = try reader.entity(
        reader.entityObject(ODataJSON.parse(answer)), binding: travel, kinds: ["start": .date])
    #expect(entity.key == ["TravelID": .text("T1")])
    #expect(entity.etag == #"W/"datetime'2026-11-26T14%3A30%3A00'""#)
    #expect(entity.uri == "http://h/s/TravelSet('T1')")
    #expect(entity.type == "T.Travel")
    #expect(entity.values["price"] == .number(Decimal(string: "99.9")!))
    #expect(entity.values["count"] == .number(3))
    #expect(entity.values["start"] == .date(LocalDate(year: 2025, month: 11, day: 24)!))
    #expect(entity.values["at"] == .time(half))
    // 1764000000000 ms is 2025-11-24T16:00:00Z; read in UTC whatever the offset says.
    #expect(entity.values["changed"] == .datetime(LocalDateTime("2025-11-24T16:00")!))
    #expect(entity.values["agency"] == .number(70001))
    #expect(entity.values["note"] == nil)
}

@Test("a V4 answer is read with @odata.etag and its offsets turned into the zone")
func v4Entity() throws {
    var binding = travel
    binding.version = .v4
    binding.fields["changed"] = ServiceProperty(name: "ChangedAt", type: "Edm.DateTimeOffset")
    binding.fields["start"] = ServiceProperty(name: "BeginDate", type: "Edm.Date")
    binding.fields["at"] = ServiceProperty(name: "DepartureTime", type: "Edm.TimeOfDay")
    let answer = Array(
        #"""
        {"@odata.context":"$metadata#TravelSet/$entity","@odata.etag":"W/\"1\"","TravelID":"T1","Price":99.90,
        "Seats":3,"BeginDate":"2026-11-26","DepartureTime":"14:30:00","ChangedAt":"2026-11-26T14:30:00.123+01:00"}
        """#.utf8)
    let reader = ODataJSON(version: .v4, timeZone: TimeZone(identifier: "Europe/Lisbon")!)
    let entity = try reader.entity(reader.entityObject(ODataJSON.parse(answer)), binding: binding)
    #expect(entity.etag == #"W/"1""#)
    #expect(entity.values["price"] == .number(Decimal(string: "99.9")!))
    #expect(entity.values["start"] == .date(LocalDate(year: 2026, month: 11, day: 26)!))
    #expect(entity.values["at"] == .time(half))
    #expect(entity.values["changed"] == .datetime(LocalDateTime("2026-11-26T13:30")!))
}

@Test("an answer without its key, or not JSON, is a bad answer")
func badEntity() throws {
    let reader = ODataJSON(version: .v4)
    #expect(throws: ServiceFailure.self) { try reader.entity(["Price": .number("1")], binding: travel) }
    #expect(throws: ServiceFailure.self) { try ODataJSON.parse(Array("<html></html>".utf8)) }
    #expect(throws: ServiceFailure.self) { try ODataJSON(version: .v2).entityObject(.object(["value": .array([])])) }
}

@Test("collections give their rows and count in both versions")
func collections() throws {
    let v2 = try ODataJSON(version: .v2).collection(
        ODataJSON.parse(Array(#"{"d":{"results":[{"A":1},{"A":2}],"__count":"12"}}"#.utf8)))
    #expect(v2.rows.count == 2)
    #expect(v2.count == 12)
    let v1 = try ODataJSON(version: .v2).collection(ODataJSON.parse(Array(#"{"d":[{"A":1}]}"#.utf8)))
    #expect(v1.rows.count == 1)
    #expect(v1.count == nil)
    let v4 = try ODataJSON(version: .v4).collection(
        ODataJSON.parse(Array(#"{"@odata.context":"$metadata#X","@odata.count":5,"value":[{"A":1}]}"#.utf8)))
    #expect(v4.rows.count == 1)
    #expect(v4.count == 5)
}

@Test("/Date(…)/ is read with and without an offset, before and after 1970")
func dateMilliseconds() {
    #expect(ODataJSON.dateMilliseconds("/Date(1764000000000)/")! == (1_764_000_000, 0))
    #expect(ODataJSON.dateMilliseconds("/Date(1764000000000+0060)/")! == (1_764_000_000, 3600))
    #expect(ODataJSON.dateMilliseconds("/Date(-1500)/")! == (-2, 0))
    #expect(ODataJSON.dateMilliseconds("/Date(x)/") == nil)
}
