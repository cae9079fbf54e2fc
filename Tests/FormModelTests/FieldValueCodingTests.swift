import Foundation
import Testing

@testable import FormModel

@Suite("Field values as JSON")
struct FieldValueCodingTests {
    static func json(_ values: [String: FieldValue]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(values), as: UTF8.self)
    }

    @Test("values encode as plain JSON")
    func encoding() throws {
        let values: [String: FieldValue] = [
            "a": .text("Crash"), "b": .number(Decimal(string: "12.50")!), "c": .bool(true),
            "d": .date(LocalDate("2026-11-21")!),
            "e": .time(LocalTime("14:30")!), "f": .datetime(LocalDateTime("2026-11-21T14:30")!),
            "g": .duration(ISODuration(hours: 1, minutes: 30)),
            "h": .choice("ios-app"), "i": .choices(["bug", "ui"]),
            "j": .files([SubmittedFile(id: "f1", name: "a.png", size: 3, contentType: "image/png")]),
        ]
        #expect(
            try Self.json(values)
                == #"{"a":"Crash","b":12.5,"c":true,"d":"2026-11-21","e":"14:30","f":"2026-11-21T14:30","g":"PT1H30M","h":"ios-app","i":["bug","ui"],"j":[{"contentType":"image\/png","id":"f1","name":"a.png","size":3}]}"#
        )
    }

    @Test("numbers keep their digits through JSON")
    func numberDigits() throws {
        let value = FieldValue.number(Decimal(string: "12345678901234.56")!)
        let data = try JSONEncoder().encode(["n": value])
        let back = try JSONDecoder().decode([String: FieldValue].self, from: data)
        #expect(back["n"] == value)
    }

    @Test("decoded values conform to their fields' kinds")
    func roundTrip() throws {
        let schema = DemoForm.schema
        let result = DemoForm.validate([
            "due": ["2026-11-21"], "start": ["09:15"], "estimate": ["PT45M"], "cost": ["USD 12.50"],
            "categories": ["ui"],
            "priority": ["high"], "remind": ["on"], "reminder": ["2026-11-21T08:00"], "phone": ["555 123 4567"],
        ])
        #expect(result.isValid)
        let data = try JSONEncoder().encode(result.values)
        let decoded = try JSONDecoder().decode([String: FieldValue].self, from: data)
        #expect(decoded["due"] == .text("2026-11-21"))
        #expect(FieldValue.conformed(decoded, to: schema) == result.values)
    }

    @Test("a number may come back as a string")
    func numberFromString() {
        let cost = DemoForm.schema.field(named: "cost")!
        #expect(FieldValue.text("12.50").conformed(to: cost) == .number(Decimal(string: "12.5")!))
        #expect(FieldValue.text("twelve").conformed(to: cost) == nil)
    }
}
