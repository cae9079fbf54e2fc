/// Percent-encoding for the two places a literal goes: a URL path segment (a key predicate) and a
/// query option's value (`$filter`). Only RFC 3986's unreserved characters and the few delimiters
/// OData's own syntax needs are left as they are; everything else, `+`, `&`, `#`, `/`, `%` and any
/// non-ASCII text, is encoded as UTF-8 bytes, so a value can never end the segment or the option.
package enum PercentEncoding {
    /// For a path segment: the key predicate's `(`, `)`, `=`, `,` and a literal's quotes stay.
    package static func pathSegment(_ text: String) -> String {
        encode(text, keeping: "'()=,:@")
    }

    /// For a query option's value: the filter's quotes, parentheses and commas stay; a space
    /// becomes `%20`, never `+`, which OData reads as a plus sign.
    package static func queryValue(_ text: String) -> String {
        encode(text, keeping: "'(),:@/")
    }

    private static func encode(_ text: String, keeping extra: StaticString) -> String {
        let kept = UnsafeBufferPointer(start: extra.utf8Start, count: extra.utf8CodeUnitCount)
        var out = ""
        out.reserveCapacity(text.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            let unreserved =
                (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: "~")
            if unreserved || kept.contains(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%"
                out.unicodeScalars.append(Unicode.Scalar(hex[Int(byte >> 4)]))
                out.unicodeScalars.append(Unicode.Scalar(hex[Int(byte & 0x0F)]))
            }
        }
        return out
    }
}
