import Foundation
import Testing

@testable import FormModel

/// JSONValue writes its own text, for the OpenAPI documents and JSON Schemas (slashes as they
/// are) and for a service's request bodies (slashes escaped): the bytes Foundation's JSONEncoder
/// wrote when the documents went through it, with sorted keys.
@Suite("JSON values")
struct JSONValueTests {
    /// A value as Foundation's encoder writes it: what the documents' bytes were before.
    struct Foundation: Encodable {
        let value: JSONValue

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch value {
            case .null: try container.encodeNil()
            case .bool(let flag): try container.encode(flag)
            case .number(let digits): try container.encode(try #require(Decimal(string: digits)))
            case .string(let text): try container.encode(text)
            case .array(let elements): try container.encode(elements.map(Foundation.init))
            case .object(let members): try container.encode(members.mapValues(Foundation.init))
            }
        }

        static func bytes(_ value: JSONValue, escapingSlashes: Bool = false) throws -> String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = escapingSlashes ? [.sortedKeys] : [.sortedKeys, .withoutEscapingSlashes]
            return String(decoding: try encoder.encode(Foundation(value: value)), as: UTF8.self)
        }
    }

    static let tricky: JSONValue = [
        "paths": ["/api/forms/{id}": ["$ref": "#/components/schemas/Object"]],
        "quote \" back\\slash": .strings(["tab\there", "line\nbreak\r", "bell\u{07}", "nul\u{0}", "é, 漢字, 🙂"]),
        "numbers": [
            .int(0), .int(-3), .decimal(Decimal(string: "0.01")!), .decimal(Decimal(string: "12.50")!),
            .decimal(Decimal(sign: .plus, exponent: -7, significand: 1)), .decimal(10_485_760),
        ],
        "flags": [true, false, .null],
        "": [:],
        "B": [], "a": "lower after upper", "10": "digits", "9": "sorted as text",
    ]

    @Test("the text is the bytes Foundation's encoder wrote, slashes kept or escaped")
    func sameAsFoundation() throws {
        #expect(String(decoding: Self.tricky.encoded(), as: UTF8.self) == (try Foundation.bytes(Self.tricky)))
        #expect(Self.tricky.text == (try Foundation.bytes(Self.tricky, escapingSlashes: true)))
    }

    @Test("a number stays as its text; members are read and set by key")
    func numbersAndMembers() {
        let read: JSONValue = ["amount": .number("12345678901234567890.12"), "name": "x"]
        #expect(read.text == #"{"amount":12345678901234567890.12,"name":"x"}"#)
        #expect(read["amount"] == .number("12345678901234567890.12") && read["missing"] == nil)
        var edited = read
        edited["name"] = nil
        edited["list"] = [1, 2]
        #expect(edited.text == #"{"amount":12345678901234567890.12,"list":[1,2]}"#)
        var notObject: JSONValue = "text"
        notObject["key"] = 1
        #expect(notObject == "text" && notObject.string == "text" && notObject.object == nil)
    }
}
