import Foundation

/// Dates, times, durations and numbers as people read them in messages and on detail pages.
public enum HumanText {
    static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]

    /// "21 November 2026".
    public static func date(_ date: LocalDate) -> String { "\(date.day) \(months[date.month - 1]) \(date.year)" }

    /// "May 2024".
    public static func month(_ date: LocalDate) -> String { "\(months[date.month - 1]) \(date.year)" }

    /// "14:30" (seconds only when there are some).
    /// "14:30", "14:30:15"; a time kept with its offset says it: "22:02:10 (UTC+07:00)".
    public static func time(_ time: LocalTime) -> String {
        guard let offset = time.offset else { return time.wallClock }
        return "\(time.wallClock) (UTC\(offset == 0 ? "" : LocalTime.zone(offset)))"
    }

    /// "21 November 2026 at 14:30".
    public static func datetime(_ value: LocalDateTime) -> String { "\(date(value.date)) at \(time(value.time))" }

    /// "1 hour 30 minutes", "30 days", "0 minutes".
    public static func duration(_ d: ISODuration) -> String {
        func unit(_ n: Int, _ name: String) -> String? { n == 0 ? nil : Words.count(n, name) }
        var parts = [
            unit(d.years, "year"), unit(d.months, "month"), unit(d.weeks, "week"), unit(d.days, "day"),
            unit(d.hours, "hour"), unit(d.minutes, "minute"),
        ].compactMap { $0 }
        // Seconds may have a fraction (`PT1.5S`), which `Words.count` (whole numbers) cannot take.
        if d.seconds != 0 { parts.append("\(d.seconds) second\(d.seconds == 1 ? "" : "s")") }
        return parts.isEmpty ? "0 minutes" : parts.joined(separator: " ")
    }

    /// A decimal with exactly `scale` digits after the point when a scale is given ("12.50"), else as is.
    public static func number(_ value: Decimal, scale: Int? = nil) -> String {
        guard let scale, scale >= 0 else { return DecimalText.plain(value) }
        var input = value
        var rounded = Decimal()
        NSDecimalRound(&rounded, &input, scale, .plain)
        var text = DecimalText.plain(rounded)
        guard scale > 0 else { return text }
        let have = DecimalText.scale(of: text)
        if have == 0 { text += "." }
        return text + String(repeating: "0", count: max(0, scale - have))
    }

    /// "A", "A and B", "A, B and C", "A, B and 3 more".
    public static func summary(_ items: [String]) -> String {
        items.count > 3 ? "\(items[0]), \(items[1]) and \(items.count - 2) more" : Words.list(items)
    }
}
