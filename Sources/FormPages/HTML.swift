/// HTML escaping for text and attribute values, and the clean-up of imported text.
enum HTML {
    /// Escapes `& < > " '` so the text is safe both between tags and inside quoted attributes.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Writes the escaped text straight into the response buffer, without an intermediate string:
    /// runs without a special character are copied as they are, from the string's own UTF-8.
    static func writeEscaped(_ text: String, to buffer: inout PageBuffer) {
        var text = text
        text.withUTF8 { bytes in
            var start = 0
            for index in 0..<bytes.count {
                let replacement: StaticString
                switch bytes[index] {
                case UInt8(ascii: "&"): replacement = "&amp;"
                case UInt8(ascii: "<"): replacement = "&lt;"
                case UInt8(ascii: ">"): replacement = "&gt;"
                case UInt8(ascii: "\""): replacement = "&quot;"
                case UInt8(ascii: "'"): replacement = "&#39;"
                default: continue
                }
                buffer.writeBytes(UnsafeBufferPointer(rebasing: bytes[start..<index]))
                buffer.writeStaticString(replacement)
                start = index + 1
            }
            buffer.writeBytes(UnsafeBufferPointer(rebasing: bytes[start...]))
        }
    }

    /// The private-use characters that open and close a slot sentinel.
    static let sentinelOpen: Unicode.Scalar = "\u{E000}"
    static let sentinelClose: Unicode.Scalar = "\u{E001}"

    /// Makes imported text safe to hand to Mustache (``PageText`` calls it, and nothing else): drops the sentinel characters, so no label
    /// or option can forge a slot, and breaks up grapheme clusters that hold a character HTML
    /// needs escaped. swift-mustache escapes whole `Character`s by lookup, so `"` followed by a
    /// combining mark (or after a prepend mark) would pass through unescaped; keeping only the
    /// special scalar of such a cluster lets the escaping see it. Only pathological text changes.
    ///
    /// The sentinel characters go first: dropped later, a quote before one and a combining mark
    /// after it would join into one cluster in the result, and the quote would pass unescaped.
    static func clean(_ text: String) -> String {
        let needsWork = text.unicodeScalars.contains { $0 == sentinelOpen || $0 == sentinelClose || isSpecial($0) }
        guard needsWork else { return text }
        var stripped = String.UnicodeScalarView()
        stripped.append(contentsOf: text.unicodeScalars.filter { $0 != sentinelOpen && $0 != sentinelClose })
        var out = String.UnicodeScalarView()
        for character in String(stripped) {
            let scalars = character.unicodeScalars
            if scalars.count > 1, scalars.contains(where: isSpecial) {
                out.append(contentsOf: scalars.filter(isSpecial))
            } else {
                out.append(contentsOf: scalars)
            }
        }
        return String(out)
    }

    private static func isSpecial(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "&" || scalar == "<" || scalar == ">" || scalar == "\"" || scalar == "'"
    }
}
