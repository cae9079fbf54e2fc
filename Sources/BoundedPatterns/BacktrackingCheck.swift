import Foundation

/// Finds the shape of pattern that backtracks catastrophically: a group repeated without bound
/// (`*`, `+`, `{n,}`, or ten times and more) whose body holds a part of variable length that
/// the repetition could also continue with: `(a+)+`, `([a-z]+)*[0-9]`, `(\w+\s?)*`, `(.*,)*`.
/// On a value that almost matches, such a pattern tries every way of splitting it between the
/// two quantifiers, which doubles with every character. The same nesting is harmless when
/// every iteration must end with a character the inner part cannot take (`([a-z0-9]+\.)*`,
/// `(-\d+)+`), and possessive quantifiers (`a++`) and atomic groups (`(?>…)`) never backtrack:
/// those pass. Overlapping alternatives (`(a|aa)+`) are not looked for; the bound on work at
/// every test (``BoundedRegex``) holds for them and for any shape this misses.
public enum BacktrackingCheck {
    /// The part of `pattern` that makes it backtrack catastrophically (`(a+)+`), or nil when
    /// none was found (or the pattern does not parse: that is reported as invalid elsewhere; or
    /// it nests groups deeper than ``maxDepth``, which this does not follow: the bound on work at
    /// every test holds for it).
    public static func risk(in pattern: String) -> String? {
        var parser = Parser(Array(pattern))
        guard let top = try? parser.alternatives(), parser.atEnd else { return nil }
        return findRisk(top)
    }

    // MARK: The pattern as a tree

    struct Item {
        var node: Node
        var min = 1
        /// nil: without bound.
        var max: Int? = 1
        /// A possessive quantifier (`a*+`), or an atomic group (`(?>…)`): never gives back.
        var possessive = false
        /// The item's text in the pattern, for the message.
        var text = ""

        var isVariable: Bool {
            if possessive { return false }
            if min != max { return true }
            if case .group(let alternatives, _) = node {
                return alternatives.contains { $0.contains(where: \.isVariable) }
            }
            return false
        }
        var isNullable: Bool {
            if min == 0 { return true }
            switch node {
            case .atom: return false
            case .zeroWidth: return true
            case .group(let alternatives, _): return alternatives.contains { $0.allSatisfy(\.isNullable) }
            }
        }
        var repeatsWithoutBound: Bool { !possessive && (max == nil || max! >= 10) }
    }

    indirect enum Node {
        /// One character of a set, written as a pattern of its own (`a`, `\d`, `[a-z]`, `.`).
        case atom(String)
        /// Anchors, lookarounds, flags: match no character.
        case zeroWidth
        case group([[Item]], atomic: Bool)
    }

    // MARK: Finding the risk

    private static func findRisk(_ alternatives: [[Item]]) -> String? {
        for sequence in alternatives {
            for item in sequence {
                guard case .group(let inner, let atomic) = item.node else { continue }
                if let risk = findRisk(inner) { return risk }
                guard item.repeatsWithoutBound, !atomic else { continue }
                for body in inner where ambiguous(body) { return item.text }
            }
        }
        return nil
    }

    /// Whether a repeated body can be matched in more than one way: some part of variable length
    /// can take a character that the body could also go on with (the rest of this iteration,
    /// up to and including its first part that must match, or the next iteration's start).
    private static func ambiguous(_ body: [Item]) -> Bool {
        for (index, item) in body.enumerated() where item.isVariable {
            let taken = characters(of: item)
            let following = Array(body[(index + 1)...]) + body
            for next in following {
                if case .zeroWidth = next.node { continue }
                if overlap(taken, characters(of: next)) { return true }
                if !next.isNullable { break }
            }
        }
        return false
    }

    /// Every character set a part can match, as patterns of one character.
    private static func characters(of item: Item) -> [String] {
        switch item.node {
        case .atom(let set): return [set]
        case .zeroWidth: return []
        case .group(let alternatives, _): return alternatives.flatMap { $0.flatMap(characters(of:)) }
        }
    }

    /// Whether some character is in both: tried on a sample of characters (ASCII, a line break,
    /// letters and digits of other scripts), since ICU's sets cannot be intersected from here.
    private static func overlap(_ a: [String], _ b: [String]) -> Bool {
        let first = a.compactMap(compiled)
        let second = b.compactMap(compiled)
        return sample.contains { character in
            first.contains { matches($0, character) } && second.contains { matches($0, character) }
        }
    }

    private static let sample: [String] =
        (0x20...0x7E).map { String(UnicodeScalar(UInt8($0))) } + ["\t", "\n", "é", "ß", "Ж", "中", "١", "\u{A0}", "_"]

    private static func compiled(_ set: String) -> NSRegularExpression? {
        try? NSRegularExpression(pattern: "\\A(?:\(set))\\z")
    }

    private static func matches(_ expression: NSRegularExpression, _ text: String) -> Bool {
        expression.firstMatch(in: text, range: NSRange(location: 0, length: text.utf16.count)) != nil
    }

    // MARK: Reading ICU's syntax

    struct Malformed: Error {}

    /// The deepest nesting of groups followed (the parser and the search recurse per group):
    /// real patterns nest a few deep, a fuzzer's thousands.
    static let maxDepth = 64

    struct Parser {
        let characters: [Character]
        var position = 0
        /// Groups open around the current position.
        var depth = 0

        init(_ characters: [Character]) { self.characters = characters }

        var atEnd: Bool { position >= characters.count }
        var current: Character? { atEnd ? nil : characters[position] }

        mutating func alternatives() throws -> [[Item]] {
            var result: [[Item]] = [[]]
            while let c = current, c != ")" {
                if c == "|" {
                    position += 1
                    result.append([])
                    continue
                }
                let start = position
                var item = try atom()
                try quantifier(&item)
                // An escape or group cut short by the end of the pattern (`\p`, `(?#…`) may have
                // stepped past it: malformed, not a slice out of range.
                guard position <= characters.count else { throw Malformed() }
                item.text = String(characters[start..<position])
                result[result.count - 1].append(item)
            }
            return result
        }

        private mutating func atom() throws -> Item {
            let c = characters[position]
            position += 1
            switch c {
            case "(": return try group()
            case "[":
                let start = position - 1
                try skipClass()
                return Item(node: .atom(String(characters[start..<position])))
            case "\\": return try escape()
            case "^", "$": return Item(node: .zeroWidth)
            case ".": return Item(node: .atom("."))
            case "*", "+", "?", "{":
                // ICU reads `{` that starts no bound as a character; a leading `*` is an error.
                if c == "{" { return Item(node: .atom("\\{")) }
                throw Malformed()
            default: return Item(node: .atom(NSRegularExpression.escapedPattern(for: String(c))))
            }
        }

        private mutating func group() throws -> Item {
            var atomic = false
            var zeroWidth = false
            if current == "?" {
                position += 1
                guard let kind = current else { throw Malformed() }
                switch kind {
                case ":": position += 1
                case ">":
                    position += 1
                    atomic = true
                case "=", "!":
                    position += 1
                    zeroWidth = true
                case "#":
                    while let c = current, c != ")" { position += 1 }
                    position += 1
                    return Item(node: .zeroWidth)
                case "<":
                    position += 1
                    if current == "=" || current == "!" {
                        position += 1
                        zeroWidth = true
                    } else {
                        while let c = current, c != ">" { position += 1 }
                        position += 1
                    }
                default:
                    // Flags: `(?i)` sets them for what follows, `(?i:…)` for the group.
                    while let c = current, c != ")", c != ":" { position += 1 }
                    if current == ")" {
                        position += 1
                        return Item(node: .zeroWidth)
                    }
                    position += 1
                }
            }
            guard depth < BacktrackingCheck.maxDepth else { throw Malformed() }
            depth += 1
            let inner = try alternatives()
            depth -= 1
            guard current == ")" else { throw Malformed() }
            position += 1
            if zeroWidth { return Item(node: .zeroWidth) }
            return Item(node: .group(inner, atomic: atomic), possessive: atomic)
        }

        private mutating func skipClass() throws {
            var depth = 1
            if current == "^" { position += 1 }
            if current == "]" { position += 1 }
            while let c = current {
                position += 1
                switch c {
                case "\\": position += 1
                case "[": depth += 1
                case "]":
                    depth -= 1
                    if depth == 0 { return }
                default: break
                }
            }
            throw Malformed()
        }

        private mutating func escape() throws -> Item {
            guard let c = current else { throw Malformed() }
            let start = position - 1
            position += 1
            switch c {
            case "b", "B", "A", "z", "Z", "G": return Item(node: .zeroWidth)
            case "Q":
                // `\Q…\E`: the characters between, each one itself.
                var literal: [Item] = []
                while !atEnd, !(current == "\\" && position + 1 < characters.count && characters[position + 1] == "E") {
                    literal.append(Item(node: .atom(NSRegularExpression.escapedPattern(for: String(current!)))))
                    position += 1
                }
                if !atEnd { position += 2 }
                return Item(node: .group([literal], atomic: false))
            case "p", "P", "x", "N":
                if current == "{" {
                    while let c = current, c != "}" { position += 1 }
                    position += 1
                } else if c == "x" {
                    position = min(position + 2, characters.count)
                } else if c != "N" {
                    position += 1
                }
            case "u": position = min(position + 4, characters.count)
            case "U": position = min(position + 8, characters.count)
            case "c": position += 1
            case "0":
                while let d = current, d.isASCIIDigit, position - start < 5 { position += 1 }
            case "1"..."9":
                // A back reference: any characters, as far as this check knows.
                while let d = current, d.isASCIIDigit { position += 1 }
                return Item(node: .atom("(?s:.)"))
            default: break
            }
            return Item(node: .atom(String(characters[start..<min(position, characters.count)])))
        }

        private mutating func quantifier(_ item: inout Item) throws {
            guard let c = current else { return }
            switch c {
            case "*": (item.min, item.max) = (0, nil)
            case "+": (item.min, item.max) = (1, nil)
            case "?": (item.min, item.max) = (0, 1)
            case "{":
                var end = position + 1
                while end < characters.count, characters[end] != "}" { end += 1 }
                guard end < characters.count else { return }
                let bounds = String(characters[(position + 1)..<end]).split(
                    separator: ",", omittingEmptySubsequences: false)
                guard let low = bounds.first.flatMap({ Int($0) }), bounds.count <= 2 else { return }
                item.min = low
                item.max = bounds.count == 1 ? low : (bounds[1].isEmpty ? nil : Int(bounds[1]))
                position = end
            default: return
            }
            position += 1
            if current == "+" {
                item.possessive = true
                position += 1
            } else if current == "?" {
                position += 1
            }
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
