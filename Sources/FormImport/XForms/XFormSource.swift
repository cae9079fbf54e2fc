import FormXML

/// An XForm's text, read again for what the lean tree does not keep: where each start tag is
/// (line and column, also of an attribute), the namespaces a tag declares, and an element's
/// content in order, text mixed with child elements (a label's `<output>`s).
///
/// The document has been parsed (well-formed, no DOCTYPE, so no entity can hold markup), so
/// every `<` outside comments, CDATA sections and processing instructions that starts a name
/// is a start tag, in the order libxml2 reported the elements: the n-th is the element with
/// `ordinal` n. When the counts differ (an encoding other than UTF-8), nothing is read from the
/// text (`isAligned`) and callers keep the element's own text and line.
struct XFormSource {
    private let bytes: [UInt8]
    /// Offset of each start tag's `<`, in document order.
    private let tagStarts: [Int]
    private let lineStarts: [Int]
    /// Whether the start tags found are the parsed elements, one for one.
    let isAligned: Bool

    /// One piece of an element's content.
    enum Piece: Equatable {
        case text(String)
        /// The element's n-th child element (0-based).
        case child(Int)
    }

    init(_ bytes: [UInt8], elementCount: Int) {
        self.bytes = bytes
        var tags: [Int] = []
        var lines = [0]
        var i = 0
        let end = bytes.count
        func skip(past closing: [UInt8], from start: Int) -> Int {
            var j = start
            while j < end {
                if bytes[j] == Self.newline { lines.append(j + 1) }
                if bytes[j] == closing[0], Self.starts(bytes, at: j, with: closing) { return j + closing.count }
                j += 1
            }
            return end
        }
        while i < end {
            let byte = bytes[i]
            if byte == Self.newline {
                lines.append(i + 1)
            } else if byte == Self.lessThan, i + 1 < end {
                if Self.starts(bytes, at: i, with: Self.commentOpen) {
                    i = skip(past: Self.commentClose, from: i + 4)
                    continue
                } else if Self.starts(bytes, at: i, with: Self.cdataOpen) {
                    i = skip(past: Self.cdataClose, from: i + 9)
                    continue
                } else if bytes[i + 1] == UInt8(ascii: "?") {
                    i = skip(past: Self.piClose, from: i + 2)
                    continue
                } else if bytes[i + 1] != Self.slash && bytes[i + 1] != UInt8(ascii: "!") {
                    tags.append(i)
                }
            }
            i += 1
        }
        tagStarts = tags
        lineStarts = lines
        isAligned = tags.count == elementCount
    }

    /// The line and column of an element's start tag, or of one of its attributes (by qualified
    /// name as written, or local name); nil when the text is not aligned.
    func position(of ordinal: Int, attribute: String? = nil) -> (line: Int, column: Int)? {
        guard isAligned, ordinal < tagStarts.count else { return nil }
        let start = tagStarts[ordinal]
        guard let attribute else { return position(ofOffset: start) }
        for found in attributes(at: start).attributes {
            let local = found.name.split(separator: ":").last.map(String.init) ?? found.name
            if found.name == attribute || (local == attribute && !found.name.hasPrefix("xmlns")) {
                return position(ofOffset: found.offset)
            }
        }
        return position(ofOffset: start)
    }

    /// The namespaces an element's start tag declares: prefix (`""` for the default) → URI.
    func namespaceDeclarations(of ordinal: Int) -> [(prefix: String, uri: String)] {
        guard isAligned, ordinal < tagStarts.count else { return [] }
        return attributes(at: tagStarts[ordinal]).attributes.compactMap { found in
            if found.name == "xmlns" { return ("", found.value) }
            guard found.name.hasPrefix("xmlns:") else { return nil }
            return (String(found.name.dropFirst(6)), found.value)
        }
    }

    /// An element's content in order: text runs (entities decoded, line ends as `\n`) and child
    /// elements; nil when the text is not aligned.
    func content(of ordinal: Int) -> [Piece]? {
        guard isAligned, ordinal < tagStarts.count else { return nil }
        let tag = attributes(at: tagStarts[ordinal])
        guard !tag.selfClosing else { return [] }
        var pieces: [Piece] = []
        var text: [UInt8] = []
        var childCount = 0
        var i = tag.end
        let end = bytes.count
        func flush() {
            if !text.isEmpty { pieces.append(.text(Self.decode(text))) }
            text = []
        }
        while i < end {
            guard bytes[i] == Self.lessThan else {
                text.append(bytes[i])
                i += 1
                continue
            }
            if Self.starts(bytes, at: i, with: Self.commentOpen) {
                i = find(Self.commentClose, from: i + 4)
            } else if Self.starts(bytes, at: i, with: Self.cdataOpen) {
                let close = find(Self.cdataClose, from: i + 9)
                // CDATA is literal: escaped so that `decode` gives it back unchanged.
                for byte in bytes[(i + 9)..<max(i + 9, close - 3)] {
                    if byte == UInt8(ascii: "&") {
                        text.append(contentsOf: Array("&amp;".utf8))
                    } else {
                        text.append(byte)
                    }
                }
                i = close
            } else if i + 1 < end, bytes[i + 1] == UInt8(ascii: "?") {
                i = find(Self.piClose, from: i + 2)
            } else if i + 1 < end, bytes[i + 1] == Self.slash {
                break
            } else {
                flush()
                pieces.append(.child(childCount))
                childCount += 1
                i = endOfElement(at: i)
            }
        }
        flush()
        return pieces
    }

    // MARK: Reading

    /// The offset just past `closing`, searching from `start`.
    private func find(_ closing: [UInt8], from start: Int) -> Int {
        var j = start
        while j < bytes.count {
            if bytes[j] == closing[0], Self.starts(bytes, at: j, with: closing) { return j + closing.count }
            j += 1
        }
        return bytes.count
    }

    /// The offset just past the end of the element whose start tag is at `start`.
    private func endOfElement(at start: Int) -> Int {
        let tag = attributes(at: start)
        if tag.selfClosing { return tag.end }
        var depth = 1
        var i = tag.end
        while i < bytes.count {
            guard bytes[i] == Self.lessThan else {
                i += 1
                continue
            }
            if Self.starts(bytes, at: i, with: Self.commentOpen) {
                i = find(Self.commentClose, from: i + 4)
            } else if Self.starts(bytes, at: i, with: Self.cdataOpen) {
                i = find(Self.cdataClose, from: i + 9)
            } else if i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "?") {
                i = find(Self.piClose, from: i + 2)
            } else if i + 1 < bytes.count, bytes[i + 1] == Self.slash {
                depth -= 1
                i = find([Self.greaterThan], from: i + 2)
                if depth == 0 { return i }
            } else {
                let inner = attributes(at: i)
                if !inner.selfClosing { depth += 1 }
                i = inner.end
            }
        }
        return bytes.count
    }

    /// The attributes of the start tag at `start` (names as written, values decoded, each name's
    /// offset), whether it closes itself (`/>`), and the offset just past its `>`.
    private func attributes(
        at start: Int
    ) -> (attributes: [(name: String, value: String, offset: Int)], selfClosing: Bool, end: Int) {
        var found: [(name: String, value: String, offset: Int)] = []
        var i = start + 1
        let end = bytes.count
        while i < end, !Self.isSpace(bytes[i]), bytes[i] != Self.greaterThan, bytes[i] != Self.slash { i += 1 }
        while i < end {
            let byte = bytes[i]
            if byte == Self.greaterThan { return (found, false, i + 1) }
            if byte == Self.slash, i + 1 < end, bytes[i + 1] == Self.greaterThan { return (found, true, i + 2) }
            if Self.isSpace(byte) || byte == Self.slash {
                i += 1
                continue
            }
            let nameStart = i
            while i < end, !Self.isSpace(bytes[i]), bytes[i] != UInt8(ascii: "="), bytes[i] != Self.greaterThan {
                i += 1
            }
            let name = String(decoding: bytes[nameStart..<i], as: UTF8.self)
            while i < end, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "'") { i += 1 }
            guard i < end else { break }
            let quote = bytes[i]
            let valueStart = i + 1
            i = valueStart
            while i < end, bytes[i] != quote { i += 1 }
            found.append((name, Self.decode(Array(bytes[valueStart..<min(i, end)])), nameStart))
            i += 1
        }
        return (found, false, end)
    }

    /// 1-based line and column (in characters) of a byte offset.
    private func position(ofOffset offset: Int) -> (line: Int, column: Int) {
        TextPosition.of(offset, in: bytes, lineStarts: lineStarts)
    }

    /// Text with its references replaced (`&lt;`, `&amp;`, `&#233;`...) and line ends made `\n`,
    /// as an XML parser reads it.
    static func decode(_ raw: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = 0
        while i < raw.count {
            let byte = raw[i]
            if byte == 0x0D {
                out.append(newline)
                i += (i + 1 < raw.count && raw[i + 1] == newline) ? 2 : 1
                continue
            }
            guard byte == UInt8(ascii: "&"), let semicolon = raw[i...].firstIndex(of: UInt8(ascii: ";")) else {
                out.append(byte)
                i += 1
                continue
            }
            let name = String(decoding: raw[(i + 1)..<semicolon], as: UTF8.self)
            var scalar: Unicode.Scalar?
            switch name {
            case "lt": scalar = "<"
            case "gt": scalar = ">"
            case "amp": scalar = "&"
            case "quot": scalar = "\""
            case "apos": scalar = "'"
            default:
                if name.hasPrefix("#x") || name.hasPrefix("#X") {
                    scalar = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
                } else if name.hasPrefix("#") {
                    scalar = UInt32(name.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init)
                }
            }
            if let scalar {
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
                i = semicolon + 1
            } else {
                out.append(byte)
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func starts(_ bytes: [UInt8], at i: Int, with prefix: [UInt8]) -> Bool {
        guard i + prefix.count <= bytes.count else { return false }
        for k in 0..<prefix.count where bytes[i + k] != prefix[k] { return false }
        return true
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static let newline = UInt8(ascii: "\n")
    private static let lessThan = UInt8(ascii: "<")
    private static let greaterThan = UInt8(ascii: ">")
    private static let slash = UInt8(ascii: "/")
    private static let commentOpen = Array("<!--".utf8)
    private static let commentClose = Array("-->".utf8)
    private static let cdataOpen = Array("<![CDATA[".utf8)
    private static let cdataClose = Array("]]>".utf8)
    private static let piClose = Array("?>".utf8)
}
