import Foundation

// REMOVE AT MERGE: the model branch adds `ContentSniffer` and `FileName` to
// `Sources/FormModel/Files/`. Until the lead merges it, these internal stand-ins with the same
// names and signatures let the attachments pipeline compile and be tested. Types of this
// module shadow imported ones, so after the merge this file must be deleted, or the model's
// versions are silently not used.

/// Stand-in for the model's `ContentSniffer` (REMOVE AT MERGE).
enum ContentSniffer {
    /// The MIME type the first bytes of a file show, or nil when they show nothing known.
    static func sniff(_ bytes: [UInt8]) -> String? {
        func starts(_ signature: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + signature.count && Array(bytes[offset..<offset + signature.count]) == signature
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if starts([0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return "image/gif" }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return "image/webp" }
        if starts(Array("%PDF-".utf8)) { return "application/pdf" }
        if starts([0x50, 0x4B, 0x03, 0x04]) { return "application/zip" }
        // Markup: after optional BOM and whitespace, the tags a browser would render.
        var start = starts([0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < bytes.count, [0x09, 0x0A, 0x0C, 0x0D, 0x20].contains(bytes[start]) { start += 1 }
        let head = String(decoding: bytes[start..<min(bytes.count, start + 512)], as: UTF8.self).lowercased()
        for tag in ["<!doctype html", "<html", "<head", "<body", "<script", "<iframe", "<h1", "<div", "<table", "<a", "<p", "<style", "<title", "<b", "<br", "<font", "<!--"] {
            guard head.hasPrefix(tag) else { continue }
            let after = head.dropFirst(tag.count).first
            if tag == "<!--" || after == " " || after == ">" || after == "\t" || after == "\n" || after == "\r" { return "text/html" }
        }
        if head.hasPrefix("<svg") || (head.hasPrefix("<?xml") && head.contains("<svg")) { return "image/svg+xml" }
        if head.hasPrefix("<?xml") { return "application/xml" }
        return nil
    }
}

/// Stand-in for the model's `FileName` (REMOVE AT MERGE).
enum FileName {
    /// A file name safe to show and to offer on download: no folders, no control characters,
    /// no leading dots, at most 255 UTF-8 bytes; "file" when nothing is left.
    static func sanitise(_ name: String) -> String {
        let last = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        var cleaned = String(String.UnicodeScalarView(last.unicodeScalars.filter { !$0.properties.generalCategory.isControlOrFormat }))
        cleaned = cleaned.trimmingCharacters(in: .whitespaces)
        while cleaned.hasPrefix(".") { cleaned.removeFirst() }
        while cleaned.utf8.count > 255 { cleaned.removeFirst() }
        return cleaned.isEmpty ? "file" : cleaned
    }
}

extension Unicode.GeneralCategory {
    fileprivate var isControlOrFormat: Bool {
        self == .control || self == .format || self == .lineSeparator || self == .paragraphSeparator
    }
}
