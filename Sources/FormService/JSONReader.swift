import FormModel

/// A strict JSON parser (RFC 8259) that keeps numbers as text: Foundation's parser reads every
/// number as `Double`, which rounds an `Edm.Decimal` of 20 digits. Nesting is bounded so that a
/// hostile answer cannot exhaust the stack.
package struct JSONReader {
    /// Why a text is not JSON, with the byte offset where reading stopped.
    package struct Malformed: Error, Sendable, Hashable, CustomStringConvertible {
        package var offset: Int
        package var reason: String
        package var description: String { "not JSON at byte \(offset): \(reason)" }
    }

    /// The document, read in place: every read is after a check against `count`, and reading
    /// through the array (a bounds check and a retain a byte) cost a third of the parse.
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private let maxDepth: Int
    /// The members of the objects being read, innermost last: an object's dictionary is made
    /// once its members are known, at its size (inserting one by one into a growing dictionary
    /// cost some 1,300 instructions a member, most of a service answer's parse).
    private var members: [(String, JSONValue)] = []
    /// When set, the only names under which an object or array member's value is built; see
    /// ``parse(_:maxDepth:keepingContainersNamed:)``.
    private let kept: Set<String>?

    private init(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, kept: Set<String>?) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        self.kept = kept
    }

    /// Parses a whole document; anything after the value but white space is refused.
    /// - Parameter kept: when given, a member whose value is an object or an array is built only
    ///   under one of these names; under any other its value is read (and must be JSON) but
    ///   becomes `null`. An entity's answer holds more links to its navigation properties
    ///   (`{"__deferred": {"uri": …}}`) than values, and building them was most of its reading.
    package static func parse(
        _ bytes: [UInt8], maxDepth: Int = 64, keepingContainersNamed kept: Set<String>? = nil
    ) throws(Malformed) -> JSONValue {
        let parsed = bytes.withUnsafeBufferPointer { buffer -> Result<JSONValue, Malformed> in
            var reader = JSONReader(buffer, maxDepth: maxDepth, kept: kept)
            // A UTF-8 byte order mark is tolerated: some gateways write one.
            if buffer.starts(with: [0xEF, 0xBB, 0xBF]) { reader.index = 3 }
            do throws(Malformed) {
                let value = try reader.value(depth: 0)
                reader.skipSpace()
                guard reader.index == buffer.count else { throw reader.fail("text after the value") }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        return try parsed.get()
    }

    private func fail(_ reason: String) -> Malformed { Malformed(offset: index, reason: reason) }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// The value at `index`; when not `building`, the value is read all the same (and refused
    /// when it is not JSON) but `null` is returned and nothing is made of it.
    private mutating func value(depth: Int, building: Bool = true) throws(Malformed) -> JSONValue {
        guard depth < maxDepth else { throw fail("nested too deeply") }
        skipSpace()
        guard index < bytes.count else { throw fail("unexpected end") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth, building: building)
        case UInt8(ascii: "["): return try array(depth: depth, building: building)
        case UInt8(ascii: "\""):
            guard building else {
                try skipString()
                return .null
            }
            return .string(try string())
        case UInt8(ascii: "t"): return try word("true", .bool(true))
        case UInt8(ascii: "f"): return try word("false", .bool(false))
        case UInt8(ascii: "n"): return try word("null", .null)
        default:
            let digits = try number()
            return building
                ? .number(String(decoding: UnsafeBufferPointer(rebasing: bytes[digits]), as: UTF8.self)) : .null
        }
    }

    private mutating func word(_ text: StaticString, _ result: JSONValue) throws(Malformed) -> JSONValue {
        let expected = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        guard index + expected.count <= bytes.count, bytes[index..<index + expected.count].elementsEqual(expected)
        else { throw fail("unknown word") }
        index += expected.count
        return result
    }

    private mutating func object(depth: Int, building: Bool) throws(Malformed) -> JSONValue {
        index += 1
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return building ? .object([:]) : .null
        }
        let first = members.count
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a member name") }
            guard building else {
                try skipString()
                try colon()
                _ = try value(depth: depth + 1, building: false)
                guard try next(closing: UInt8(ascii: "}")) else { continue }
                return .null
            }
            let key = try string()
            try colon()
            let value = try value(depth: depth + 1, building: buildsMember(key))
            members.append((key, value))
            skipSpace()
            guard index < bytes.count else { throw fail("unexpected end") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                // A name given twice keeps its last value, as before.
                let object = Dictionary(members[first...], uniquingKeysWith: { _, last in last })
                members.removeSubrange(first...)
                return .object(object)
            } else {
                throw fail("expected ',' or '}'")
            }
        }
    }

    private mutating func array(depth: Int, building: Bool) throws(Malformed) -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return building ? .array(elements) : .null
        }
        while true {
            let element = try value(depth: depth + 1, building: building)
            if building { elements.append(element) }
            if try next(closing: UInt8(ascii: "]")) { return building ? .array(elements) : .null }
        }
    }

    /// Whether a member's value is built: always, unless it is an object or an array under a
    /// name not ``kept``.
    private mutating func buildsMember(_ name: String) -> Bool {
        guard let kept, !kept.contains(name) else { return true }
        skipSpace()
        guard index < bytes.count else { return true }
        return bytes[index] != UInt8(ascii: "{") && bytes[index] != UInt8(ascii: "[")
    }

    /// The `:` after a member's name.
    private mutating func colon() throws(Malformed) {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':'") }
        index += 1
    }

    /// After a member or an element: true at the `closing` bracket (read), false at a `,` (read).
    private mutating func next(closing: UInt8) throws(Malformed) -> Bool {
        skipSpace()
        guard index < bytes.count else { throw fail("unexpected end") }
        if bytes[index] == UInt8(ascii: ",") {
            index += 1
            return false
        }
        guard bytes[index] == closing else {
            throw fail(closing == UInt8(ascii: "}") ? "expected ',' or '}'" : "expected ',' or ']'")
        }
        index += 1
        return true
    }

    /// The bytes of a number.
    private mutating func number() throws(Malformed) -> Range<Int> {
        let start = index
        func digits(_ reader: inout JSONReader) -> Int {
            let from = reader.index
            while reader.index < reader.bytes.count, (0x30...0x39).contains(reader.bytes[reader.index]) {
                reader.index += 1
            }
            return reader.index - from
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let whole = digits(&self)
        guard whole > 0 else { throw fail("expected a value") }
        guard !(whole > 1 && bytes[index - whole] == UInt8(ascii: "0")) else { throw fail("leading zero") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw fail("expected digits after '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits(&self) > 0 else { throw fail("expected an exponent") }
        }
        return start..<index
    }

    /// A string read and checked, its value not made: its escapes decoded only when it has one.
    private mutating func skipString() throws(Malformed) {
        let start = index + 1
        if try plainString() == nil { _ = try escapedString(from: start) }
    }

    /// A string's value. Most strings have no escape: they are decoded from the document's bytes
    /// in one step. Escapes are decoded into a byte buffer, written as UTF-8, and the buffer
    /// decoded once. (Appending scalar by scalar cost about 100 instructions a byte: a third of
    /// the CPU Fieldwork spent on a create forwarded to a service.)
    private mutating func string() throws(Malformed) -> String {
        let start = index + 1
        guard let plain = try plainString() else { return try escapedString(from: start) }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[plain]), as: UTF8.self)
    }

    /// Reads a string at `index` (its opening quote) up to its closing quote when it has no
    /// escape: the range of its bytes, `index` after the quote. Nil at its first escape, `index`
    /// at the `\`.
    private mutating func plainString() throws(Malformed) -> Range<Int>? {
        index += 1
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return start..<index - 1
            }
            guard byte >= 0x20 else { throw fail("control character in a string") }
            if byte == UInt8(ascii: "\\") { return nil }
            index += 1
        }
        throw fail("unterminated string")
    }

    /// The rest of a string with escapes, from its first byte at `start`; `index` is at the first `\`.
    private mutating func escapedString(from start: Int) throws(Malformed) -> String {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(index - start + 16)
        decoded.append(contentsOf: bytes[start..<index])
        while true {
            guard index < bytes.count else { throw fail("unterminated string") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: decoded, as: UTF8.self)
            }
            guard byte >= 0x20 else { throw fail("control character in a string") }
            guard byte == UInt8(ascii: "\\") else {
                decoded.append(byte)
                index += 1
                continue
            }
            index += 1
            guard index < bytes.count else { throw fail("unterminated escape") }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
            case UInt8(ascii: "b"): decoded.append(0x08)
            case UInt8(ascii: "f"): decoded.append(0x0C)
            case UInt8(ascii: "n"): decoded.append(0x0A)
            case UInt8(ascii: "r"): decoded.append(0x0D)
            case UInt8(ascii: "t"): decoded.append(0x09)
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800...0xDBFF).contains(code) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                        bytes[index + 1] == UInt8(ascii: "u")
                    else { throw fail("lone surrogate") }
                    index += 2
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw fail("lone surrogate") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else { throw fail("lone surrogate") }
                decoded.append(contentsOf: UTF8.encode(scalar)!)
            default: throw fail("unknown escape")
            }
        }
    }

    private mutating func hex4() throws(Malformed) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("short \\u escape") }
        var code: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x41 + 10
            case 0x61...0x66: digit = byte - 0x61 + 10
            default: throw fail("bad \\u escape")
            }
            code = code << 4 | UInt32(digit)
        }
        index += 4
        return code
    }
}
