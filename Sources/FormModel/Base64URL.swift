import Foundation

/// Base64url (RFC 4648, section 5), written and read in one pass over the bytes: the CSRF
/// token every page derives, the seals of read-only values and kept drafts, list cursors, and
/// OData V4's binary values. One alphabet, one reading; Foundation's base64 and the clean-up
/// of `+`, `/` and `=` after it took a tenth of a request's instructions.
public enum Base64URL {
    private static let alphabet: StaticString = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

    /// `bytes` in base64url; with `padded`, `=` to a multiple of four (OData V4 writes it so).
    /// Whole groups of three bytes are written four letters at a time, the last one or two
    /// bytes after: a browser id, its CSRF token and a page's one-time token are three of these
    /// on every first visit.
    public static func encode(_ bytes: UnsafeRawBufferPointer, padded: Bool = false) -> String {
        let length = bytes.count
        let count = (length * 8 + 5) / 6
        let total = padded ? (count + 3) / 4 * 4 : count
        guard total > 0 else { return "" }
        let letters = alphabet.utf8Start
        return String(unsafeUninitializedCapacity: total) { buffer in
            let out = buffer.baseAddress!
            var written = 0
            var index = 0
            while index + 3 <= length {
                let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
                out[written] = letters[Int(group >> 18)]
                out[written + 1] = letters[Int(group >> 12 & 0x3F)]
                out[written + 2] = letters[Int(group >> 6 & 0x3F)]
                out[written + 3] = letters[Int(group & 0x3F)]
                written += 4
                index += 3
            }
            if index < length {
                let two = index + 1 < length
                let group = UInt32(bytes[index]) << 16 | (two ? UInt32(bytes[index + 1]) << 8 : 0)
                out[written] = letters[Int(group >> 18)]
                out[written + 1] = letters[Int(group >> 12 & 0x3F)]
                written += 2
                if two {
                    out[written] = letters[Int(group >> 6 & 0x3F)]
                    written += 1
                }
            }
            while written < total {
                out[written] = UInt8(ascii: "=")
                written += 1
            }
            return total
        }
    }

    public static func encode(_ bytes: some ContiguousBytes, padded: Bool = false) -> String {
        bytes.withUnsafeBytes { encode($0, padded: padded) }
    }

    /// The bytes of base64url text, with or without its padding; nil for any other character, a
    /// misplaced `=`, or a length no encoding has.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count * 3 / 4)
        var group: UInt32 = 0
        var count = 0
        var padding = 0
        for character in text.utf8 {
            let value: UInt32
            switch character {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(character - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(character - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(character - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "-"): value = 62
            case UInt8(ascii: "_"): value = 63
            case UInt8(ascii: "="):
                padding += 1
                continue
            default: return nil
            }
            guard padding == 0 else { return nil }
            group = group << 6 | value
            count += 1
            if count == 4 {
                bytes += [UInt8(group >> 16 & 0xFF), UInt8(group >> 8 & 0xFF), UInt8(group & 0xFF)]
                group = 0
                count = 0
            }
        }
        switch count {
        case 0: return padding == 0 ? bytes : nil
        case 2:
            guard padding == 0 || padding == 2 else { return nil }
            bytes.append(UInt8(group >> 4 & 0xFF))
        case 3:
            guard padding == 0 || padding == 1 else { return nil }
            bytes += [UInt8(group >> 10 & 0xFF), UInt8(group >> 2 & 0xFF)]
        default: return nil
        }
        return bytes
    }
}
