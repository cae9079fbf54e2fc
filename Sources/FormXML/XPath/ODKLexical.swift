import Foundation

/// Dates and times in ODK's lexical forms, as an instance stores them and `today()` / `now()`
/// give them: `2024-05-15`, `2024-05-15T10:30:00.000+03:00`, `10:30:00.000+03:00`. What the
/// server writes into a submission's instance (preloads, the values of date and time fields) and
/// reads back from it (a calculated date shown in a field).
public enum ODKLexical {
    /// A local date and time of day, as a field shows it.
    public struct Local: Sendable, Hashable {
        public var year: Int
        public var month: Int
        public var day: Int
        public var hour: Int
        public var minute: Int
        public var second: Int

        public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
            self.year = year
            self.month = month
            self.day = day
            self.hour = hour
            self.minute = minute
            self.second = second
        }
    }

    /// The date of an instant in `zone`: `2024-05-15`.
    public static func date(at instant: Date, in zone: TimeZone) -> String {
        XPathTemporal.fields(instant: instant.timeIntervalSince1970, in: zone).day.text
    }

    /// An instant as ODK writes a dateTime, in `zone` with its offset.
    public static func dateTime(at instant: Date, in zone: TimeZone) -> String {
        XPathTemporal.fields(instant: instant.timeIntervalSince1970, in: zone).dateTimeText
    }

    /// A local date and time in `zone` as ODK writes a dateTime, with the zone's offset then;
    /// nil for a date that does not exist.
    public static func dateTime(_ local: Local, in zone: TimeZone) -> String? {
        guard let day = XPathTemporal.Day(year: local.year, month: local.month, day: local.day) else { return nil }
        let seconds = Double(day.daysSinceEpoch) * 86_400 + Double(local.hour * 3600 + local.minute * 60 + local.second)
        return XPathTemporal.fields(localSeconds: seconds, offset: XPathTemporal.offset(ofLocal: seconds, in: zone))
            .dateTimeText
    }

    /// A time of day as ODK writes a time, `10:30:00.000+03:00`: with the offset `zone` has on
    /// the day of `on`.
    public static func time(hour: Int, minute: Int, second: Int, in zone: TimeZone, on instant: Date) -> String {
        let offset = zone.secondsFromGMT(for: instant)
        let fields = XPathTemporal.Fields(
            day: XPathTemporal.Day(daysSinceEpoch: 0), milliseconds: (hour * 3600 + minute * 60 + second) * 1000,
            offset: offset)
        let text = fields.dateTimeText
        return String(text[text.index(after: text.firstIndex(of: "T")!)...])
    }

    /// A date, dateTime or time as a field in `zone` shows it: a dateTime moved to the zone, a
    /// time's clock reading as written (its offset dropped), a date at midnight; nil for
    /// anything else. A time gives year 0.
    public static func local(_ text: String, in zone: TimeZone) -> Local? {
        guard let value = XPathTemporal(text) else { return nil }
        if case .time(let seconds, _) = value {
            let whole = Int(seconds.rounded(.down))
            return Local(year: 0, month: 0, day: 0, hour: whole / 3600, minute: whole / 60 % 60, second: whole % 60)
        }
        guard let fields = value.fields(in: zone) else { return nil }
        return Local(
            year: fields.day.year, month: fields.day.month, day: fields.day.day, hour: fields.hour,
            minute: fields.minute, second: fields.second)
    }
}
