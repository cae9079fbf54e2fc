import Foundation

/// A date, dateTime or time in ODK's lexical forms, and the conversions the ODK functions make
/// between them, numbers of days since 1970-01-01 and text.
///
/// The number line is days since 1970-01-01T00:00:00Z, fractional, negative before 1970. A
/// dateTime is the instant it names (no offset = the host's zone). A **date** is midnight UTC of
/// that date, so a date is a whole number whatever the host's zone, `number('2024-05-15')` is
/// 19858 everywhere, and `date(n)` gives the date back. JavaRosa takes a date as midnight in
/// the device's zone instead (`decimal-date-time('2024-05-15')` is 19857.875 on a phone at
/// +03:00); the two agree on dateTimes and on every date-only comparison and subtraction, and
/// differ by the zone offset when a date is compared with a dateTime.
enum XPathTemporal: Equatable {
    /// `YYYY-MM-DD`.
    case date(Day)
    /// `YYYY-MM-DDTHH:MM(:SS(.s+)?)?` then `Z`, `±HH:MM`, `±HHMM`, `±HH` or nothing;
    /// `offset` in seconds east of UTC, nil when not written.
    case dateTime(Day, seconds: Double, offset: Int?)
    /// `HH:MM(:SS(.s+)?)?` with an optional offset, as above.
    case time(seconds: Double, offset: Int?)

    /// A Gregorian calendar date (proleptic: 1900 is not a leap year, 2000 is).
    struct Day: Equatable {
        var year: Int
        var month: Int
        var day: Int

        /// Days since 1970-01-01, exact for any year (``CivilDays``).
        var daysSinceEpoch: Int { CivilDays.days(year: year, month: month, day: day) }

        /// The date `days` after 1970-01-01.
        init(daysSinceEpoch days: Int) {
            (year, month, day) = CivilDays.date(days: days)
        }

        init?(year: Int, month: Int, day: Int) {
            guard (1...12).contains(month), day >= 1, day <= Self.daysIn(month: month, year: year) else { return nil }
            self.year = year
            self.month = month
            self.day = day
        }

        static func daysIn(month: Int, year: Int) -> Int {
            switch month {
            case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
            case 4, 6, 9, 11: 30
            default: 31
            }
        }

        /// 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday).
        var weekday: Int { ((daysSinceEpoch + 4) % 7 + 7) % 7 }

        /// `YYYY-MM-DD`.
        var text: String { pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) }
    }

    /// The fields `format-date` and the text forms show: a local date and time of day.
    struct Fields: Equatable {
        var day: Day
        /// Milliseconds since midnight, 0..<86 400 000.
        var milliseconds: Int
        /// Seconds east of UTC of the zone the fields are in.
        var offset: Int

        var hour: Int { milliseconds / 3_600_000 }
        var minute: Int { milliseconds / 60_000 % 60 }
        var second: Int { milliseconds / 1000 % 60 }
        var millisecond: Int { milliseconds % 1000 }

        /// `YYYY-MM-DDTHH:MM:SS.sss±HH:MM` (`Z` for UTC), as ODK writes a dateTime.
        var dateTimeText: String {
            day.text + "T" + pad(hour, 2) + ":" + pad(minute, 2) + ":" + pad(second, 2) + "." + pad(millisecond, 3)
                + XPathTemporal.offsetText(offset)
        }
    }

    // MARK: - Reading

    /// Reads a date, dateTime or time; nil for anything else (surrounding blanks allowed).
    init?(_ text: String) {
        var scanner = Scanner(Array(text.utf8))
        scanner.skipBlanks()
        if let day = scanner.day() {
            if scanner.atEnd {
                self = .date(day)
                return
            }
            guard scanner.take(UInt8(ascii: "T")), let seconds = scanner.timeOfDay() else { return nil }
            guard let offset = scanner.offset(), scanner.atEnd else { return nil }
            self = .dateTime(day, seconds: seconds, offset: offset)
            return
        }
        guard let seconds = scanner.timeOfDay(), let offset = scanner.offset(), scanner.atEnd else { return nil }
        self = .time(seconds: seconds, offset: offset)
    }

    /// Days since 1970-01-01 UTC for a date or dateTime (a date is midnight UTC); nil for a time.
    func days(in zone: TimeZone) -> Double? {
        switch self {
        case .date(let day):
            return Double(day.daysSinceEpoch)
        case .dateTime(let day, let seconds, let offset):
            let local = Double(day.daysSinceEpoch) * 86_400 + seconds
            let offset = offset ?? Self.offset(ofLocal: local, in: zone)
            return (local - Double(offset)) / 86_400
        case .time:
            return nil
        }
    }

    /// The fraction of the day a time or dateTime shows, in the host's zone (a time or dateTime
    /// written with another offset is moved to it first; a date is 0).
    func fractionOfDay(in zone: TimeZone, now: Date) -> Double {
        switch self {
        case .date:
            return 0
        case .dateTime(_, let seconds, nil), .time(let seconds, nil):
            return seconds / 86_400
        case .dateTime(_, _, .some):
            guard let days = days(in: zone) else { return 0 }
            return Self.fields(days: days, in: zone).fraction
        case .time(let seconds, .some(let offset)):
            let local = seconds - Double(offset) + Double(zone.secondsFromGMT(for: now))
            let fraction = local / 86_400
            return fraction - fraction.rounded(.down)
        }
    }

    /// The local date and time this value shows in the host's zone (an offset dateTime moved to
    /// it; a date at midnight); nil for a time.
    func fields(in zone: TimeZone) -> Fields? {
        switch self {
        case .date(let day):
            return Fields(day: day, milliseconds: 0, offset: 0)
        case .dateTime(let day, let seconds, nil):
            let local = Double(day.daysSinceEpoch) * 86_400 + seconds
            return Self.fields(localSeconds: local, offset: Self.offset(ofLocal: local, in: zone))
        case .dateTime(_, _, .some):
            return days(in: zone).map { Self.fields(days: $0, in: zone) }
        case .time:
            return nil
        }
    }

    // MARK: - Numbers to text

    /// The local date and time `days` after 1970-01-01 UTC shows in `zone`.
    static func fields(days: Double, in zone: TimeZone) -> Fields {
        fields(instant: days * 86_400, in: zone)
    }

    /// The local date and time an instant (seconds since 1970-01-01 UTC) shows in `zone`.
    static func fields(instant: Double, in zone: TimeZone) -> Fields {
        let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: instant))
        return fields(localSeconds: instant + Double(offset), offset: offset)
    }

    /// Fields from seconds since 1970-01-01T00:00 local time, rounded to the millisecond.
    static func fields(localSeconds: Double, offset: Int) -> Fields {
        let milliseconds = Int((localSeconds * 1000).rounded())
        let days = Int((Double(milliseconds) / 86_400_000).rounded(.down))
        return Fields(
            day: Day(daysSinceEpoch: days), milliseconds: milliseconds - days * 86_400_000, offset: offset)
    }

    /// The zone's offset at a local time: the offset at the instant that local time names
    /// (the first guess is off by the offset itself near a change, hence the second look).
    static func offset(ofLocal local: Double, in zone: TimeZone) -> Int {
        let guess = zone.secondsFromGMT(for: Date(timeIntervalSince1970: local))
        return zone.secondsFromGMT(for: Date(timeIntervalSince1970: local - Double(guess)))
    }

    /// `Z` for UTC, else `±HH:MM`.
    static func offsetText(_ offset: Int) -> String {
        guard offset != 0 else { return "Z" }
        let minutes = abs(offset) / 60
        return (offset < 0 ? "-" : "+") + pad(minutes / 60, 2) + ":" + pad(minutes % 60, 2)
    }

    /// `value` written with at least `width` digits (a minus sign first when negative).
    static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(abs(value))
        return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    // MARK: - Scanning

    /// Reads the pieces of ODK's date and time forms from UTF-8 bytes.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) {
            // Trailing blanks (a node's value may end with a line break) go now.
            var end = bytes.count
            while end > 0, Self.isBlank(bytes[end - 1]) { end -= 1 }
            self.bytes = Array(bytes[..<end])
        }

        private static func isBlank(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
        }

        var atEnd: Bool { index == bytes.count }

        mutating func skipBlanks() {
            while index < bytes.count, Self.isBlank(bytes[index]) { index += 1 }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// Exactly `count` digits.
        mutating func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + count] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            index += count
            return value
        }

        /// `YYYY-MM-DD`, a real date; the position is kept when there is none.
        mutating func day() -> Day? {
            let start = index
            guard let year = digits(4), take(UInt8(ascii: "-")), let month = digits(2), take(UInt8(ascii: "-")),
                let day = digits(2), let result = Day(year: year, month: month, day: day)
            else {
                index = start
                return nil
            }
            return result
        }

        /// `HH:MM(:SS(.s+)?)?` as seconds since midnight.
        mutating func timeOfDay() -> Double? {
            guard let hour = digits(2), hour < 24, take(UInt8(ascii: ":")), let minute = digits(2), minute < 60
            else { return nil }
            var seconds = Double(hour * 3600 + minute * 60)
            if take(UInt8(ascii: ":")) {
                guard let second = digits(2), second < 60 else { return nil }
                seconds += Double(second)
                if take(UInt8(ascii: ".")) {
                    let start = index
                    while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                        index += 1
                    }
                    guard index > start,
                        let fraction = Double("0." + String(decoding: bytes[start..<index], as: UTF8.self))
                    else { return nil }
                    seconds += fraction
                }
            }
            return seconds
        }

        /// Nothing (`.some(nil)`), `Z`, `±HH:MM`, `±HHMM` or `±HH`; nil when malformed.
        mutating func offset() -> Int?? {
            if atEnd { return .some(nil) }
            if take(UInt8(ascii: "Z")) { return .some(0) }
            let sign: Int
            if take(UInt8(ascii: "+")) {
                sign = 1
            } else if take(UInt8(ascii: "-")) {
                sign = -1
            } else {
                return nil
            }
            guard let hours = digits(2), hours <= 14 else { return nil }
            var minutes = 0
            if !atEnd {
                _ = take(UInt8(ascii: ":"))
                guard let m = digits(2), m < 60 else { return nil }
                minutes = m
            }
            return .some(sign * (hours * 3600 + minutes * 60))
        }
    }
}

extension XPathTemporal.Fields {
    /// The time of day as a fraction of the day.
    var fraction: Double { Double(milliseconds) / 86_400_000 }
}
