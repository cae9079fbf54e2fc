import Testing

@testable import FormXML

/// Where a start tag or an attribute is written, read from the text, since libxml2 keeps no columns.
@Suite("Source locator")
struct SourceLocatorTests {
    static let text = """
        <?xml version="1.0"?>
        <!-- <text name="fake" colour="x"/> on line 2 -->
        <f:form xmlns:f="urn:x" note="a > b">
          <![CDATA[ <text colour="y"/> ]]>
          <f:text name="é" label="Ünïcode" colour="red"/>
          <text
              name="multi"
              colour="blue"/>
        </f:form>
        """

    static func locate(_ line: Int, _ element: String, _ attribute: String? = nil) -> (line: Int, column: Int)? {
        SourceLocator(Array(text.utf8)[...]).locate(line: line, element: element, attribute: attribute)
    }

    @Test("a start tag's < and an attribute's name, in characters, past comments, CDATA and quoted >")
    func positions() throws {
        #expect(try #require(Self.locate(3, "form")) == (3, 1))
        #expect(try #require(Self.locate(3, "form", "note")) == (3, 25))
        #expect(try #require(Self.locate(5, "text")) == (5, 3))
        // Columns count characters, not UTF-8 bytes: "é" and "Ünïcode" are one and seven.
        #expect(try #require(Self.locate(5, "text", "colour")) == (5, 36))
    }

    @Test("an attribute on a later line of its tag is found there; a tag spanning the line is found before it")
    func multiLine() throws {
        #expect(try #require(Self.locate(6, "text", "colour")) == (8, 7))
        #expect(try #require(Self.locate(8, "text")) == (6, 3))
        // An attribute the tag does not have: the tag itself.
        #expect(try #require(Self.locate(6, "text", "hint")) == (6, 3))
    }

    @Test("one reader answers many questions, each from the index it read once")
    func manyQuestions() throws {
        let lines = (1...20_000).map { #"  <text name="f\#($0)" colour="x"/>"# }
        let big = "<form>\n" + lines.joined(separator: "\n") + "\n</form>"
        let locator = SourceLocator(Array(big.utf8)[...])
        for line in stride(from: 2, through: 20_001, by: 7) {
            #expect(locator.locate(line: line, element: "text", attribute: "colour")?.line == line)
        }
        #expect(try #require(locator.locate(line: 20_001, element: "text", attribute: "colour")) == (20_001, 23))
    }

    @Test("of two tags with one name on a line, the one with the attribute; lone CRs end lines; xmlns:name is no name")
    func sameLine() throws {
        let one = SourceLocator(Array(#"<l><option value="a" lable="A"/><option value="b"/></l>"#.utf8)[...])
        #expect(try #require(one.locate(line: 1, element: "option", attribute: "lable")) == (1, 22))
        #expect(try #require(one.locate(line: 1, element: "option")) == (1, 4))
        let cr = SourceLocator(Array("<a>\r<b x=\"1\"/>\r\n<b y=\"2\"/></a>".utf8)[...])
        #expect(try #require(cr.locate(line: 3, element: "b", attribute: "y")) == (3, 4))
        #expect(try #require(cr.locate(line: 2, element: "b")) == (2, 1))
        let ns = SourceLocator(Array(#"<t xmlns:name="urn:x" label="x" name="n"/>"#.utf8)[...])
        #expect(try #require(ns.locate(line: 1, element: "t", attribute: "name")) == (1, 33))
    }

    @Test("nothing for an element that is not there, or text in another encoding")
    func missing() {
        #expect(Self.locate(5, "number") == nil)
        let utf16 = Array("<form/>".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(SourceLocator(utf16[...]).locate(line: 1, element: "form") == nil)
    }
}
