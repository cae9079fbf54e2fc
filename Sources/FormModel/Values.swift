import Foundation

/// A calendar date without a time zone, as submitted (`2026-11-21`).
public struct LocalDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...LocalDate.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD`, refusing dates that do not exist.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let y = Digits.int(parts[0]), let m = Digits.int(parts[1]), let d = Digits.int(parts[2])
        else { return nil }
        self.init(year: y, month: m, day: d)
    }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    public var description: String {
        Digits.padded(year, 4) + "-" + Digits.padded(month, 2) + "-" + Digits.padded(day, 2)
    }

    public static func < (a: LocalDate, b: LocalDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }
}

/// A time of day (`14:30` or `14:30:15`).
public struct LocalTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var hour: Int
    public var minute: Int
    public var second: Int
    /// Milliseconds, as ODK tools send them (`22:02:10.562`); 0 from a page.
    public var millisecond: Int = 0
    /// The offset from UTC in minutes, when the value was sent with one (`+07:00`, `Z`), as ODK
    /// tools send times and dateTimes: kept as sent. Nil for a wall-clock time, as a page sends.
    public var offset: Int?

    public init?(hour: Int, minute: Int, second: Int = 0) {
        guard (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else { return nil }
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// `HH:MM`, `HH:MM:SS`, and ODK's `HH:MM:SS.sss` with an offset (`Z`, `+07:00`, `-0300`).
    public init?(_ text: String) {
        var clock = Substring(text)
        var offset: Int?
        if clock.hasSuffix("Z") {
            offset = 0
            clock = clock.dropLast()
        } else if let sign = clock.lastIndex(where: { $0 == "+" || $0 == "-" }) {
            let zone = clock[clock.index(after: sign)...].filter { $0 != ":" }
            guard zone.count == 4, let hours = Digits.int(zone.prefix(2)[...]),
                let minutes = Digits.int(zone.suffix(2)[...]),
                hours <= 14, minutes <= 59
            else { return nil }
            offset = (clock[sign] == "-" ? -1 : 1) * (hours * 60 + minutes)
            clock = clock[..<sign]
        }
        var millisecond = 0
        if let dot = clock.firstIndex(of: ".") {
            let digits = clock[clock.index(after: dot)...]
            guard (1...9).contains(digits.count), let value = Digits.int(digits) else { return nil }
            // To milliseconds: `.5` is 500, `.562781` is 562.
            millisecond =
                digits.count >= 3 ? value / Self.power(digits.count - 3) : value * Self.power(3 - digits.count)
            clock = clock[..<dot]
            guard clock.count == 8 else { return nil }
        }
        let parts = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, parts.allSatisfy({ $0.count == 2 }),
            let h = Digits.int(parts[0]), let m = Digits.int(parts[1])
        else { return nil }
        let s = parts.count == 3 ? Digits.int(parts[2]) : 0
        guard let s else { return nil }
        self.init(hour: h, minute: m, second: s)
        self.millisecond = millisecond
        self.offset = offset
    }

    private static func power(_ exponent: Int) -> Int {
        (0..<exponent).reduce(1) { value, _ in value * 10 }
    }

    /// As sent: `14:30`, `14:30:15`; with milliseconds and its offset when it has them
    /// (`22:02:10.562+07:00`).
    public var description: String {
        guard millisecond != 0 || offset != nil else { return wallClock }
        var text = Digits.padded(hour, 2) + ":" + Digits.padded(minute, 2) + ":" + Digits.padded(second, 2)
        if millisecond != 0 { text += "." + Digits.padded(millisecond, 3) }
        if let offset { text += Self.zone(offset) }
        return text
    }

    /// The time on the clock: `14:30`, `14:30:15`, as a page's time input takes it.
    public var wallClock: String {
        let minutes = Digits.padded(hour, 2) + ":" + Digits.padded(minute, 2)
        return second == 0 ? minutes : minutes + ":" + Digits.padded(second, 2)
    }

    /// `+07:00`, `-03:30`, `Z` for UTC.
    public static func zone(_ offset: Int) -> String {
        guard offset != 0 else { return "Z" }
        let minutes = abs(offset)
        return (offset < 0 ? "-" : "+") + Digits.padded(minutes / 60, 2) + ":" + Digits.padded(minutes % 60, 2)
    }

    /// By the clock (offsets aside).
    public static func < (a: LocalTime, b: LocalTime) -> Bool {
        (a.hour, a.minute, a.second, a.millisecond) < (b.hour, b.minute, b.second, b.millisecond)
    }
}

/// A date and time without a zone (`2026-11-21T14:30`), as `datetime-local` submits it.
public struct LocalDateTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var date: LocalDate
    public var time: LocalTime

    public init(date: LocalDate, time: LocalTime) {
        self.date = date
        self.time = time
    }

    public init?(_ text: String) {
        let parts = text.split(separator: "T", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let d = LocalDate(String(parts[0])), let t = LocalTime(String(parts[1])) else {
            return nil
        }
        self.init(date: d, time: t)
    }

    public var description: String { "\(date)T\(time)" }

    /// The date and time on the clock (`2026-11-21T14:30`), as a page's `datetime-local` takes it.
    public var wallClock: String { "\(date)T\(time.wallClock)" }

    public static func < (a: LocalDateTime, b: LocalDateTime) -> Bool {
        a.date != b.date ? a.date < b.date : a.time < b.time
    }
}

/// An ISO 8601 duration (`PT1H30M`, `P2DT4H`). Years count as 365 days and months as 30 for ordering.
public struct ISODuration: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var years = 0
    public var months = 0
    public var weeks = 0
    public var days = 0
    public var hours = 0
    public var minutes = 0
    public var seconds: Decimal = 0

    public init(hours: Int = 0, minutes: Int = 0) {
        self.hours = hours
        self.minutes = minutes
    }

    public init?(_ text: String) {
        var rest = Substring(text)
        guard rest.first == "P", rest.count > 1 else { return nil }
        rest = rest.dropFirst()
        var inTime = false
        var number = ""
        var seen = Set<String>()
        var any = false
        for ch in rest {
            if ch == "T" {
                guard !inTime, number.isEmpty else { return nil }
                inTime = true
                continue
            }
            if ch.isASCII && (ch.isNumber || ch == ".") {
                number.append(ch)
                continue
            }
            guard !number.isEmpty else { return nil }
            let unit = (inTime ? "T" : "") + String(ch)
            guard !seen.contains(unit) else { return nil }
            seen.insert(unit)
            if unit == "TS" {
                guard let s = Decimal(string: number), number.first != ".", number.last != "." else { return nil }
                seconds = s
            } else {
                guard let n = Digits.int(Substring(number)) else { return nil }
                switch unit {
                case "Y": years = n
                case "M": months = n
                case "W": weeks = n
                case "D": days = n
                case "TH": hours = n
                case "TM": minutes = n
                default: return nil
                }
            }
            number = ""
            any = true
        }
        guard any, number.isEmpty, !(inTime && !seen.contains(where: { $0.hasPrefix("T") })) else { return nil }
    }

    /// The length in seconds, with years as 365 days and months as 30. Worked out in `Decimal`:
    /// each part may have up to 18 digits, which in `Int` seconds would overflow.
    public var totalSeconds: Decimal {
        let days = Decimal(years) * 365 + Decimal(months) * 30 + Decimal(weeks) * 7 + Decimal(self.days)
        return ((days * 24 + Decimal(hours)) * 60 + Decimal(minutes)) * 60 + seconds
    }

    public var description: String {
        var out = "P"
        if years > 0 { out += "\(years)Y" }
        if months > 0 { out += "\(months)M" }
        if weeks > 0 { out += "\(weeks)W" }
        if days > 0 { out += "\(days)D" }
        if hours > 0 || minutes > 0 || seconds > 0 {
            out += "T"
            if hours > 0 { out += "\(hours)H" }
            if minutes > 0 { out += "\(minutes)M" }
            if seconds > 0 { out += "\(seconds)S" }
        }
        return out == "P" ? "PT0S" : out
    }

    public static func < (a: ISODuration, b: ISODuration) -> Bool { a.totalSeconds < b.totalSeconds }

    // Equal lengths are equal durations (PT60M == PT1H), so equality agrees with the ordering
    // and a Set or Dictionary never holds two spellings of one length.
    public static func == (a: ISODuration, b: ISODuration) -> Bool { a.totalSeconds == b.totalSeconds }

    public func hash(into hasher: inout Hasher) { hasher.combine(totalSeconds) }
}

/// Decimal numbers written with a `.` point, as the server accepts them.
public enum DecimalText {
    /// Parses `-12`, `12.50`, `.5` is refused; exponents are refused.
    /// A number needing more than ``exactDigits`` digits is refused here, for every caller (a
    /// submitted value, a spec's bound or default, an OData facet): it would be read rounded.
    public static func parse(_ text: String) -> Decimal? {
        guard isWritten(text), significantDigits(of: text) <= exactDigits else { return nil }
        return Decimal(string: text, locale: posix)
    }

    /// The locale numbers are read and written in, whatever the process's.
    static let posix = Locale(identifier: "en_US_POSIX")

    /// Whether the text is written as the server takes numbers: a sign, digits, a point and digits.
    /// (Read as bytes: every number of every submission passes here, and reading it by
    /// characters cost more than parsing it.)
    public static func isWritten(_ text: String) -> Bool {
        var bytes = Substring(text).utf8[...]
        if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        var digits = 0
        var point = false
        for byte in bytes {
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                digits += 1
            } else if byte == UInt8(ascii: "."), !point, digits > 0 {
                point = true
                digits = 0
            } else {
                return false
            }
        }
        return digits > 0
    }

    /// The most significant digits a `Decimal` holds exactly; a number with more would be
    /// stored rounded, so a form refuses it.
    public static let exactDigits = 38

    /// The digits a number needs as written: its whole part without leading zeros and its
    /// decimals without trailing ones ("0.0120" needs 3, "1200" needs 4). A `Decimal` holds up
    /// to ``exactDigits`` of them exactly, at any of these magnitudes.
    /// `text` is a number as ``isWritten(_:)`` takes it.
    public static func significantDigits(of text: String) -> Int {
        let bytes = text.utf8
        let point = bytes.firstIndex(of: UInt8(ascii: ".")) ?? bytes.endIndex
        let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        let whole = bytes[..<point].filter(isDigit).drop(while: { $0 == UInt8(ascii: "0") }).count
        guard point < bytes.endIndex else { return whole }
        var decimals = bytes[bytes.index(after: point)...].filter(isDigit)
        while decimals.last == UInt8(ascii: "0") { decimals.removeLast() }
        return whole + decimals.count
    }

    /// A decimal as plain text with a `.` point, whatever the process locale: how values are
    /// stored and how they go back into inputs.
    public static func plain(_ number: Decimal) -> String {
        var value = number
        return NSDecimalString(&value, posix)
    }

    /// Digits after the point as written.
    public static func scale(of text: String) -> Int {
        guard let dot = text.firstIndex(of: ".") else { return 0 }
        return text.distance(from: dot, to: text.endIndex) - 1
    }
}

/// Sizes written as bytes or with a `KB`/`MB`/`GB` suffix (powers of 1024).
public enum ByteSize {
    public static func parse(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).uppercased()
        let units: [(String, Int)] = [("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10), ("B", 1)]
        for (suffix, factor) in units where trimmed.hasSuffix(suffix) {
            let number = trimmed.dropLast(suffix.count).trimmingCharacters(in: .whitespaces)
            guard let n = Digits.int(Substring(number)), n > 0 else { return nil }
            return n.multipliedReportingOverflow(by: factor).overflow ? nil : n * factor
        }
        guard let n = Digits.int(Substring(trimmed)), n > 0 else { return nil }
        return n
    }

    /// "10 MB", "512 KB", "300 bytes": how people read a size.
    public static func describe(_ bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MB" }
        if bytes >= 1 << 20 { return String(format: "%.1f MB", Double(bytes) / 1_048_576) }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KB" }
        if bytes >= 1 << 10 { return String(format: "%.1f KB", Double(bytes) / 1024) }
        return Words.count(bytes, "byte")
    }
}

enum Digits {
    static func int(_ s: Substring) -> Int? {
        guard !s.isEmpty, s.count <= 18, s.allSatisfy(\.isASCIIDigit) else { return nil }
        return Int(s)
    }

    /// A number of 0 or more written with at least `width` digits, zeros in front: what
    /// `String(format: "%02d")` writes, without Foundation's formatter (a form's default of
    /// `today` is written on every create view).
    static func padded(_ value: Int, _ width: Int) -> String {
        var digits = 1
        var rest = value / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        let count = max(digits, width)
        return String(unsafeUninitializedCapacity: count) { buffer in
            var rest = value
            for index in stride(from: count - 1, through: 0, by: -1) {
                buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            return count
        }
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
