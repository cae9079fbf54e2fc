extension ODKFunctions {
    /// The functions whose result depends on more than their arguments and the answers: the
    /// clock (`now()`, `today()`) or chance (`random()`, `uuid()`, `randomize()` unseeded).
    public static let varying: Set<String> = ["now", "today", "random", "uuid", "randomize"]

    /// Whether `expression` may call a ``varying`` function: a name ending in one, followed by
    /// `(`, outside the expression's string literals. It may say yes for a call that is not one
    /// (the expression then counts as varying, which is safe), never no for one that is.
    public static func callsVarying(_ expression: String) -> Bool {
        let bytes = Array(expression.utf8)
        var index = 0
        var nameStart: Int?
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                // A literal runs to the next of its own quote (XPath 1.0 has no escapes).
                index = (bytes[(index + 1)...].firstIndex(of: byte) ?? bytes.count) + 1
                nameStart = nil
                continue
            }
            if isNameByte(byte) {
                if nameStart == nil { nameStart = index }
                index += 1
                continue
            }
            if let start = nameStart {
                var next = index
                while next < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[next]) { next += 1 }
                if next < bytes.count, bytes[next] == UInt8(ascii: "(") {
                    // What ends in a varying name counts: `jr:now(`, and `5-today(` (a number, a
                    // minus and the call, which this scan reads as one name).
                    let name = String(decoding: bytes[start..<index], as: UTF8.self)
                    if varying.contains(where: name.hasSuffix) { return true }
                }
                // The byte that ended the name is read next: it may open a literal.
                nameStart = nil
                continue
            }
            index += 1
        }
        return false
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: ":"), 0x80...0xFF:
            true
        default: false
        }
    }
}
