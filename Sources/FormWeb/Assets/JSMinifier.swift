/// Minifies a script by whole lines only: blank lines and lines that are only a `//` comment go,
/// and the other lines lose their indentation. Nothing inside a line changes, so strings,
/// regular expressions and a `//` after code are untouched, and every kept line still ends
/// where it did. A line break goes only where automatic semicolon insertion could not have used
/// it (below), so it sees the same breaks that matter.
///
/// Lines that may be inside a string are copied as they are. A template literal can span lines,
/// and telling one from a backtick in a string, comment or regular expression needs a real
/// lexer, so from the first line with a backtick that is not a `//` line the rest of the file is
/// copied as is: before it no template can be open. The line after one ending in a backslash
/// (a string continued) is copied as is too.
///
/// A kept line that ends in `{`, `;` or `,` is joined to the next: no semicolon is ever inserted
/// after those, so the line break meant nothing. Not a line with `//` (the end may be a comment's),
/// a backtick (the end may be a template's) or a final backslash.
enum JSMinifier {
    /// The script minified.
    static func minify(_ script: String) -> String {
        String(decoding: minify(Array(script.utf8)), as: UTF8.self)
    }

    /// The script's UTF-8 bytes minified; only ASCII bytes are ever looked at.
    static func minify(_ script: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(script.count)
        var copying = false
        var continued = false
        var lines = script.split(separator: newline, omittingEmptySubsequences: false)
        // A final newline ends the last line rather than starting another.
        if script.last == newline { lines.removeLast() }
        for line in lines {
            if copying || continued {
                out.append(contentsOf: line)
                out.append(newline)
            } else {
                let code = line.drop(while: { $0 == space || $0 == tab })
                if code.allSatisfy(isWhitespace) || code.starts(with: [slash, slash]) { continue }
                out.append(contentsOf: code)
                if !joinsNext(code) { out.append(newline) }
            }
            if line.contains(backtick) { copying = true }
            continued = endsWithBackslash(line)
        }
        // The file ends as it did: with a newline when it had one, else without.
        if script.last == newline, !out.isEmpty, out.last != newline { out.append(newline) }
        if script.last != newline, out.last == newline { out.removeLast() }
        return out
    }

    private static let newline = UInt8(ascii: "\n")
    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")
    private static let slash = UInt8(ascii: "/")
    private static let backslash = UInt8(ascii: "\\")
    private static let backtick = UInt8(ascii: "`")

    /// Whether a kept line's break can go: it ends in `{`, `;` or `,`, and holds no `//`,
    /// backtick or final backslash that could make that end a comment's or a string's.
    private static func joinsNext(_ line: ArraySlice<UInt8>) -> Bool {
        guard let last = line.last, last == UInt8(ascii: "{") || last == UInt8(ascii: ";") || last == UInt8(ascii: ",")
        else { return false }
        if line.contains(backtick) { return false }
        var previous: UInt8 = 0
        for byte in line {
            if byte == slash && previous == slash { return false }
            previous = byte
        }
        return true
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == space || byte == tab || byte == UInt8(ascii: "\r")
    }

    /// Whether the line (a CR of CRLF aside) ends in an odd number of backslashes.
    private static func endsWithBackslash(_ line: ArraySlice<UInt8>) -> Bool {
        var line = line
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        var count = 0
        for byte in line.reversed() {
            guard byte == backslash else { break }
            count += 1
        }
        return count % 2 == 1
    }
}
