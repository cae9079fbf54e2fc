import FormModel
import Foundation

/// Timestamps as people read them on pages ("21 November 2026"), through the model's `HumanText`.
package enum DisplayDate {
    /// A moment as its date in UTC, for "added on" lines.
    package static func text(_ date: Date) -> String {
        let c = utc.dateComponents([.year, .month, .day], from: date)
        guard let value = LocalDate(year: c.year ?? 1970, month: c.month ?? 1, day: c.day ?? 1) else { return "" }
        return HumanText.date(value)
    }

    /// A moment to the minute in UTC, for the admin pages: "22 November 2026, 14:30 UTC".
    package static func timestamp(_ date: Date) -> String {
        let c = utc.dateComponents([.hour, .minute], from: date)
        let two = { (n: Int?) in n.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
        return "\(text(date)), \(two(c.hour)):\(two(c.minute)) UTC"
    }

    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
}
