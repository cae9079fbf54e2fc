import FormModel
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

@Test("strings decode whole with and without escapes: UTF-8 around escapes, every escape, control characters refused")
func jsonStrings() throws {
    let cases: [(String, String)] = [
        (#""""#, ""),
        (#""plain ascii""#, "plain ascii"),
        (#""Müller – 東京""#, "Müller – 東京"),
        (#""ä\nb\tc\r\b\f\/\\\"é""#, "ä\nb\tc\r\u{08}\u{0C}/\\\"é"),
        (#""\u00e9 and \ud83d\ude00 then ü""#, "é and 😀 then ü"),
        (#""ends with escape\"""#, "ends with escape\""),
    ]
    for (text, expected) in cases {
        #expect(try JSONReader.parse(Array(text.utf8)) == .string(expected), "\(text)")
    }
    for text in ["\"a\u{01}b\"", "\"a\\n\u{02}\"", "\"a\\\u{01}\"", "\"open", "\"open\\", "\"\\ud83d x\"", "\"\\q\""] {
        #expect(throws: JSONReader.Malformed.self, "\(text)") { try JSONReader.parse(Array(text.utf8)) }
    }
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

@Test("objects nest inside objects and arrays; a name given twice keeps its last value; a byte order mark is skipped")
func jsonObjects() throws {
    let text = "\u{FEFF}" + #"{"d":{"results":[{"a":1,"n":{"__deferred":{"uri":"x"}},"b":{}},{"a":2,"a":3}]},"e":[]}"#
    let value = try JSONReader.parse(Array(text.utf8))
    let results = value["d"]?["results"]
    #expect(
        results
            == .array([
                .object([
                    "a": .number("1"), "n": .object(["__deferred": .object(["uri": .string("x")])]), "b": .object([:]),
                ]),
                .object(["a": .number("3")]),
            ]))
    #expect(value["e"] == .array([]))
    #expect(value.object?.count == 2)
}

@Test(
    "an entity's objects and arrays under names not kept are read but not built; malformed ones are refused all the same"
)
func jsonKeptContainers() throws {
    let text = #"""
        {"d":{"__metadata":{"etag":"W/\"1\"","uri":"u"},"Name":"A\/B","Price":"12.50","n":{"__deferred":{"uri":"x\u00e9"}},
        "list":[1,{"a":[true,false,null]},"s"],"empty":{},"none":[],"results":{"k":{"deep":1}},"flag":true,"num":-1.5e2}}
        """#
    let value = try JSONReader.parse(Array(text.utf8), keepingContainersNamed: ODataJSON.entityContainers)
    let d = try #require(value["d"]?.object)
    #expect(d["__metadata"] == .object(["etag": .string("W/\"1\""), "uri": .string("u")]))
    #expect(d["Name"] == .string("A/B") && d["Price"] == .string("12.50") && d["flag"] == .bool(true))
    #expect(d["num"] == .number("-1.5e2"))
    for name in ["n", "list", "empty", "none"] { #expect(d[name] == .null, "\(name)") }
    // `results` is kept (V2's wrapper of an entity), the objects inside it under other names not.
    #expect(d["results"] == .object(["k": .null]))
    for bad in [
        #"{"d":{"n":{"a":1,}}}"#, #"{"d":{"n":[1 2]}}"#, #"{"d":{"n":{"a":"\q"}}}"#, #"{"d":{"n":{"a":01}}}"#,
        #"{"d":{"n":{"a" 1}}}"#, #"{"d":{"n":["open]}}"#, "{\"d\":{\"n\":[\"a\u{01}\"]}}",
        "{\"d\":{\"n\":" + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "}}",
    ] {
        #expect(throws: JSONReader.Malformed.self, "\(bad)") {
            try JSONReader.parse(Array(bad.utf8), keepingContainersNamed: ODataJSON.entityContainers)
        }
    }
}
