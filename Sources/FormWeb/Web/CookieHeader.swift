/// Reading one cookie from a request's `Cookie` fields (`a=1; b=2`) without parsing the others.
///
/// Hummingbird's `request.cookies` splits every cookie and its attributes character by character,
/// grapheme breaking included: 50 K instructions or more for the two cookies a signed-in browser
/// sends, where this scans the bytes once.
enum CookieHeader {
    /// The value of the first cookie named `name`, spaces and tabs around it dropped; nil when
    /// there is none.
    static func value(of name: String, in fields: [String]) -> String? {
        var name = name
        return name.withUTF8 { wanted in
            for var field in fields {
                if let value = field.withUTF8({ scan($0, for: wanted) }) { return value }
            }
            return nil
        }
    }

    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>, for name: UnsafeBufferPointer<UInt8>) -> String? {
        func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: ";") { end += 1 }
            var first = start
            while first < end, isBlank(bytes[first]) { first += 1 }
            if end - first > name.count, bytes[first + name.count] == UInt8(ascii: "="),
                (0..<name.count).allSatisfy({ bytes[first + $0] == name[$0] })
            {
                let valueStart = first + name.count + 1
                var valueEnd = end
                while valueEnd > valueStart, isBlank(bytes[valueEnd - 1]) { valueEnd -= 1 }
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[valueStart..<valueEnd]), as: UTF8.self)
            }
            start = end + 1
        }
        return nil
    }
}
