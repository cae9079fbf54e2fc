import FormModel
import Foundation

/// Timestamps as people read them on pages ("21 November 2026"), through the model's `HumanText`.
package enum DisplayDate {
    /// A moment as its date in UTC, for "added on" lines.
    package static func text(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        guard let value = LocalDate(year: c.year ?? 1970, month: c.month ?? 1, day: c.day ?? 1) else { return "" }
        return HumanText.date(value)
    }
}
