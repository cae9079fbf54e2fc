/// File names people uploaded, made safe to store, show and offer on download.
public enum FileName {
    /// Characters never kept: path separators and those Windows forbids.
    static let forbidden: Set<Character> = ["/", "\\", ":", "*", "?", "\"", "<", ">", "|"]

    /// The last path component without control or bidi characters, forbidden characters or
    /// leading dots, at most 200 characters with the extension kept; "file" when nothing is left.
    public static func sanitise(_ name: String) -> String {
        let last = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        var cleaned = String(
            String.UnicodeScalarView(
                last.unicodeScalars.filter { scalar in
                    let category = scalar.properties.generalCategory
                    return category != .control && category != .format && category != .lineSeparator
                        && category != .paragraphSeparator
                }))
        cleaned.removeAll { forbidden.contains($0) }
        cleaned = String(cleaned.drop { $0 == "." || $0.isWhitespace })
        while let end = cleaned.last, end.isWhitespace || end == "." { cleaned.removeLast() }
        if cleaned.count > 200 {
            let dot = cleaned.lastIndex(of: ".")
            let ext = dot.map { String(cleaned[$0...]) } ?? ""
            if !ext.isEmpty && ext.count <= 20 {
                cleaned = String(cleaned.prefix(200 - ext.count)) + ext
            } else {
                cleaned = String(cleaned.prefix(200))
            }
        }
        return cleaned.isEmpty ? "file" : cleaned
    }
}
