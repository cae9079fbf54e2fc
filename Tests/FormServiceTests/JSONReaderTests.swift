import Testing

@testable import FormService

@Test("JSON numbers keep every digit, strings every escape")
func jsonExact() throws {
    let value = try JSONReader.parse(
        Array(#"{"a":12345678901234567890.123,"b":"x\"\u00e9\ud83d\ude00\/","c":[true,null,-1e3]}"#.utf8))
    #expect(value["a"] == .number("12345678901234567890.123"))
    #expect(value["b"] == .string("x\"é😀/"))
    #expect(value["c"] == .array([.bool(true), .null, .number("-1e3")]))
}

@Test("malformed JSON is refused with where it stopped")
func jsonMalformed() {
    for text in ["{", "[1,]", "01", "\"\\x\"", "{} x", "<html>", "{\"a\" 1}", String(repeating: "[", count: 100)] {
        #expect(throws: JSONReader.Malformed.self) { try JSONReader.parse(Array(text.utf8)) }
    }
}

@Test("JSON is written with members in key order and strings escaped")
func jsonWritten() {
    let value = JSONValue.object(["b": .number("1.50"), "a": .string("x\"</\n"), "c": .null])
    #expect(value.text == #"{"a":"x\"<\/\n","b":1.50,"c":null}"#)
}
