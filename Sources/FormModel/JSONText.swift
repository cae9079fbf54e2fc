/// JSON text written by hand where a `JSONEncoder` would cost more than the work around it
/// (a service's request bodies, an object's stored values and its API answer on every create).
public enum JSONText {
    /// Appends `text` as a JSON string, escaping what RFC 8259 requires and `/` too (unless
    /// `slashes` is false), so `</script>` never appears in a body that is logged or echoed into
    /// a page. Text with nothing to escape (nearly all) is appended whole; otherwise the runs
    /// between escapes are (they split only at ASCII bytes, so each is whole UTF-8).
    public static func quote(_ text: String, into out: inout String, slashes: Bool = true) {
        out.append("\"")
        var text = text
        let escapes = text.withUTF8 { bytes in bytes.contains { escape($0, slashes: slashes) != nil } }
        if !escapes {
            out.append(text)
        } else {
            text.withUTF8 { bytes in
                var start = 0
                for index in bytes.indices {
                    guard let escaped = escape(bytes[index], slashes: slashes) else { continue }
                    if start < index {
                        out.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
                    }
                    out.append(escaped)
                    start = index + 1
                }
                if start < bytes.count {
                    out.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self))
                }
            }
        }
        out.append("\"")
    }

    /// What a byte is written as in a JSON string, or nil when it is written as it is.
    private static func escape(_ byte: UInt8, slashes: Bool) -> String? {
        switch byte {
        case UInt8(ascii: "\""): return "\\\""
        case UInt8(ascii: "\\"): return "\\\\"
        case UInt8(ascii: "/"): return slashes ? "\\/" : nil
        case UInt8(ascii: "\n"): return "\\n"
        case UInt8(ascii: "\r"): return "\\r"
        case UInt8(ascii: "\t"): return "\\t"
        case 0..<0x20:
            let hex = Array("0123456789abcdef".utf8)
            return "\\u00" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]], as: UTF8.self)
        default: return nil
        }
    }

    /// `text` as a JSON string.
    public static func quoted(_ text: String) -> String {
        var out = ""
        quote(text, into: &out)
        return out
    }
}
