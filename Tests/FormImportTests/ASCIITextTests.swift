import FormModel
import Testing

@testable import FormImport

/// The OData importer's byte-level helpers answer as the String operations they stand for.
@Suite("ASCII text helpers")
struct ASCIITextTests {
    @Test("prefixes, plain names, tail keys and byte searches agree with String's own answers")
    func helpers() {
        #expect("Edm.String".hasASCIIPrefix("Edm.", andMore: true) && !"Edm.".hasASCIIPrefix("Edm.", andMore: true))
        #expect("Edm.".hasASCIIPrefix("Edm.") && !"Ed".hasASCIIPrefix("Edm.") && !"".hasASCIIPrefix("Edm."))
        #expect(!"EdmX.String".hasASCIIPrefix("Edm.") && !"édm.String".hasASCIIPrefix("Edm."))
        for name in ["Name", "_id", "a1_b2", "x"] { #expect(FormSchema.isValidName(name), "\(name)") }
        for name in ["", "1a", "a-b", "a.b", "naïve", "a b", "_csrf!"] {
            #expect(!FormSchema.isValidName(name), "\(name)")
        }
        #expect("UI.LineItem".asciiTailKey != "UI.LineIten".asciiTailKey)
        #expect("ab".asciiTailKey != "b".asciiTailKey, "the length counts")
        let path = "Namespace.Type/Property@UI.Hidden"
        #expect(path.firstIndex(ofASCII: UInt8(ascii: "/")) == path.firstIndex(of: "/"))
        #expect(path.lastIndex(ofASCII: UInt8(ascii: ".")) == path.lastIndex(of: "."))
        #expect(path.contains(ascii: UInt8(ascii: "@")) && !path.contains(ascii: UInt8(ascii: "#")))
        #expect("  Edm.String \n".trimmingASCIIWhitespace == "Edm.String")
    }

    @Test("a text cache finds a value by the bytes it was stored under, also after it grows")
    func textCache() {
        var cache = TextCache<Int>()
        for index in 0..<200 {
            let text = "Term\(index)"
            var bytes = text
            let (key, found) = bytes.withUTF8 { cache.lookup($0) }
            #expect(found == nil)
            cache.store(key, text: text, value: index)
        }
        for index in [0, 63, 64, 199] {
            var text = "Term\(index)"
            #expect(text.withUTF8 { cache.lookup($0).value } == index)
        }
        var unknown = "Term200"
        #expect(unknown.withUTF8 { cache.lookup($0).value } == nil)
    }
}
