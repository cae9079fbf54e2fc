/// Where an element's start tag, or one of its attributes, is written in a document's text.
///
/// libxml2 keeps a line for each node but no column, and nothing for attributes: a refusal that
/// names an attribute of a start tag written over several lines would point at the tag's first
/// line. This reads the text again, as an editor would, to give the line and column of the tag's
/// `<`, or of the attribute's name. It reads UTF-8 (and ASCII-compatible encodings); in any
/// other encoding it finds nothing and the caller keeps libxml2's line.
struct SourceLocator {
    private let bytes: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    /// A start tag found in the text: where its `<` is and where its name ends.
    private struct Tag {
        var start: Int
        var nameEnd: Int
        var line: Int
    }

    /// The position of the start tag of `element` (local name, any prefix) that begins on `line`
    /// or, for a tag written over several lines, last before it (else the first after it); with
    /// `attribute`, the position of that attribute's name in the tag, or of the tag without it.
    func locate(line: Int, element: String, attribute: String? = nil) -> (line: Int, column: Int)? {
        guard line > 0, let tag = startTag(named: Array(element.utf8), near: line) else { return nil }
        if let attribute, let at = attributeName(Array(attribute.utf8), in: tag) { return position(of: at) }
        return position(of: tag.start)
    }

    private func startTag(named name: [UInt8], near line: Int) -> Tag? {
        var best: Tag?
        var current = 1
        var i = bytes.startIndex
        let end = bytes.endIndex
        while i < end {
            let byte = bytes[i]
            if byte == newline {
                current += 1
                i += 1
                continue
            }
            guard byte == lessThan, i + 1 < end else {
                i += 1
                continue
            }
            // Comments, CDATA sections and processing instructions may hold text that looks like a tag.
            if let skipped = skipMarkup(at: i, lines: &current) {
                i = skipped
                continue
            }
            let nameStart = i + 1
            var nameEnd = nameStart
            while nameEnd < end, !isDelimiter(bytes[nameEnd]) { nameEnd += 1 }
            if nameEnd > nameStart, bytes[nameStart] != slash, localPart(nameStart..<nameEnd).elementsEqual(name) {
                let tag = Tag(start: i, nameEnd: nameEnd, line: current)
                if current <= line {
                    best = tag
                } else {
                    return best ?? tag
                }
            }
            i = nameEnd
        }
        return best
    }

    /// Past a comment, CDATA section or processing instruction starting at `i`, counting its lines.
    private func skipMarkup(at i: Int, lines: inout Int) -> Int? {
        let closing: [UInt8]
        if bytes[i...].starts(with: Array("<!--".utf8)) {
            closing = Array("-->".utf8)
        } else if bytes[i...].starts(with: Array("<![CDATA[".utf8)) {
            closing = Array("]]>".utf8)
        } else if bytes[i + 1] == UInt8(ascii: "?") {
            closing = Array("?>".utf8)
        } else {
            return nil
        }
        var j = i + 2
        while j < bytes.endIndex {
            if bytes[j] == newline { lines += 1 }
            if bytes[j...].starts(with: closing) { return j + closing.count }
            j += 1
        }
        return bytes.endIndex
    }

    /// The offset of the attribute's name in the tag (any prefix), reading to the tag's `>`.
    private func attributeName(_ name: [UInt8], in tag: Tag) -> Int? {
        var i = tag.nameEnd
        let end = bytes.endIndex
        while i < end {
            let byte = bytes[i]
            if byte == greaterThan || byte == lessThan { return nil }
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                // A value: `<` and `>` inside it are no markup.
                guard let close = bytes[(i + 1)...].firstIndex(of: byte) else { return nil }
                i = close + 1
                continue
            }
            if isDelimiter(byte) || byte == equals {
                i += 1
                continue
            }
            let start = i
            while i < end, !isDelimiter(bytes[i]), bytes[i] != equals { i += 1 }
            if localPart(start..<i).elementsEqual(name) { return start }
        }
        return nil
    }

    /// The name after its prefix, if any.
    private func localPart(_ range: Range<Int>) -> ArraySlice<UInt8> {
        let name = bytes[range]
        if let colon = name.firstIndex(of: UInt8(ascii: ":")) { return name[(colon + 1)...] }
        return name
    }

    /// 1-based line and column (in characters, a tab counting one) of a byte offset.
    private func position(of offset: Int) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = bytes.startIndex
        for i in bytes.startIndex..<offset where bytes[i] == newline {
            line += 1
            lineStart = i + 1
        }
        // UTF-8 continuation bytes (10xxxxxx) are no characters of their own.
        let characters = bytes[lineStart..<offset].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        return (line, characters + 1)
    }

    private func isDelimiter(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == newline || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
            || byte == slash || byte == greaterThan
    }

    private let newline = UInt8(ascii: "\n")
    private let lessThan = UInt8(ascii: "<")
    private let greaterThan = UInt8(ascii: ">")
    private let slash = UInt8(ascii: "/")
    private let equals = UInt8(ascii: "=")
}
