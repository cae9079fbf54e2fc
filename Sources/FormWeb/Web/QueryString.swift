import Foundation

/// Parses `application/x-www-form-urlencoded` text, as browsers write queries and form posts.
enum QueryString {
    /// All values of every key, in order; `+` is a space and percent escapes are decoded.
    static func parse(_ query: String?) -> [String: [String]] {
        guard let query, !query.isEmpty else { return [:] }
        var result: [String: [String]] = [:]
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = decode(parts[0])
            guard !key.isEmpty else { continue }
            result[key, default: []].append(parts.count > 1 ? decode(parts[1]) : "")
        }
        return result
    }

    /// `+` as a space, then percent escapes decoded; the text with only its `+` replaced when an
    /// escape is malformed or the bytes it decodes to are not UTF-8 (as Foundation's
    /// `removingPercentEncoding` gives nil then). On the bytes: Foundation's `replacingOccurrences`
    /// and `removingPercentEncoding` made parsing a create's body a tenth of its instructions.
    static func decode(_ text: Substring) -> String {
        var spaced = Array(text.utf8)
        for i in spaced.indices where spaced[i] == UInt8(ascii: "+") { spaced[i] = UInt8(ascii: " ") }
        guard spaced.contains(UInt8(ascii: "%")) else { return String(decoding: spaced, as: UTF8.self) }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(spaced.count)
        var i = 0
        while i < spaced.count {
            guard spaced[i] == UInt8(ascii: "%") else {
                decoded.append(spaced[i])
                i += 1
                continue
            }
            guard i + 2 < spaced.count, let high = hexValue(spaced[i + 1]), let low = hexValue(spaced[i + 2]) else {
                return String(decoding: spaced, as: UTF8.self)
            }
            decoded.append(high << 4 | low)
            i += 3
        }
        return String(validating: decoded, as: UTF8.self) ?? String(decoding: spaced, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
