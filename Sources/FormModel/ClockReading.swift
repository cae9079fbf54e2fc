import Foundation
import Synchronization

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

    /// The reading at `now` in `timeZone`, from the last one made when it is in the same minute
    /// (a form whose default is `today` reads the clock on every create view, and the calendar
    /// arithmetic cost more than the rest of the view's values).
    public static func reading(at now: Date = Date(), in timeZone: TimeZone) -> ClockReading {
        let minute = Int64((now.timeIntervalSince1970 / 60).rounded(.down))
        if let last = lastReading.withLock({ $0 }), last.minute == minute, last.timeZone == timeZone {
            return last.reading
        }
        let reading = ClockReading(now: now, timeZone: timeZone)
        lastReading.withLock { $0 = (minute, timeZone, reading) }
        return reading
    }

    private static let lastReading = Mutex<(minute: Int64, timeZone: TimeZone, reading: ClockReading)?>(nil)

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
        Digits.padded(time.hour, 2) + ":" + Digits.padded(time.minute, 2)
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
