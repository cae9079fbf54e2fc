import Foundation
import Testing

@testable import FormModel

@Suite("Content sniffing")
struct ContentSnifferTests {
    static func sniff(_ bytes: [UInt8]) -> String? { ContentSniffer.mediaType(of: bytes) }
    static func sniff(_ text: String) -> String? { ContentSniffer.mediaType(of: Data(text.utf8)) }

    /// A zip of empty stored entries with these names.
    static func zip(_ names: [String]) -> [UInt8] {
        var out: [UInt8] = []
        for name in names {
            out += [0x50, 0x4B, 0x03, 0x04, 20, 0, 0, 0, 0, 0, 0, 0, 0, 0]
            out += [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
            out += [UInt8(name.utf8.count), 0, 0, 0]
            out += Array(name.utf8)
        }
        return out + [0x50, 0x4B, 0x01, 0x02]
    }

    @Test("images and PDF by signature")
    func signatures() {
        #expect(Self.sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0]) == "image/png")
        #expect(Self.sniff([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10]) == "image/jpeg")
        #expect(Self.sniff("GIF89a\u{01}\u{00}") == "image/gif")
        #expect(Self.sniff(Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WEBPVP8 ".utf8)) == "image/webp")
        #expect(Self.sniff("%PDF-1.7\n%\u{e2}") == "application/pdf")
        #expect(Self.sniff([0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1, 0]) == "application/x-ole-storage")
    }

    @Test("Office documents are zips with content types and their part folder")
    func office() {
        #expect(
            Self.sniff(Self.zip(["[Content_Types].xml", "_rels/.rels", "word/document.xml"])) == ContentSniffer.docx)
        #expect(Self.sniff(Self.zip(["[Content_Types].xml", "xl/workbook.xml"])) == ContentSniffer.xlsx)
        #expect(Self.sniff(Self.zip(["[Content_Types].xml", "ppt/presentation.xml"])) == ContentSniffer.pptx)
        #expect(Self.sniff(Self.zip(["word/document.xml"])) == "application/zip")
        #expect(Self.sniff(Self.zip(["photo.jpg"])) == "application/zip")
    }

    @Test("text with a consistent comma count is CSV, other text is plain")
    func text() {
        #expect(Self.sniff("name,size\nA,1\nB,2\n") == "text/csv")
        #expect(Self.sniff("\u{FEFF}name,\"size, kg\"\r\nA,\"1,5\"\r\n") == "text/csv")
        #expect(Self.sniff("Hello, world.\nNo commas here\n") == "text/plain")
        #expect(Self.sniff("just a note") == "text/plain")
        #expect(Self.sniff("One line, with a comma") == "text/plain")
    }

    @Test(
        "markup is never text/csv or an image",
        arguments: [
            ("<!DOCTYPE html><html><body>a,b\n</body></html>", "text/html"),
            ("  <html>\n", "text/html"),
            ("<p>hi</p>", "text/html"),
            ("a,b\n<script>alert(1)</script>,x\n", "text/html"),
            ("<svg xmlns=\"http://www.w3.org/2000/svg\"><script/></svg>", "image/svg+xml"),
            ("<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>", "image/svg+xml"),
            ("<?xml version=\"1.0\"?>\n<root/>", "application/xml"),
            ("\u{FEFF}\n<HTML>", "text/html"),
        ])
    func markup(_ text: String, _ type: String) {
        #expect(Self.sniff(text) == type)
    }

    @Test("binary and unknown content has no type")
    func unknown() {
        #expect(Self.sniff([0x00, 0x01, 0x02]) == nil)
        #expect(Self.sniff([0xC3, 0x28, 0x41]) == nil, "invalid UTF-8")
        #expect(Self.sniff([]) == nil)
        #expect(Self.sniff("a,b\u{0}c") == nil)
    }

    @Test("a CSV prefix cut inside a record is still CSV")
    func cutRecord() {
        #expect(Self.sniff("name,size\nA,1\nB,2") == "text/csv", "a whole last record without a line break")
        #expect(Self.sniff("name,size\nA,1\nB,2\nC") == "text/csv")
        #expect(Self.sniff("name,size\nA,1\nB,2,3") == "text/plain")
        #expect(ContentSniffer.sniff(Array("a,b\nc,d\n".utf8)) == "text/csv")
    }

    @Test("a text prefix cut inside a character is still text")
    func cutPrefix() {
        let bytes = Array("cr\u{e8}me br\u{fb}l\u{e9}e caf\u{e9}".utf8)
        #expect(Self.sniff(Array(bytes.dropLast(1))) == "text/plain")
    }
}
