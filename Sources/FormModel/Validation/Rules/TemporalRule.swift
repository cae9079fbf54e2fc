/// Dates, times and datetimes: real values within `min` and `max`.
enum TemporalRule {
    static func check(_ field: Field, _ raw: RawInput) -> RuleOutcome {
        guard let text = raw.first?.trimmingWhitespace(), !text.isEmpty else { return .empty }
        let words = FieldWording(field)
        let c = field.constraints
        switch field.kind {
        case .date:
            let precision = field.presentation.datePrecision
            guard let value = precision.map({ $0.date(text) }) ?? LocalDate(text) else {
                switch precision {
                case .month?: return .issue(field, .invalid, "\(words.subject) must be a real month, like 2024-05")
                case .year?: return .issue(field, .invalid, "\(words.subject) must be a year, like 2024")
                case nil: return .issue(field, .invalid, "\(words.subject) must be a real date")
                }
            }
            if let min = c.min.flatMap(LocalDate.init), value < min {
                return .issue(field, .min, "\(words.subject) must be on or after \(HumanText.date(min))")
            }
            if let max = c.max.flatMap(LocalDate.init), value > max {
                return .issue(field, .max, "\(words.subject) must be on or before \(HumanText.date(max))")
            }
            return .value(.date(value))
        case .time:
            guard let value = LocalTime(text) else {
                return .issue(field, .invalid, "\(words.subject) must be a real time")
            }
            if let min = c.min.flatMap(LocalTime.init), value < min {
                return .issue(field, .min, "\(words.subject) must be \(HumanText.time(min)) or later")
            }
            if let max = c.max.flatMap(LocalTime.init), value > max {
                return .issue(field, .max, "\(words.subject) must be \(HumanText.time(max)) or earlier")
            }
            return .value(.time(value))
        default:
            guard let value = LocalDateTime(text) else {
                return .issue(field, .invalid, "\(words.subject) must be a real date and time")
            }
            if let min = c.min.flatMap(LocalDateTime.init), value < min {
                return .issue(field, .min, "\(words.subject) must be on or after \(HumanText.datetime(min))")
            }
            if let max = c.max.flatMap(LocalDateTime.init), value > max {
                return .issue(field, .max, "\(words.subject) must be on or before \(HumanText.datetime(max))")
            }
            return .value(.datetime(value))
        }
    }
}
