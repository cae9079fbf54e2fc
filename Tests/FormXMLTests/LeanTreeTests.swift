import Testing

@testable import FormXML

/// The lean element tree EDMX is read into reads like libxml2's own tree would (with blank
/// text dropped as `XML_PARSE_NOBLANKS` drops it).
@Suite("Lean XML tree")
struct LeanTreeTests {
    private func parse(_ text: String) throws -> LeanXMLDocument {
        try LeanXMLDocument.parse(Array(text.utf8))
    }

    private func children(_ node: XMLNode) -> [XMLNode] {
        var result: [XMLNode] = []
        node.forEachChild { result.append($0) }
        return result
    }

    @Test("attribute values come decoded: predefined entities and character references")
    func attributeValues() throws {
        let xml = try parse(#"<r a="x &amp; y" b="&#38;&lt;&gt;&quot;&apos;&#65;" c="" xmlns:p="urn:p" p:d="1"/>"#)
        let values = xml.withRoot { root -> [String?] in
            [root.attribute("a"), root.attribute("b"), root.attribute("c"), root.attribute("d"), root.attribute("e")]
        }
        #expect(values == [#"x & y"#, #"&<>"'A"#, "", nil, nil])
        let namespaced = xml.withRoot { root -> [String] in
            var found: [String] = []
            root.forEachAttribute {
                if let ns = $0.namespaceKey { found.append(ns.uri + " " + $0.localName + "=" + $0.value) }
            }
            return found
        }
        #expect(namespaced == ["urn:p d=1"])
    }

    @Test("an element's own text is kept, blank text between elements is not")
    func ownText() throws {
        let xml = try parse(
            """
            <r xmlns="urn:x">
              <String>  </String>
              <String>a &amp; b&#33;</String>
              <Record>
                <P>1</P>
              </Record>
              <Mixed>x<!-- c --> y</Mixed>
              <Empty/>
            </r>
            """)
        let texts = xml.withRoot { root in children(root).map(\.ownText) }
        #expect(texts == ["  ", "a & b!", "", "x y", ""])
        let names = xml.withRoot { root in children(root).map(\.localName) }
        #expect(names == ["String", "String", "Record", "Mixed", "Empty"])
        #expect(xml.withRoot { $0.namespaceURI } == "urn:x")
    }

    @Test("elements keep the line of their start tag")
    func lines() throws {
        let xml = try parse("<r>\n<a\n b='1'\n/><b/>\n\n<c/></r>")
        let lines = xml.withRoot { root in [root.line] + children(root).map(\.line) }
        #expect(lines == [1, 2, 4, 6])
        // The scan back to a tag's `<` passes eight bytes at a time that hold neither `<` nor a line break.
        #expect(ByteScan.hasByte(0x3C00_0000_0000_0000, UInt8(ascii: "<")))
        #expect(!ByteScan.hasByte(0x4142_4344_4546_4748, UInt8(ascii: "<")))
    }

    @Test("a DOCTYPE and malformed XML are refused as before")
    func refusals() throws {
        let doctype = try #require(throws: XMLParseError.self) {
            _ = try parse("<!DOCTYPE r [<!ENTITY e 'x'>]><r>&e;</r>")
        }
        #expect(doctype.reason == .doctype)
        let malformed = try #require(throws: XMLParseError.self) { _ = try parse("<r><a></r>") }
        guard case .malformed(let message?) = malformed.reason else {
            Issue.record("not refused as malformed: \(malformed)")
            return
        }
        #expect(message.contains("mismatch"))
        #expect(malformed.line == 1)
    }

    @Test("a lean document keeps its parser's warnings and locates start tags as libxml2's tree does")
    func warningsAndLocations() throws {
        let xml = try parse("<?xml version=\"1.1\"?>\n<r>\n  <a\n    b='1'/>\n</r>")
        #expect(xml.warnings.map(\.line) == [1])
        let a = xml.withRoot { root in children(root)[0].line }
        #expect(a == 3)
        let b = try #require(xml.locate(line: a, element: "a", attribute: "b"))
        #expect(b.line == 4 && b.column == 5)
    }

    @Test("the schema validator reads libxml2's tree (a lean document is another type, which it does not take)")
    func validatorReadsTheDOM() throws {
        let xsd = #"""
            <xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:element name="r"/></xs:schema>
            """#
        guard case .success(let validator) = XMLSchemaValidator.compile(Array(xsd.utf8)) else {
            Issue.record("the schema compiles")
            return
        }
        #expect(validator.validate(try SafeXMLDocument.parse(Array("<r/>".utf8))).isEmpty)
        #expect(!validator.validate(try SafeXMLDocument.parse(Array("<s/>".utf8))).isEmpty)
    }
}
