/// JSON text written by hand where a `JSONEncoder` would cost more than the work around it
/// (a service's request bodies, an object's stored values on every create).
public enum JSONText {
    /// Appends `text` as a JSON string, escaping what RFC 8259 requires and `/` too (unless
    /// `slashes` is false), so `</script>` never appears in a body that is logged or echoed into
    /// a page. Text with nothing to escape (nearly all) is appended whole.
    public static func quote(_ text: String, into out: inout String, slashes: Bool = true) {
        out += "\""
        let slash = slashes ? UInt8(ascii: "/") : UInt8(ascii: "\"")
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") && $0 != slash }) {
            out += text
        } else {
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "/" where slashes: out += "\\/"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }

    /// `text` as a JSON string.
    public static func quoted(_ text: String) -> String {
        var out = ""
        quote(text, into: &out)
        return out
    }
}
