import FormModel
import Foundation
import Testing

@testable import FormService

private func literal(
    _ value: FieldValue, _ type: String, _ version: ODataVersion, zone: TimeZone = .utc
) throws -> String {
    try ODataLiteral.write(value, for: ServiceProperty(name: "P", type: type), version: version, timeZone: zone)
}

private let guid = "0ad1f3b2-5c6e-4d7a-9b8c-1e2f3a4b5c6d"
private let afternoon = LocalDateTime(
    date: LocalDate(year: 2026, month: 11, day: 26)!, time: LocalTime(hour: 14, minute: 30)!)

// OData V2 URI Conventions (MS-ODATA §2.2.2, "Abstract Type System": the literal form of each type).
@Test("V2 literals mark their types as the V2 URI conventions spell them")
func v2Literals() throws {
    #expect(try literal(.text("O'Neil"), "Edm.String", .v2) == "'O''Neil'")
    #expect(try literal(.text(guid.uppercased()), "Edm.Guid", .v2) == "guid'\(guid)'")
    #expect(try literal(.datetime(afternoon), "Edm.DateTime", .v2) == "datetime'2026-11-26T14:30:00'")
    #expect(try literal(.date(afternoon.date), "Edm.DateTime", .v2) == "datetime'2026-11-26T00:00:00'")
    #expect(try literal(.datetime(afternoon), "Edm.DateTimeOffset", .v2) == "datetimeoffset'2026-11-26T14:30:00Z'")
    #expect(try literal(.time(LocalTime(hour: 14, minute: 30)!), "Edm.Time", .v2) == "time'PT14H30M00S'")
    #expect(try literal(.number(Decimal(string: "1.5")!), "Edm.Decimal", .v2) == "1.5M")
    #expect(try literal(.number(12), "Edm.Int64", .v2) == "12L")
    #expect(try literal(.number(1), "Edm.Double", .v2) == "1.0d")
    #expect(try literal(.number(Decimal(string: "2.25")!), "Edm.Double", .v2) == "2.25d")
    #expect(try literal(.number(1), "Edm.Single", .v2) == "1.0f")
    #expect(try literal(.number(-7), "Edm.Int16", .v2) == "-7")
    #expect(try literal(.number(42), "Edm.Int32", .v2) == "42")
    #expect(try literal(.number(255), "Edm.Byte", .v2) == "255")
    #expect(try literal(.number(-128), "Edm.SByte", .v2) == "-128")
    #expect(try literal(.bool(true), "Edm.Boolean", .v2) == "true")
    #expect(try literal(.bool(false), "Edm.Boolean", .v2) == "false")
    #expect(try literal(.text("AQL/"), "Edm.Binary", .v2) == "X'0102FF'")
}

// OData V4.01 ABNF (`primitiveLiteral`) and URL Conventions §5.1.1.
@Test("V4 literals are bare but for strings, durations and binary")
func v4Literals() throws {
    #expect(try literal(.text("O'Neil"), "Edm.String", .v4) == "'O''Neil'")
    #expect(try literal(.text(guid), "Edm.Guid", .v4) == guid)
    #expect(try literal(.date(afternoon.date), "Edm.Date", .v4) == "2026-11-26")
    #expect(try literal(.datetime(afternoon), "Edm.DateTimeOffset", .v4) == "2026-11-26T14:30:00Z")
    #expect(try literal(.number(Decimal(string: "1.5")!), "Edm.Decimal", .v4) == "1.5")
    #expect(try literal(.number(12), "Edm.Int64", .v4) == "12")
    #expect(try literal(.number(Decimal(string: "2.5")!), "Edm.Double", .v4) == "2.5")
    #expect(try literal(.duration(ISODuration("PT1H30M")!), "Edm.Duration", .v4) == "duration'PT1H30M'")
    #expect(try literal(.time(LocalTime(hour: 14, minute: 30)!), "Edm.TimeOfDay", .v4) == "14:30:00")
    #expect(try literal(.bool(true), "Edm.Boolean", .v4) == "true")
    #expect(try literal(.text("AQL/"), "Edm.Binary", .v4) == "binary'AQL_'")
}

@Test("a local date and time bound to DateTimeOffset is written in the connection's zone")
func offsetInZone() throws {
    let berlin = TimeZone(identifier: "Europe/Berlin")!
    #expect(try literal(.datetime(afternoon), "Edm.DateTimeOffset", .v4, zone: berlin) == "2026-11-26T14:30:00+01:00")
    let summer = LocalDateTime(date: LocalDate(year: 2026, month: 7, day: 1)!, time: LocalTime(hour: 9, minute: 0)!)
    #expect(
        try literal(.datetime(summer), "Edm.DateTimeOffset", .v2, zone: berlin)
            == "datetimeoffset'2026-07-01T09:00:00+02:00'")
}

@Test("a choice's value is written as its property's type")
func choiceTyped() throws {
    #expect(try literal(.choice("7"), "Edm.Int32", .v2) == "7")
    #expect(try literal(.choice("EUR"), "Edm.String", .v4) == "'EUR'")
}

@Test("a value that is not of the type is refused, naming the property")
func refusedValues() {
    #expect(throws: ODataValueError.self) { try literal(.text("not-a-guid"), "Edm.Guid", .v2) }
    #expect(throws: ODataValueError.self) { try literal(.number(256), "Edm.Byte", .v2) }
    #expect(throws: ODataValueError.self) { try literal(.number(Decimal(string: "1.5")!), "Edm.Int32", .v4) }
    #expect(throws: ODataValueError.self) { try literal(.choices(["a"]), "Edm.String", .v4) }
    let error = #expect(throws: ODataValueError.self) { try literal(.text("x"), "Edm.Int32", .v4) }
    #expect(error?.description == "P (Edm.Int32): 'x' is not a value of this type")
}

// V2 URI Conventions §2.2.1 (key predicates) and V4.01 URL Conventions §4.3.1.
@Test("a single key is written bare, a composite key by name, percent-encoded for a path")
func keyPredicates() throws {
    let id = ServiceProperty(name: "ID", type: "Edm.String")
    #expect(try ODataLiteral.keyPredicate(["ID": .text("x")], keys: [id], version: .v2) == "('x')")
    #expect(
        try ODataLiteral.keyPredicate(["ID": .text("a/b c'd#%")], keys: [id], version: .v4) == "('a%2Fb%20c''d%23%25')")
    let keys = [ServiceProperty(name: "A", type: "Edm.String"), ServiceProperty(name: "B", type: "Edm.Int32")]
    #expect(
        try ODataLiteral.keyPredicate(["A": .text("x"), "B": .number(1)], keys: keys, version: .v2) == "(A='x',B=1)")
    #expect(
        try ODataLiteral.keyPredicate(["A": .text("x"), "B": .number(1)], keys: keys, version: .v4) == "(A='x',B=1)")
    let draft = [
        ServiceProperty(name: "TravelUUID", type: "Edm.Guid"),
        ServiceProperty(name: "IsActiveEntity", type: "Edm.Boolean"),
    ]
    #expect(
        try ODataLiteral.keyPredicate(
            ["TravelUUID": .text(guid), "IsActiveEntity": .bool(false)], keys: draft, version: .v4)
            == "(TravelUUID=\(guid),IsActiveEntity=false)")
    #expect(throws: ODataValueError.self) { try ODataLiteral.keyPredicate(["A": .text("x")], keys: keys, version: .v4) }
}

@Test("a non-ASCII key and a DateTimeOffset's plus sign are percent-encoded as UTF-8")
func encodedKeys() throws {
    let name = ServiceProperty(name: "Name", type: "Edm.String")
    #expect(try ODataLiteral.keyPredicate(["Name": .text("Zoë")], keys: [name], version: .v4) == "('Zo%C3%AB')")
    #expect(PercentEncoding.queryValue("2026-11-26T14:30:00+01:00") == "2026-11-26T14:30:00%2B01:00")
    #expect(PercentEncoding.queryValue("a b&c=d") == "a%20b%26c%3Dd")
}
