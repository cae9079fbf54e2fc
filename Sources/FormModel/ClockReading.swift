import Foundation

/// What `default="today"` and `default="now"` mean: the date, and the time to the minute, at one
/// moment in one time zone. The create view fills such defaults from a reading, and the server's
/// check of a read-only field uses the same rule (``Field/initialValues(at:)``).
public struct ClockReading: Sendable, Hashable {
    public var today: LocalDate
    /// The time of day; nil when only the date is known.
    public var time: LocalTime?

    public init(today: LocalDate, time: LocalTime? = nil) {
        self.today = today
        self.time = time
    }

    /// Reads the clock at `now` in `timeZone`.
    public init(now: Date = Date(), timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: now)
        today =
            LocalDate(year: c.year ?? 1970, month: c.month ?? 1, day: c.day ?? 1) ?? LocalDate(
                year: 1970, month: 1, day: 1)!
        time = LocalTime(hour: c.hour ?? 0, minute: c.minute ?? 0)
    }

    /// The reading as a field of `kind` takes it: `YYYY-MM-DD`, `HH:MM` or `YYYY-MM-DDTHH:MM`;
    /// nil for a time when only the date is known.
    public func value(for kind: FieldKind) -> String? {
        switch kind {
        case .time: time.map(Self.minutes)
        case .datetime: time.map { "\(today)T\(Self.minutes($0))" }
        default: today.description
        }
    }

    private static func minutes(_ time: LocalTime) -> String {
        String(format: "%02d:%02d", time.hour, time.minute)
    }
}

extension Field {
    /// Whether the field's default is the clock word `today` or `now` rather than a value.
    public var defaultsToClock: Bool {
        guard kind.isTemporal else { return false }
        let defaults = defaultValues
        return defaults.count == 1 && (defaults[0] == "today" || defaults[0] == "now")
    }

    /// The values a new object of the form starts with for this field: its defaults, with a
    /// temporal field's `today` or `now` read from `clock` in the field's own format (nothing
    /// when there is no reading).
    public func initialValues(at clock: ClockReading?) -> [String] {
        guard defaultsToClock else { return defaultValues }
        return clock?.value(for: kind).map { [$0] } ?? []
    }
}
