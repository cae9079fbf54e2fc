import Foundation

/// MIME types as `accept` lists them: matching with `type/*` patterns, and names people read.
public enum MediaTypes {
    /// Whether a sniffed type matches one of the accepted types or patterns; an unknown type matches none.
    public static func matches(_ contentType: String?, accept: [String]) -> Bool {
        guard let type = contentType.map(essence), !type.isEmpty else { return false }
        return accept.map(essence).contains { pattern in
            if pattern == "*/*" { return true }
            if pattern.hasSuffix("/*") { return type.hasPrefix(pattern.dropLast()) }
            return type == pattern
        }
    }

    /// "a PNG, JPEG, PDF or CSV"; with patterns, each with its article: "an image or a PDF".
    public static func describe(_ accept: [String]) -> String {
        var names: [String] = []
        for name in accept.map(name(of:)) where !names.contains(name) { names.append(name) }
        let patterns = accept.contains { $0.hasSuffix("/*") }
        if !patterns, let first = names.first {
            return "\(FieldWording.article(for: first)) \(Words.list(names, conjunction: "or"))"
        }
        return Words.list(names.map { "\(FieldWording.article(for: $0)) \($0)" }, conjunction: "or")
    }

    /// "PNG" for `image/png`, "image" for `image/*`, "Word document" for `.docx`.
    public static func name(of type: String) -> String {
        let type = essence(type)
        let known: [String: String] = [
            "image/png": "PNG", "image/jpeg": "JPEG", "image/gif": "GIF", "image/webp": "WebP", "image/svg+xml": "SVG",
            "application/pdf": "PDF", "text/csv": "CSV", "text/plain": "text file", "application/zip": "ZIP",
            "application/json": "JSON", "application/xml": "XML", "text/html": "HTML",
            "application/msword": "DOC", "application/vnd.ms-excel": "XLS", "application/vnd.ms-powerpoint": "PPT",
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "DOCX",
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "XLSX",
            "application/vnd.openxmlformats-officedocument.presentationml.presentation": "PPTX",
            "image/*": "image", "video/*": "video", "audio/*": "audio file", "text/*": "text file", "*/*": "file",
        ]
        if let name = known[type] { return name }
        if type.hasSuffix("/*") { return "\(type.dropLast(2)) file" }
        var subtype = Substring(type.split(separator: "/").last ?? Substring(type))
        if subtype.hasPrefix("x-") { subtype = subtype.dropFirst(2) }
        if let plus = subtype.firstIndex(of: "+") { subtype = subtype[..<plus] }
        return subtype.uppercased()
    }

    /// The type without parameters, lower-cased: `text/csv; charset=utf-8` → `text/csv`.
    static func essence(_ type: String) -> String {
        (type.split(separator: ";").first.map(String.init) ?? "").trimmingCharacters(in: .whitespaces).lowercased()
    }
}
