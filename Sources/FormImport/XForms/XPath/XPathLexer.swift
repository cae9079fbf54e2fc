/// Splits an expression into tokens by the lexical rules of XPath 1.0 section 3.7, which decide
/// by the token before and the characters after what a name or `*` is: after an operand (a name,
/// `.`, `..`, a literal, `)`, `]`), `*` multiplies and `and`, `or`, `div`, `mod` are operators;
/// elsewhere they are name tests (`/data/div`, `/*`). A name followed by `(` is a function or a
/// node type, by `::` an axis. `-` belongs to a name it is inside (`count-selected`, `a-b`), so
/// subtraction between names needs a space before the `-` (`a -b`, `a - b`).
struct XPathLexer {
    struct Token: Hashable {
        var kind: Kind
        /// 1-based column of the token's first character.
        var column: Int
        /// The token as written, for messages.
        var text: String
    }

    enum Kind: Hashable {
        case number(String)
        case literal(String)
        /// A name test: `age`, `jr:x`.
        case name(prefix: String?, local: String)
        /// `*` or `prefix:*` as a name test.
        case anyName(prefix: String?)
        /// A function name; the `(` is the next token.
        case function(prefix: String?, local: String)
        /// `node`, `text`, `comment`, `processing-instruction` before `(`.
        case nodeType(XPathNodeTest)
        /// An axis with its `::`.
        case axis(XPathAxis)
        /// Every binary operator, `*`, `div` and `-` included (unary minus is `.op(.minus)` too).
        case op(XPathOperator)
        case slash
        case doubleSlash
        case openParen
        case closeParen
        case openBracket
        case closeBracket
        case dot
        case dotDot
        case at
        case comma
        case end

        /// Whether the token is an Operator of section 3.7 (after which a name is a name test).
        var isOperator: Bool {
            switch self {
            case .op, .slash, .doubleSlash: true
            default: false
            }
        }
    }

    private let characters: [Character]
    private var position = 0
    private(set) var tokens: [Token] = []

    /// The tokens of `text`, ending with `.end` (whose column is one past the last character).
    static func tokens(of text: String) throws(XPathSyntaxError) -> [Token] {
        var lexer = XPathLexer(characters: Array(text))
        try lexer.run()
        return lexer.tokens
    }

    private init(characters: [Character]) {
        self.characters = characters
    }

    private mutating func run() throws(XPathSyntaxError) {
        while true {
            skipWhitespace()
            guard position < characters.count else {
                tokens.append(Token(kind: .end, column: position + 1, text: ""))
                return
            }
            tokens.append(try next())
        }
    }

    private func character(_ offset: Int = 0) -> Character? {
        let i = position + offset
        return i < characters.count ? characters[i] : nil
    }

    private mutating func skipWhitespace() {
        while let c = character(), Self.isWhitespace(c) { position += 1 }
    }

    /// XPath's ExprWhitespace: space, tab, CR, LF (CR LF is one Character in Swift).
    static func isWhitespace(_ c: Character) -> Bool {
        c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\r\n"
    }

    static func isNameStart(_ c: Character) -> Bool {
        c == "_" || c.isLetter
    }

    static func isNameCharacter(_ c: Character) -> Bool {
        c == "_" || c == "-" || c == "." || c.isLetter || c.isNumber
            || c.unicodeScalars.first.map { [.nonspacingMark, .spacingMark].contains($0.properties.generalCategory) }
                == true
    }

    /// Section 3.7's first rule: after an operand, `*` multiplies and a name is an operator name.
    private var followsOperand: Bool {
        guard let previous = tokens.last?.kind else { return false }
        switch previous {
        case .at, .axis, .openParen, .openBracket, .comma: return false
        default: return !previous.isOperator
        }
    }

    private mutating func next() throws(XPathSyntaxError) -> Token {
        let start = position
        let c = characters[position]
        func token(_ kind: Kind, length: Int) -> Token {
            position = start + length
            return Token(kind: kind, column: start + 1, text: String(characters[start..<start + length]))
        }
        switch c {
        case "(": return token(.openParen, length: 1)
        case ")": return token(.closeParen, length: 1)
        case "[": return token(.openBracket, length: 1)
        case "]": return token(.closeBracket, length: 1)
        case ",": return token(.comma, length: 1)
        case "@": return token(.at, length: 1)
        case "|": return token(.op(.union), length: 1)
        case "+": return token(.op(.plus), length: 1)
        case "-": return token(.op(.minus), length: 1)
        case "=": return token(.op(.equal), length: 1)
        case "!":
            guard character(1) == "=" else {
                throw XPathSyntaxError(message: "'!' alone is not an operator: write != or not(...)", column: start + 1)
            }
            return token(.op(.notEqual), length: 2)
        case "<": return character(1) == "=" ? token(.op(.lessOrEqual), length: 2) : token(.op(.less), length: 1)
        case ">":
            return character(1) == "=" ? token(.op(.greaterOrEqual), length: 2) : token(.op(.greater), length: 1)
        case "/": return character(1) == "/" ? token(.doubleSlash, length: 2) : token(.slash, length: 1)
        case "*": return token(followsOperand ? .op(.multiply) : .anyName(prefix: nil), length: 1)
        case "'", "\"":
            guard let close = characters[(start + 1)...].firstIndex(of: c) else {
                throw XPathSyntaxError(
                    message: "The text in quotes that starts here is not closed: add the closing \(c)",
                    column: start + 1)
            }
            return token(.literal(String(characters[(start + 1)..<close])), length: close + 1 - start)
        case "$":
            var end = start + 1
            while end < characters.count, Self.isNameCharacter(characters[end]) || characters[end] == ":" { end += 1 }
            let name = String(characters[start..<end])
            throw XPathSyntaxError(
                message: "Variables such as \(name == "$" ? "$name" : name) are not allowed in form expressions: "
                    + "refer to a question by its path instead",
                column: start + 1)
        case ".":
            if character(1) == "." { return token(.dotDot, length: 2) }
            if let d = character(1), d.isASCII, d.isNumber { return number() }
            return token(.dot, length: 1)
        default:
            if c.isASCII && c.isNumber { return number() }
            if Self.isNameStart(c) { return try name() }
            throw XPathSyntaxError(message: "'\(c)' is not allowed in an expression", column: start + 1)
        }
    }

    /// `Digits ('.' Digits?)? | '.' Digits`
    private mutating func number() -> Token {
        let start = position
        var seenDot = false
        while let c = character() {
            if c.isASCII && c.isNumber {
                position += 1
            } else if c == ".", !seenDot {
                seenDot = true
                position += 1
            } else {
                break
            }
        }
        let text = String(characters[start..<position])
        return Token(kind: .number(text), column: start + 1, text: text)
    }

    private mutating func ncName() -> String {
        let start = position
        position += 1
        while let c = character(), Self.isNameCharacter(c) { position += 1 }
        return String(characters[start..<position])
    }

    /// A QName, `prefix:*`, an operator name, an axis, a function name or a node type, by the
    /// rules of section 3.7.
    private mutating func name() throws(XPathSyntaxError) -> Token {
        let start = position
        let first = ncName()
        if followsOperand {
            let op: XPathOperator? =
                switch first {
                case "and": .and
                case "or": .or
                case "div": .div
                case "mod": .mod
                default: nil
                }
            // Any other name here is an error the parser words ("Unexpected 'b'"), so it stays a name.
            if let op { return Token(kind: .op(op), column: start + 1, text: first) }
        }
        var prefix: String?
        var local = first
        if character() == ":", character(1) != ":" {
            if character(1) == "*" {
                position += 2
                return Token(kind: .anyName(prefix: first), column: start + 1, text: first + ":*")
            }
            if let c = character(1), Self.isNameStart(c) {
                position += 1
                prefix = first
                local = ncName()
            }
        }
        let text = String(characters[start..<position])
        // Look past whitespace for `(` or `::`, without consuming it.
        var ahead = position
        while ahead < characters.count, Self.isWhitespace(characters[ahead]) { ahead += 1 }
        let after = ahead < characters.count ? characters[ahead] : nil
        if after == "(" {
            if prefix == nil, let test = Self.nodeTypes[local] {
                return Token(kind: .nodeType(test), column: start + 1, text: text)
            }
            return Token(kind: .function(prefix: prefix, local: local), column: start + 1, text: text)
        }
        if after == ":", ahead + 1 < characters.count, characters[ahead + 1] == ":" {
            guard prefix == nil, let axis = XPathAxis(rawValue: local) else {
                throw XPathSyntaxError(
                    message: "'\(text)' is not an XPath axis (such as child, parent, ancestor, self)", column: start + 1
                )
            }
            position = ahead + 2
            return Token(kind: .axis(axis), column: start + 1, text: text + "::")
        }
        return Token(kind: .name(prefix: prefix, local: local), column: start + 1, text: text)
    }

    private static let nodeTypes: [String: XPathNodeTest] = [
        "node": .node, "text": .text, "comment": .comment, "processing-instruction": .processingInstruction(nil),
    ]
}
