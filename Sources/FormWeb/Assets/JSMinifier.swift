/// Minifies a script by its tokens: comments go, and so does every space or line break that no
/// token needs. Strings, template literals and regular expressions are copied byte for byte.
///
/// What is kept:
/// - a space between two tokens that would otherwise run together: two words (`return x`), two
///   `+` or two `-` (`a + +b`), a `/` before `/` or `*` (which would start a comment);
/// - a line break where automatic semicolon insertion might use it: after anything but a
///   punctuator that can never end a statement (`{ ( [ , ; : = ? ! & | ^ ~ < > * % .` and a
///   lone `+` or `-`). After `return`, a `++`, a `)` or a `}` the break stays.
///
/// A `/` starts a regular expression where an expression may start: after a punctuator other
/// than `)`, `]`, `++` and `--`, after a keyword such as `return`, or at the start; otherwise it
/// divides. So a regular expression right after the `)` of an `if (…)` is read as a division
/// (its spaces would go): write `if (x) { /re/.test(s) }` instead, as `Public/js` does.
/// A template literal's `${…}` is minified as code, and its text copied as it is.
enum JSMinifier {
    /// The script minified.
    static func minify(_ script: String) -> String {
        String(decoding: minify(Array(script.utf8)), as: UTF8.self)
    }

    /// The script's UTF-8 bytes minified; only ASCII bytes are ever looked at.
    static func minify(_ script: [UInt8]) -> [UInt8] {
        var lexer = Lexer(source: script)
        lexer.run()
        // The file ends as it did: with a newline when it had one, else without.
        if script.last == Byte.newline, !lexer.out.isEmpty { lexer.out.append(Byte.newline) }
        return lexer.out
    }

    private enum Byte {
        static let newline = UInt8(ascii: "\n")
        static let space = UInt8(ascii: " ")
        static let slash = UInt8(ascii: "/")
        static let star = UInt8(ascii: "*")
        static let backslash = UInt8(ascii: "\\")
        static let backtick = UInt8(ascii: "`")
        static let dollar = UInt8(ascii: "$")
        static let openBrace = UInt8(ascii: "{")
        static let closeBrace = UInt8(ascii: "}")
    }

    /// Keywords after which an expression, so a regular expression, may start.
    private static let expressionKeywords: Set<[UInt8]> = Set(
        [
            "return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void", "throw", "yield", "await",
            "instanceof",
        ].map { Array($0.utf8) })

    /// Punctuators after which a line break is never where a statement ends.
    private static let continuing: Set<UInt8> = Set("{([,;:=?!&|^~<>*%.+-".utf8)

    private struct Lexer {
        let source: [UInt8]
        var out: [UInt8] = []
        var i = 0
        var pendingSpace = false
        var pendingNewline = false
        var regexAllowed = true
        var braceDepth = 0
        /// The brace depth at each open `${` of a template literal.
        var templates: [Int] = []

        init(source: [UInt8]) {
            self.source = source
            out.reserveCapacity(source.count)
        }

        mutating func run() {
            while i < source.count {
                let c = source[i]
                let next = i + 1 < source.count ? source[i + 1] : 0
                switch c {
                case Byte.space, UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                    pendingSpace = true
                    i += 1
                case Byte.newline:
                    pendingNewline = true
                    i += 1
                case Byte.slash where next == Byte.slash:
                    while i < source.count, source[i] != Byte.newline { i += 1 }
                case Byte.slash where next == Byte.star:
                    i += 2
                    while i < source.count,
                        !(source[i] == Byte.star && i + 1 < source.count && source[i + 1] == Byte.slash)
                    {
                        if source[i] == Byte.newline { pendingNewline = true }
                        i += 1
                    }
                    i += 2
                    pendingSpace = true
                case UInt8(ascii: "'"), UInt8(ascii: "\""):
                    emit(quoted(from: i, until: c))
                    regexAllowed = false
                case Byte.backtick:
                    emit([Byte.backtick])
                    i += 1
                    template()
                case Byte.slash where regexAllowed:
                    emit(regularExpression())
                    regexAllowed = false
                case Byte.closeBrace where templates.last == braceDepth - 1:
                    // The end of a template's `${…}`: its text goes on.
                    templates.removeLast()
                    braceDepth -= 1
                    pendingSpace = false
                    pendingNewline = false
                    out.append(c)
                    i += 1
                    template()
                default:
                    if Self.isWordByte(c) {
                        let start = i
                        while i < source.count, Self.isWordByte(source[i]) { i += 1 }
                        let word = Array(source[start..<i])
                        emit(word)
                        regexAllowed = JSMinifier.expressionKeywords.contains(word)
                    } else {
                        // `a++ / 2` divides, as after `)`.
                        let doubled = (c == UInt8(ascii: "+") || c == UInt8(ascii: "-")) && out.last == c
                        emit([c])
                        i += 1
                        if c == Byte.openBrace { braceDepth += 1 }
                        if c == Byte.closeBrace { braceDepth -= 1 }
                        regexAllowed = c != UInt8(ascii: ")") && c != UInt8(ascii: "]") && !doubled
                    }
                }
            }
        }

        /// Writes a token after whatever the whitespace before it must become.
        mutating func emit(_ token: [UInt8]) {
            if let last = out.last, let first = token.first, pendingSpace || pendingNewline {
                if pendingNewline && !endsWithoutStatementEnd() {
                    out.append(Byte.newline)
                } else if Self.wouldJoin(last, first) {
                    out.append(Byte.space)
                }
            }
            pendingSpace = false
            pendingNewline = false
            out.append(contentsOf: token)
        }

        /// Whether the output so far ends in a punctuator after which no statement can end.
        func endsWithoutStatementEnd() -> Bool {
            guard let last = out.last, JSMinifier.continuing.contains(last) else { return false }
            // `a++` and `a--` end a statement.
            if last == UInt8(ascii: "+") || last == UInt8(ascii: "-") {
                return out.count < 2 || out[out.count - 2] != last
            }
            return true
        }

        static func wouldJoin(_ last: UInt8, _ first: UInt8) -> Bool {
            if isWordByte(last) && isWordByte(first) { return true }
            // `1 .toString()`: without the space the dot would be the number's.
            if last >= UInt8(ascii: "0") && last <= UInt8(ascii: "9") && first == UInt8(ascii: ".") { return true }
            if last == first && (last == UInt8(ascii: "+") || last == UInt8(ascii: "-")) { return true }
            return last == Byte.slash && (first == Byte.slash || first == Byte.star)
        }

        static func isWordByte(_ byte: UInt8) -> Bool {
            byte >= 0x80 || byte == Byte.dollar || byte == UInt8(ascii: "_")
                || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
        }

        /// A string from its opening quote to its closing one, escapes included.
        mutating func quoted(from start: Int, until quote: UInt8) -> [UInt8] {
            i = start + 1
            while i < source.count, source[i] != quote, source[i] != Byte.newline {
                // A backslash escapes the next character, or continues the string past a CRLF.
                let crlf = i + 2 < source.count && source[i + 1] == UInt8(ascii: "\r") && source[i + 2] == Byte.newline
                i += source[i] == Byte.backslash ? (crlf ? 3 : 2) : 1
            }
            i = min(i + 1, source.count)
            return Array(source[start..<i])
        }

        /// A regular expression from its `/` to its flags, `/` inside a class `[…]` included.
        mutating func regularExpression() -> [UInt8] {
            let start = i
            i += 1
            var inClass = false
            while i < source.count, source[i] != Byte.newline {
                let c = source[i]
                if c == Byte.backslash {
                    i += 2
                    continue
                }
                if c == UInt8(ascii: "[") { inClass = true }
                if c == UInt8(ascii: "]") { inClass = false }
                i += 1
                if c == Byte.slash && !inClass { break }
            }
            while i < source.count, Self.isWordByte(source[i]) { i += 1 }
            i = min(i, source.count)
            return Array(source[start..<i])
        }

        /// A template literal's text, copied up to its closing backtick or to a `${`, whose
        /// code the main loop reads (``templates`` says where it ends).
        mutating func template() {
            while i < source.count {
                let c = source[i]
                if c == Byte.backslash {
                    out.append(contentsOf: source[i..<min(i + 2, source.count)])
                    i += 2
                    continue
                }
                if c == Byte.backtick {
                    out.append(c)
                    i += 1
                    regexAllowed = false
                    return
                }
                if c == Byte.dollar, i + 1 < source.count, source[i + 1] == Byte.openBrace {
                    out.append(contentsOf: [c, Byte.openBrace])
                    i += 2
                    templates.append(braceDepth)
                    braceDepth += 1
                    regexAllowed = true
                    return
                }
                out.append(c)
                i += 1
            }
        }
    }
}
