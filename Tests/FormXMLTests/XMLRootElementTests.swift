import Testing

@testable import FormXML

/// The root element is read before a document is parsed, so that it is parsed once, into the
/// representation its format needs: whatever the encoding and however long the prolog.
@Suite("Root element probe")
struct XMLRootElementTests {
    private func probe(_ text: String) -> XMLRootElement? {
        XMLRootElement.probe(Array(text.utf8))
    }

    /// `text` in UTF-16 with a byte order mark, little- or big-endian.
    private func utf16(_ text: String, bigEndian: Bool) -> [UInt8] {
        var bytes: [UInt8] = bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
        for unit in text.utf16 {
            let high = UInt8(unit >> 8)
            let low = UInt8(unit & 0xFF)
            bytes += bigEndian ? [high, low] : [low, high]
        }
        return bytes
    }

    @Test("the root's local name, namespace and line, past the declaration, comments and processing instructions")
    func prolog() {
        let root = probe(
            """
            <?xml version="1.0" encoding="utf-8"?>
            <!-- a comment -->
            <?pi data?>
            <edmx:Edmx Version="4.0"
                xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx"><edmx:DataServices/></edmx:Edmx>
            """)
        #expect(
            root
                == XMLRootElement(localName: "Edmx", namespaceURI: "http://docs.oasis-open.org/odata/ns/edmx", line: 4))
        #expect(probe(#"<form xmlns="urn:fieldwork:form:1"/>"#)?.namespaceURI == "urn:fieldwork:form:1")
        #expect(probe("<r/>") == XMLRootElement(localName: "r", namespaceURI: nil, line: 1))
    }

    @Test("a comment of 10 KB before the root, with tags in it, is passed over")
    func longComment() {
        let text = "<!-- " + String(repeating: "a <b> c ", count: 1300) + " -->\n\n<x:Edmx xmlns:x=\"urn:x\"/>"
        #expect(text.utf8.count > 10_000)
        #expect(probe(text) == XMLRootElement(localName: "Edmx", namespaceURI: "urn:x", line: 3))
    }

    @Test("a UTF-8 byte order mark is passed over")
    func byteOrderMark() {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("<?xml version=\"1.0\"?>\n<Edmx/>".utf8)
        #expect(XMLRootElement.probe(bytes) == XMLRootElement(localName: "Edmx", namespaceURI: nil, line: 2))
    }

    @Test("UTF-16 documents are read in their encoding", arguments: [false, true])
    func utf16(bigEndian: Bool) {
        let text = """
            <?xml version="1.0" encoding="UTF-16"?>
            <!-- \u{00E9}t\u{00E9} -->
            <edmx:Edmx xmlns:edmx="http://schemas.microsoft.com/ado/2007/06/edmx" Version="1.0"/>
            """
        #expect(
            XMLRootElement.probe(utf16(text, bigEndian: bigEndian))
                == XMLRootElement(
                    localName: "Edmx", namespaceURI: "http://schemas.microsoft.com/ado/2007/06/edmx", line: 3))
    }

    @Test("nothing after the root's start tag is read: a document broken later still gives its root")
    func stopsAtTheRoot() {
        #expect(probe("<r><a></r>")?.localName == "r")
        #expect(probe("<r>" + String(repeating: "<a>", count: 100_000))?.localName == "r")
    }

    @Test(
        "no root where the bytes do not reach one: malformed before the root, a DOCTYPE, none at all, too large",
        arguments: [
            "<?xml version=\"1.0\"?>\n<!-- a -- b -->\n<r/>", "text before <r/>", "<<r/>",
            "<!DOCTYPE r [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><r>&e;</r>", "", "<!-- only a comment -->",
        ])
    func noRoot(_ text: String) {
        #expect(probe(text) == nil)
    }

    @Test("a document over the size limit is not read")
    func tooLarge() {
        let bytes = Array("<r/>".utf8) + [UInt8](repeating: 0x20, count: XMLLimits.maximumDocumentBytes)
        #expect(XMLRootElement.probe(bytes) == nil)
    }
}
