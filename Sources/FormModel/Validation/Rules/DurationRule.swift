/// Durations: ISO 8601 under the field's name, or whole hours and minutes under `NAME.hours` and
/// `NAME.minutes`; within `min` and `max`, described in words.
enum DurationRule {
    static func check(_ field: Field, _ raw: RawInput) -> RuleOutcome {
        let words = FieldWording(field)
        let value: ISODuration
        if let text = raw.first?.trimmingWhitespace(), !text.isEmpty {
            guard let parsed = ISODuration(text.uppercased()) else {
                return .issue(field, .invalid, "Enter \(words.noun) in hours and minutes, like PT1H30M")
            }
            value = parsed
        } else {
            let hoursText = raw.hours?.trimmingWhitespace() ?? ""
            let minutesText = raw.minutes?.trimmingWhitespace() ?? ""
            if hoursText.isEmpty && minutesText.isEmpty { return .empty }
            let hours = hoursText.isEmpty ? 0 : Digits.int(Substring(hoursText))
            let minutes = minutesText.isEmpty ? 0 : Digits.int(Substring(minutesText))
            guard let hours, let minutes, hours <= 1_000_000, minutes <= 60_000_000 else {
                return .issue(field, .invalid, "\(words.subject) must be whole hours and minutes")
            }
            if !hoursText.isEmpty && minutes >= 60 {
                return .issue(field, .minutes, "\(words.subject) minutes must be 59 or fewer")
            }
            value = ISODuration(hours: hours + minutes / 60, minutes: minutes % 60)
        }
        if let min = field.constraints.min.flatMap(ISODuration.init), value < min {
            return .issue(field, .min, "\(words.subject) must be at least \(HumanText.duration(min))")
        }
        if let max = field.constraints.max.flatMap(ISODuration.init), value > max {
            return .issue(field, .max, "\(words.subject) must be \(HumanText.duration(max)) or less")
        }
        return .value(.duration(value))
    }
}
