import Foundation

// The OData importer's speed tricks, behind two helpers: the byte-level tests of CSDL's names
// and paths below (every separator they use, `.`, `/`, `@`, `#`, `(` and whitespace, is ASCII, so
// searching the UTF-8 view gives valid String indices and avoids both Character iteration and
// Foundation's bridged string operations on the hot path), and the caches keyed by a text's
// bytes or an interned name's address (`TextCache`, `IdentityCache`), so a name seen before
// costs no String. The mapping's rules call these by name and stay readable.

extension String {
    /// The first index of an ASCII byte.
    func firstIndex(ofASCII byte: UInt8) -> String.Index? {
        let found: Int?? = utf8.withContiguousStorageIfAvailable { bytes in
            var i = 0
            while i < bytes.count {
                if bytes[i] == byte { return i }
                i += 1
            }
            return nil
        }
        guard let found else { return utf8.firstIndex(of: byte) }
        return found.map { utf8.index(utf8.startIndex, offsetBy: $0) }
    }

    /// The last index of an ASCII byte.
    func lastIndex(ofASCII byte: UInt8) -> String.Index? {
        let found: Int?? = utf8.withContiguousStorageIfAvailable { bytes in
            var i = bytes.count - 1
            while i >= 0 {
                if bytes[i] == byte { return i }
                i -= 1
            }
            return nil
        }
        guard let found else { return utf8.lastIndex(of: byte) }
        return found.map { utf8.index(utf8.startIndex, offsetBy: $0) }
    }

    func contains(ascii byte: UInt8) -> Bool {
        if let found = utf8.withContiguousStorageIfAvailable({ $0.contains(byte) }) { return found }
        return utf8.contains(byte)
    }

    /// Whether the text starts with `prefix` (ASCII) and has more after it (`Edm.` of `Edm.String`).
    func hasASCIIPrefix(_ prefix: StaticString, andMore: Bool = false) -> Bool {
        var text = self
        return text.withUTF8 { bytes in
            prefix.withUTF8Buffer { wanted in
                (andMore ? bytes.count > wanted.count : bytes.count >= wanted.count)
                    && bytes.prefix(wanted.count).elementsEqual(wanted)
            }
        }
    }

    /// The length and the last seven bytes in one number: for a handful of texts (the terms of
    /// a target's annotations) as good a hash as every byte, at a fraction of the cost.
    var asciiTailKey: UInt64 {
        var text = self
        return text.withUTF8 { bytes in
            var value = UInt64(bytes.count)
            for byte in bytes.suffix(7) { value = value << 8 | UInt64(byte) }
            return value
        }
    }

    /// Without leading and trailing ASCII whitespace; the same string when there is none.
    var trimmingASCIIWhitespace: String {
        let bytes = utf8
        guard let first = bytes.firstIndex(where: { !isASCIIWhitespace($0) }) else { return "" }
        let last = bytes.lastIndex(where: { !isASCIIWhitespace($0) })!
        if first == bytes.startIndex && bytes.index(after: last) == bytes.endIndex { return self }
        return String(self[first...last])
    }

    /// The words between runs of ASCII whitespace.
    var asciiWords: [Substring] {
        split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
    }
}

@inline(__always)
func isASCIIWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
}

/// Values looked up by the bytes of their text, so a text seen before costs no String: terms
/// and enumeration members repeat thousands of times in large files.
struct TextCache<Value> {
    private var hashes: [UInt64]
    private var texts: [String?]
    private var values: [Value?]
    private var count = 0

    init() {
        hashes = Array(repeating: 0, count: 64)
        texts = Array(repeating: nil, count: 64)
        values = Array(repeating: nil, count: 64)
    }

    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }

    /// The cached value for `bytes`, if any, and the hash to store one under.
    func lookup(_ bytes: UnsafeBufferPointer<UInt8>) -> (key: UInt64, value: Value?) {
        let hash = TextCache.hash(bytes)
        let mask = hashes.count - 1
        var i = Int(truncatingIfNeeded: hash) & mask
        while let text = texts[i] {
            if hashes[i] == hash, TextCache.equal(text, bytes) { return (hash, values[i]) }
            i = (i + 1) & mask
        }
        return (hash, nil)
    }

    mutating func store(_ key: UInt64, text: String, value: Value) {
        if (count + 1) * 2 > hashes.count { grow() }
        let mask = hashes.count - 1
        var i = Int(truncatingIfNeeded: key) & mask
        while texts[i] != nil { i = (i + 1) & mask }
        hashes[i] = key
        texts[i] = text
        values[i] = value
        count += 1
    }

    private mutating func grow() {
        let old = (hashes, texts, values)
        hashes = Array(repeating: 0, count: old.0.count * 2)
        texts = Array(repeating: nil, count: old.0.count * 2)
        values = Array(repeating: nil, count: old.0.count * 2)
        count = 0
        for i in old.0.indices {
            if let text = old.1[i], let value = old.2[i] { store(old.0[i], text: text, value: value) }
        }
    }

    private static func equal(_ text: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var text = text
        return text.withUTF8 { stored in
            stored.count == bytes.count
                && (bytes.isEmpty || memcmp(stored.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
        }
    }
}

/// A small cache keyed by an address (an interned libxml2 name or namespace): open addressing
/// on the address itself, cheaper than hashing it through `Hasher` for every element.
struct IdentityCache<Value> {
    private var keys: [UInt]
    private var values: [Value?]
    private var count = 0

    init() {
        keys = Array(repeating: 0, count: 64)
        values = Array(repeating: nil, count: 64)
    }

    private func start(_ key: UInt) -> Int {
        Int(truncatingIfNeeded: (key >> 4) &* 0x9E37_79B9_7F4A_7C15 >> 32) & (keys.count - 1)
    }

    subscript(_ key: UInt) -> Value? {
        get {
            var i = start(key)
            while keys[i] != 0 {
                if keys[i] == key { return values[i] }
                i = (i + 1) & (keys.count - 1)
            }
            return nil
        }
        set {
            guard key != 0, let newValue else { return }
            if (count + 1) * 2 > keys.count {
                let old = (keys, values)
                keys = Array(repeating: 0, count: old.0.count * 2)
                values = Array(repeating: nil, count: old.0.count * 2)
                count = 0
                for i in old.0.indices where old.0[i] != 0 { self[old.0[i]] = old.1[i] }
            }
            var i = start(key)
            while keys[i] != 0 && keys[i] != key { i = (i + 1) & (keys.count - 1) }
            if keys[i] == 0 { count += 1 }
            keys[i] = key
            values[i] = newValue
        }
    }
}
