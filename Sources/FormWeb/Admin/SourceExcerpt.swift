/// The line of a document an error points at, with a marker under the column, as compilers
/// show it: what the admin needs to find the mistake in their file.
struct SourceExcerpt: Sendable, Hashable {
    var line: String
    /// Spaces (tabs kept, so the marker lines up) and a `^` under the column.
    var marker: String

    /// The excerpt of `data` at a 1-based line and column, or nil when the line is not there.
    init?(_ data: [UInt8], line number: Int, column: Int) {
        guard number > 0 else { return nil }
        var current = 1
        var start = 0
        var index = 0
        while current < number {
            guard let next = data[index...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
            index = next + 1
            current += 1
        }
        start = index
        var end = data[start...].firstIndex(of: UInt8(ascii: "\n")) ?? data.count
        if end > start, data[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        var text = String(decoding: data[start..<end], as: UTF8.self)
        if start == 0, text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        // Columns count characters, as libxml2 and `SourceLocator` count them (a tab is one).
        let limit = 240
        let characters = Array(text)
        let position = min(max(column - 1, 0), characters.count)
        // Very long lines (minified files) show a window around the column.
        var from = 0
        if characters.count > limit, position > limit / 2 { from = min(position - limit / 2, characters.count - limit) }
        let to = min(characters.count, from + limit)
        let shown = characters[from..<to]
        self.line = (from > 0 ? "…" : "") + String(shown) + (to < characters.count ? "…" : "")
        let pad = characters[from..<min(max(position, from), to)].map { $0 == "\t" ? "\t" : " " }.joined()
        self.marker = (from > 0 ? " " : "") + pad + "^"
    }
}
