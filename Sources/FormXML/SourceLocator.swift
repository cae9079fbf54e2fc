/// Where an element's start tag, or one of its attributes, is written in a document's text.
///
/// libxml2 keeps a line for each node but no column, and nothing for attributes: a refusal that
/// names an attribute of a start tag written over several lines would point at the tag's first
/// line. This reads the text again, as an editor would, to give the line and column of the tag's
/// `<`, or of the attribute's name. It reads UTF-8 (and ASCII-compatible encodings); in any
/// other encoding it finds nothing and the caller keeps libxml2's line.
///
/// The text is read once, on the first question, into the start tags and line starts; each
/// question after is a binary search, so a document with thousands of refusals costs no more
/// than a few reads of it.
final class SourceLocator {
    private let bytes: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    /// A start tag found in the text: where its `<` is, where its name starts and ends, its line.
    private struct Tag {
        var start: Int
        var nameStart: Int
        var nameEnd: Int
        var line: Int
    }

    private lazy var index: (tags: [Tag], lineStarts: [Int]) = Self.read(bytes)

    /// The position of the start tag of `element` (local name, any prefix) that begins on `line`
    /// (of several there, the first with `attribute`) or, for a tag written over several lines,
    /// the last before it (else the first after it); with `attribute`, the position of that
    /// attribute's name in the tag, or of the tag without it.
    func locate(line: Int, element: String, attribute: String? = nil) -> (line: Int, column: Int)? {
        let name = Array(element.utf8)
        let wanted = attribute.map { Array($0.utf8) }
        guard line > 0, let tag = startTag(named: name, near: line, with: wanted) else { return nil }
        if let wanted, let at = attributeName(wanted, in: tag) { return position(of: at) }
        return position(of: tag.start)
    }

    private func startTag(named name: [UInt8], near line: Int, with attribute: [UInt8]?) -> Tag? {
        let tags = index.tags
        let named = { (tag: Tag) in self.localPart(tag.nameStart..<tag.nameEnd).elementsEqual(name) }
        // The first tag on the line, and the first on a later one.
        func firstTag(after line: Int) -> Int {
            var low = 0
            var high = tags.count
            while low < high {
                let middle = (low + high) / 2
                if tags[middle].line <= line { low = middle + 1 } else { high = middle }
            }
            return low
        }
        let later = firstTag(after: line)
        let onLine = tags[firstTag(after: line - 1)..<later].filter(named)
        if let attribute, let with = onLine.first(where: { attributeName(attribute, in: $0) != nil }) { return with }
        if let first = onLine.first { return first }
        if let before = tags[..<later].last(where: named) { return before }
        return tags[later...].first(where: named)
    }

    /// Every start tag, and the offset where each line starts, in one pass. Comments, CDATA
    /// sections and processing instructions may hold text that looks like a tag: skipped.
    private static func read(_ bytes: ArraySlice<UInt8>) -> (tags: [Tag], lineStarts: [Int]) {
        var tags: [Tag] = []
        var lineStarts = [bytes.startIndex]
        var i = bytes.startIndex
        let end = bytes.endIndex
        func skip(to closing: [UInt8], from start: Int) -> Int {
            var j = start
            while j < end {
                if bytes[j] == newline || (bytes[j] == carriageReturn && (j + 1 == end || bytes[j + 1] != newline)) {
                    lineStarts.append(j + 1)
                }
                if bytes[j] == closing[0], bytes[j...].starts(with: closing) { return j + closing.count }
                j += 1
            }
            return end
        }
        while i < end {
            let byte = bytes[i]
            // A line ends at LF, CRLF, or a lone CR, as XML reads them.
            if byte == newline || (byte == carriageReturn && (i + 1 == end || bytes[i + 1] != newline)) {
                lineStarts.append(i + 1)
                i += 1
                continue
            }
            guard byte == lessThan, i + 1 < end else {
                i += 1
                continue
            }
            if bytes[i...].starts(with: commentOpen) {
                i = skip(to: commentClose, from: i + 4)
            } else if bytes[i...].starts(with: cdataOpen) {
                i = skip(to: cdataClose, from: i + 9)
            } else if bytes[i + 1] == UInt8(ascii: "?") {
                i = skip(to: piClose, from: i + 2)
            } else {
                let nameStart = i + 1
                var nameEnd = nameStart
                while nameEnd < end, !isDelimiter(bytes[nameEnd]) { nameEnd += 1 }
                if nameEnd > nameStart, bytes[nameStart] != slash, bytes[nameStart] != UInt8(ascii: "!") {
                    tags.append(Tag(start: i, nameStart: nameStart, nameEnd: nameEnd, line: lineStarts.count))
                }
                i = max(nameEnd, i + 1)
            }
        }
        return (tags, lineStarts)
    }

    /// The offset of the attribute's name in the tag (any prefix), reading to the tag's `>`.
    private func attributeName(_ name: [UInt8], in tag: Tag) -> Int? {
        var i = tag.nameEnd
        let end = bytes.endIndex
        while i < end {
            let byte = bytes[i]
            if byte == Self.greaterThan || byte == Self.lessThan { return nil }
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                // A value: `<` and `>` inside it are no markup.
                guard let close = bytes[(i + 1)...].firstIndex(of: byte) else { return nil }
                i = close + 1
                continue
            }
            if Self.isDelimiter(byte) || byte == Self.equals {
                i += 1
                continue
            }
            let start = i
            while i < end, !Self.isDelimiter(bytes[i]), bytes[i] != Self.equals { i += 1 }
            // `xmlns:name` declares a prefix; it is no attribute called name.
            if localPart(start..<i).elementsEqual(name), !bytes[start..<i].starts(with: Self.xmlnsPrefix) {
                return start
            }
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
        TextPosition.of(offset, in: bytes, lineStarts: index.lineStarts)
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == newline || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
            || byte == slash || byte == greaterThan
    }

    private static let newline = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")
    private static let xmlnsPrefix = Array("xmlns:".utf8)
    private static let lessThan = UInt8(ascii: "<")
    private static let greaterThan = UInt8(ascii: ">")
    private static let slash = UInt8(ascii: "/")
    private static let commentOpen = Array("<!--".utf8)
    private static let commentClose = Array("-->".utf8)
    private static let cdataOpen = Array("<![CDATA[".utf8)
    private static let cdataClose = Array("]]>".utf8)
    private static let piClose = Array("?>".utf8)
    private static let equals = UInt8(ascii: "=")
}
