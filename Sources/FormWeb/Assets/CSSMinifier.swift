/// Minifies a stylesheet without changing what it means, by rules simple enough to check by eye:
///
/// - comments go;
/// - a run of whitespace becomes one space;
/// - the semicolon after a block's last declaration goes;
/// - that space goes entirely only where a space never matters: next to `{`, `}`, `;` and `,`,
///   and after the colon of a declaration (a property name alone at the start of a statement
///   inside a block: `color: red`, `--fw-gap: 8px`), whose value the parser trims anyway;
/// - strings, `url(…)` and escapes are copied byte for byte.
///
/// A space before a colon is always kept (`.a :is(b)` is not `.a:is(b)`), and so are spaces
/// around `(`, `)`, `>`, `+` and `~` (`and (`, `calc(1px + 2px)`). A comment between two
/// tokens that would otherwise join (`a/**/b`) is kept as `/**/`.
enum CSSMinifier {
    /// The stylesheet minified.
    static func minify(_ css: String) -> String {
        String(decoding: minify(Array(css.utf8)), as: UTF8.self)
    }

    /// The stylesheet's UTF-8 bytes minified; only ASCII bytes are ever looked at.
    static func minify(_ css: [UInt8]) -> [UInt8] {
        var writer = Writer(capacity: css.count)
        var index = 0
        while index < css.count {
            let byte = css[index]
            switch byte {
            case _ where isWhitespace(byte):
                writer.pendingSpace = true
                index += 1
            case .slash where index + 1 < css.count && css[index + 1] == .star:
                index = endOfComment(css, from: index + 2)
                writer.pendingComment = true
            case .quote, .apostrophe:
                writer.startToken()
                index = copyString(css, from: index, into: &writer.out)
                writer.edge = .other
            case .backslash:
                writer.startToken()
                index = copyEscape(css, from: index, into: &writer.out)
                writer.edge = .other
            case .openBrace, .closeBrace, .semicolon, .comma:
                writer.startToken(delimiter: true)
                // A block's last declaration needs no semicolon: `a;}` is `a}`.
                if byte == .closeBrace, writer.edge == .delimiter, writer.out.last == .semicolon {
                    writer.out.removeLast()
                }
                writer.out.append(byte)
                writer.edge = .delimiter
                if byte == .openBrace { writer.depth += 1 }
                if byte == .closeBrace { writer.depth = max(0, writer.depth - 1) }
                // A comma separates values or selectors, not statements.
                if byte != .comma { writer.statementStart = writer.out.count }
                index += 1
            case .colon:
                writer.startToken()
                let isDeclaration = writer.depth > 0 && isPropertyName(writer.out[writer.statementStart...])
                writer.out.append(byte)
                writer.edge = isDeclaration ? .declarationColon : .other
                index += 1
            case .openParenthesis:
                writer.startToken()
                let isURL = endsWithURL(writer.out)
                writer.out.append(byte)
                index += 1
                if isURL { index = copyURL(css, from: index, into: &writer.out) }
                writer.edge = .other
            default:
                writer.startToken()
                writer.out.append(byte)
                writer.edge = .other
                index += 1
            }
        }
        return writer.out
    }

    /// The output so far and what the skipped whitespace and comments before the next token were.
    private struct Writer {
        var out: [UInt8] = []
        var pendingSpace = false
        var pendingComment = false
        var edge = Edge.start
        var depth = 0
        /// Where in `out` the current declaration, or a rule's prelude, began.
        var statementStart = 0

        init(capacity: Int) {
            out.reserveCapacity(capacity)
        }

        /// Writes what the skipped whitespace or comment must leave behind before the next token.
        /// - Parameter delimiter: the next token is `{`, `}`, `;` or `,`.
        mutating func startToken(delimiter: Bool = false) {
            if pendingSpace {
                switch edge {
                case .start, .delimiter, .declarationColon: break
                case .other: if !delimiter { out.append(.space) }
                }
            } else if pendingComment, edge == .other, !delimiter {
                out.append(contentsOf: Array("/**/".utf8))
            }
            pendingSpace = false
            pendingComment = false
        }
    }

    /// What `out` ends with, for deciding whether a space may go.
    private enum Edge {
        case start
        /// `{`, `}`, `;` or `,`.
        case delimiter
        /// The colon after a declaration's property name.
        case declarationColon
        case other
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == .space || byte == .tab || byte == .newline || byte == .carriageReturn || byte == .formFeed
    }

    private static func isNewline(_ byte: UInt8) -> Bool {
        byte == .newline || byte == .carriageReturn || byte == .formFeed
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }

    /// A letter, `_` or any non-ASCII byte.
    private static func isNameStart(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || byte == UInt8(ascii: "_") || byte >= 0x80
    }

    private static func isNameCharacter(_ byte: UInt8) -> Bool {
        isNameStart(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == .hyphen
    }

    /// Whether the statement before a colon is a plain identifier (`color`, `-webkit-x`, `--fw-gap`),
    /// maybe followed by one space: then the colon starts a declaration's value.
    private static func isPropertyName(_ statement: ArraySlice<UInt8>) -> Bool {
        var name = statement
        if name.last == .space { name = name.dropLast() }
        if name.starts(with: [.hyphen, .hyphen]) {
            name = name.dropFirst(2)
            return !name.isEmpty && name.allSatisfy(isNameCharacter)
        }
        if name.first == .hyphen { name = name.dropFirst() }
        guard let first = name.first, isNameStart(first) else { return false }
        return name.allSatisfy(isNameCharacter)
    }

    /// Whether `out` ends with the name `url` (any case), so a `(` now opens a URL.
    private static func endsWithURL(_ out: [UInt8]) -> Bool {
        guard out.count >= 3 else { return false }
        let name = out.suffix(3).map { $0 | 0x20 }
        return name == Array("url".utf8)
    }

    /// The index after the `*/` that closes a comment whose text starts at `index`.
    private static func endOfComment(_ css: [UInt8], from index: Int) -> Int {
        var index = index
        while index + 1 < css.count {
            if css[index] == .star && css[index + 1] == .slash { return index + 2 }
            index += 1
        }
        return css.count
    }

    /// Copies a quoted string starting at `index` (its quote) and returns the index after it. Like
    /// CSS, a string ends at an unescaped newline too.
    private static func copyString(_ css: [UInt8], from index: Int, into out: inout [UInt8]) -> Int {
        let quote = css[index]
        out.append(quote)
        var index = index + 1
        while index < css.count {
            let byte = css[index]
            out.append(byte)
            index += 1
            if byte == .backslash, index < css.count {
                out.append(css[index])
                index += 1
            } else if byte == quote || isNewline(byte) {
                break
            }
        }
        return index
    }

    /// Copies an escape starting at `index` (its backslash): up to six hex digits and the one
    /// whitespace that may end them, or the single escaped character.
    private static func copyEscape(_ css: [UInt8], from index: Int, into out: inout [UInt8]) -> Int {
        out.append(css[index])
        var index = index + 1
        guard index < css.count else { return index }
        guard isHexDigit(css[index]) else {
            out.append(css[index])
            return index + 1
        }
        let end = min(index + 6, css.count)
        while index < end, isHexDigit(css[index]) {
            out.append(css[index])
            index += 1
        }
        if index < css.count, isWhitespace(css[index]) {
            out.append(css[index])
            index += 1
            if css[index - 1] == .carriageReturn, index < css.count, css[index] == .newline {
                out.append(css[index])
                index += 1
            }
        }
        return index
    }

    /// Copies what follows `url(` up to and including its `)`, strings and escapes included.
    private static func copyURL(_ css: [UInt8], from index: Int, into out: inout [UInt8]) -> Int {
        var index = index
        while index < css.count {
            let byte = css[index]
            switch byte {
            case .quote, .apostrophe:
                index = copyString(css, from: index, into: &out)
            case .backslash:
                index = copyEscape(css, from: index, into: &out)
            default:
                out.append(byte)
                index += 1
                if byte == .closeParenthesis { return index }
            }
        }
        return index
    }
}

extension UInt8 {
    fileprivate static let space = UInt8(ascii: " ")
    fileprivate static let tab = UInt8(ascii: "\t")
    fileprivate static let newline = UInt8(ascii: "\n")
    fileprivate static let carriageReturn = UInt8(ascii: "\r")
    fileprivate static let formFeed: UInt8 = 0x0C
    fileprivate static let slash = UInt8(ascii: "/")
    fileprivate static let star = UInt8(ascii: "*")
    fileprivate static let quote = UInt8(ascii: "\"")
    fileprivate static let apostrophe = UInt8(ascii: "'")
    fileprivate static let backslash = UInt8(ascii: "\\")
    fileprivate static let openBrace = UInt8(ascii: "{")
    fileprivate static let closeBrace = UInt8(ascii: "}")
    fileprivate static let semicolon = UInt8(ascii: ";")
    fileprivate static let comma = UInt8(ascii: ",")
    fileprivate static let colon = UInt8(ascii: ":")
    fileprivate static let hyphen = UInt8(ascii: "-")
    fileprivate static let openParenthesis = UInt8(ascii: "(")
    fileprivate static let closeParenthesis = UInt8(ascii: ")")
}
