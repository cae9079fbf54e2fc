/// The static type of an expression or of a data node, as far as the importer can tell before
/// any value exists: a node's from its bind `type`, a call's from `XPathFunctionTable`, a
/// literal's from its form. What the typed date rewrite decides by.
enum XPathValueType: Hashable, Sendable {
    case string
    case number
    case boolean
    /// `YYYY-MM-DD`
    case date
    /// `YYYY-MM-DDThh:mm:ss` with an optional fraction and offset.
    case dateTime
    /// `hh:mm:ss` with an optional fraction and offset.
    case time

    /// date, dateTime or time.
    var isTemporal: Bool { self == .date || self == .dateTime || self == .time }

    /// The type of a string literal: date, dateTime or time when it is written as one (as ODK
    /// writes them: `2020-01-31`, `2020-01-31T10:30:00.000+03:00`, `10:30:00`), else string.
    static func ofLiteral(_ value: String) -> XPathValueType {
        let bytes = Array(value.utf8)
        var i = 0
        func digits(_ n: Int) -> Bool {
            guard i + n <= bytes.count, bytes[i..<i + n].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return false }
            i += n
            return true
        }
        func byte(_ b: UInt8) -> Bool {
            guard i < bytes.count, bytes[i] == b else { return false }
            i += 1
            return true
        }
        /// `hh:mm[:ss[.fff]]` and an optional `Z` or `±hh:mm`, to the end.
        func timeOfDay() -> Bool {
            guard digits(2), byte(0x3A), digits(2) else { return false }
            if byte(0x3A) {
                guard digits(2) else { return false }
                if byte(0x2E) {
                    guard digits(1) else { return false }
                    while digits(1) {}
                }
            }
            if byte(0x5A) { return i == bytes.count }
            if byte(0x2B) || byte(0x2D) {
                guard digits(2) else { return false }
                if byte(0x3A) { guard digits(2) else { return false } } else { _ = digits(2) }
            }
            return i == bytes.count
        }
        if digits(4), byte(0x2D), digits(2), byte(0x2D), digits(2) {
            if i == bytes.count { return .date }
            return byte(0x54) && timeOfDay() ? .dateTime : .string
        }
        i = 0
        return timeOfDay() ? .time : .string
    }
}
