import FormModel
import FormXML
import Foundation

/// Converts between wall-clock values and instants without `DateFormatter`, whose output depends
/// on the process locale and calendar: days from 1970-01-01 by the proleptic Gregorian calendar
/// (Howard Hinnant's algorithm), and a zone's offset from Foundation's `TimeZone` only.
package enum CivilTime {
    /// Seconds since 1970-01-01T00:00:00 of a wall-clock time read as UTC.
    package static func seconds(_ value: LocalDateTime) -> Int64 {
        days(value.date) * 86_400 + Int64(value.time.hour * 3600 + value.time.minute * 60 + value.time.second)
    }

    /// The wall-clock time, read as UTC, of seconds since 1970 (a `/Date(ms)/`).
    package static func dateTime(seconds: Int64) -> LocalDateTime? {
        let day = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rest = Int(seconds - day * 86_400)
        guard let date = date(days: day),
            let time = LocalTime(hour: rest / 3600, minute: rest % 3600 / 60, second: rest % 60)
        else { return nil }
        return LocalDateTime(date: date, time: time)
    }

    /// The zone's offset from UTC, in seconds, at the wall-clock time `value` in that zone.
    package static func offset(of value: LocalDateTime, in zone: TimeZone) -> Int {
        let wall = seconds(value)
        let guess = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(wall)))
        return zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(wall - Int64(guess))))
    }

    /// The wall-clock time in `zone` of an instant.
    package static func dateTime(instant seconds: Int64, in zone: TimeZone) -> LocalDateTime? {
        let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds)))
        return dateTime(seconds: seconds + Int64(offset))
    }

    /// `+01:00`, `-05:30`, or `Z` for UTC.
    package static func offsetText(_ seconds: Int) -> String {
        guard seconds != 0 else { return "Z" }
        let minutes = abs(seconds) / 60
        return (seconds < 0 ? "-" : "+") + two(minutes / 60) + ":" + two(minutes % 60)
    }

    /// Two digits, a zero in front when needed.
    package static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// `2026-11-26T14:30:00`: seconds always, as V2's `datetime'…'` and ISO readers expect.
    package static func isoText(_ value: LocalDateTime) -> String {
        "\(value.date)T\(timeText(value.time))"
    }

    /// `14:30:00`.
    package static func timeText(_ value: LocalTime) -> String {
        two(value.hour) + ":" + two(value.minute) + ":" + two(value.second)
    }

    private static func days(_ date: LocalDate) -> Int64 {
        Int64(CivilDays.days(year: date.year, month: date.month, day: date.day))
    }

    private static func date(days: Int64) -> LocalDate? {
        guard let days = Int(exactly: days) else { return nil }
        let (year, month, day) = CivilDays.date(days: days)
        return LocalDate(year: year, month: month, day: day)
    }
}
