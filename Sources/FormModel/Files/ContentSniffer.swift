import Foundation

/// The MIME type of a file from its first bytes, never from its name or the declared type.
///
/// Markup (HTML, SVG, XML) is always named as such, so an `accept` list of images or CSV refuses
/// it whatever the file is called. Pass the whole file or its first bytes (8 KB is plenty): a
/// character or a CSV record cut at the end of a prefix is allowed for.
public enum ContentSniffer {
    public static let docx = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
    public static let xlsx = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    public static let pptx = "application/vnd.openxmlformats-officedocument.presentationml.presentation"

    /// The sniffed type, or nil for content it does not recognise.
    public static func mediaType(of data: Data) -> String? { mediaType(of: [UInt8](data)) }

    /// The sniffed type, or nil for content it does not recognise (same as `mediaType(of:)`).
    public static func sniff(_ bytes: [UInt8]) -> String? { mediaType(of: bytes) }

    /// The sniffed type, or nil for content it does not recognise.
    public static func mediaType(of bytes: [UInt8]) -> String? {
        func starts(_ signature: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + signature.count && Array(bytes[offset..<offset + signature.count]) == signature
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if starts([0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return "image/gif" }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return "image/webp" }
        if starts(Array("%PDF-".utf8)) { return "application/pdf" }
        if starts([0x50, 0x4B, 0x03, 0x04]) { return zipType(bytes) }
        if starts([0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) { return "application/x-ole-storage" }
        return textType(bytes)
    }

    /// Office Open XML when the first entries hold `[Content_Types].xml` and a `word/`, `xl/` or
    /// `ppt/` part; else a plain zip.
    static func zipType(_ bytes: [UInt8]) -> String {
        var names: [String] = []
        var offset = 0
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        while names.count < 64, offset + 30 <= bytes.count,
            bytes[offset..<offset + 4].elementsEqual([0x50, 0x4B, 0x03, 0x04])
        {
            let flags = u16(offset + 6)
            let compressed = u32(offset + 18)
            let nameLength = u16(offset + 26)
            let extraLength = u16(offset + 28)
            guard offset + 30 + nameLength <= bytes.count else { break }
            names.append(String(decoding: bytes[offset + 30..<offset + 30 + nameLength], as: UTF8.self))
            // With a data descriptor the size is only known after the data: stop walking.
            if flags & 0x08 != 0 { break }
            offset += 30 + nameLength + extraLength + compressed
        }
        guard names.contains("[Content_Types].xml") else { return "application/zip" }
        if names.contains(where: { $0.hasPrefix("word/") }) { return docx }
        if names.contains(where: { $0.hasPrefix("xl/") }) { return xlsx }
        if names.contains(where: { $0.hasPrefix("ppt/") }) { return pptx }
        return "application/zip"
    }

    /// Text: valid UTF-8 without NULs; markup named as markup; CSV when lines agree on a comma count.
    static func textType(_ bytes: [UInt8]) -> String? {
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        guard !body.isEmpty, !body.contains(0) else { return nil }
        var text: String?
        // A prefix may cut the last character in half.
        for cut in 0...min(3, body.count - 1) where text == nil {
            text = String(validating: body.dropLast(cut), as: UTF8.self)
        }
        guard let text else { return nil }
        if let markup = markupType(text) { return markup }
        if text.unicodeScalars.contains(where: { $0.value < 32 && !"\t\n\r\u{0C}".unicodeScalars.contains($0) }) {
            return nil
        }
        return isCSV(text) ? "text/csv" : "text/plain"
    }

    /// HTML, SVG or XML when the text starts like markup or carries tags browsers would run.
    static func markupType(_ text: String) -> String? {
        let head = String(text.prefix(1024)).lowercased()
        let start = head.drop { $0.isWhitespace }
        let svg = head.contains("<svg")
        if start.hasPrefix("<?xml") {
            return svg ? "image/svg+xml" : (head.contains("<html") ? "text/html" : "application/xml")
        }
        if start.hasPrefix("<svg") { return "image/svg+xml" }
        if start.hasPrefix("<") { return svg && !head.contains("<html") ? "image/svg+xml" : "text/html" }
        for tag in ["<html", "<script", "<body", "<head", "<!doctype", "<iframe", "<object", "<embed", "<meta", "<svg"]
        where head.contains(tag) {
            return tag == "<svg" ? "image/svg+xml" : "text/html"
        }
        return nil
    }

    /// At least two records, each with the same number of commas outside quotes, more than none.
    /// A last record without a line break may be cut short: with fewer commas it is not counted.
    static func isCSV(_ text: String) -> Bool {
        var counts: [Int] = []
        var commas = 0
        var quoted = false
        var recordHasContent = false
        for ch in text {
            switch ch {
            case "\"":
                quoted.toggle()
                recordHasContent = true
            case "," where !quoted:
                commas += 1
                recordHasContent = true
            case "\n", "\r\n", "\r":
                if quoted { continue }
                if recordHasContent { counts.append(commas) }
                commas = 0
                recordHasContent = false
            default: recordHasContent = true
            }
        }
        if recordHasContent, counts.isEmpty || commas >= counts[0] { counts.append(commas) }
        guard counts.count >= 2, let first = counts.first, first > 0 else { return false }
        return counts.allSatisfy { $0 == first }
    }
}
