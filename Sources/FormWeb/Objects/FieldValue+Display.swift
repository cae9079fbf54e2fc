import FormModel
import Foundation

// REMOVE AT MERGE if the validation branch brings the model's own
// `FieldValue.displayText(for:in:)`: the pages call that name, and this internal version with
// the same signature stands in until then.

extension FieldValue {
    /// The value as people read it on the detail page and in lists: option labels instead of
    /// values, dates spelled out, numbers with their prefix, suffix and scale.
    func displayText(for field: Field, in schema: FormSchema) -> String {
        switch self {
        case .text(let text):
            return text
        case .number(let number):
            var text = NumberText.plain(number)
            if let scale = field.constraints.scale, scale > 0 {
                let parts = text.split(separator: ".", maxSplits: 1)
                let fraction = parts.count > 1 ? String(parts[1]) : ""
                if fraction.count < scale {
                    text = "\(parts[0]).\(fraction)\(String(repeating: "0", count: scale - fraction.count))"
                }
            }
            return [field.presentation.prefix, text, field.presentation.suffix].compactMap { $0 }.joined(separator: " ")
        case .bool(let on):
            return on ? "On" : "Off"
        case .date(let date):
            return DisplayDate.text(date)
        case .time(let time):
            return time.description
        case .datetime(let datetime):
            return "\(DisplayDate.text(datetime.date)), \(datetime.time)"
        case .duration(let duration):
            guard let split = DurationValue.split(duration.description) else { return duration.description }
            var parts: [String] = []
            if split.hours > 0 { parts.append(split.hours == 1 ? "1 hour" : "\(split.hours) hours") }
            if split.minutes > 0 || parts.isEmpty { parts.append(split.minutes == 1 ? "1 minute" : "\(split.minutes) minutes") }
            return parts.joined(separator: " ")
        case .choice(let value):
            return Self.label(of: value, field: field, schema: schema)
        case .choices(let values):
            return values.map { Self.label(of: $0, field: field, schema: schema) }.joined(separator: ", ")
        case .files(let files):
            return files.map(\.name).joined(separator: ", ")
        }
    }

    private static func label(of value: String, field: Field, schema: FormSchema) -> String {
        schema.options(for: field).first { $0.value == value }?.label ?? value
    }
}

/// Dates as people write them: "21 November 2026".
enum DisplayDate {
    static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]

    static func text(_ date: LocalDate) -> String {
        "\(date.day) \(months[date.month - 1]) \(date.year)"
    }

    /// A moment as a date in UTC, for "added on" lines.
    static func text(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        guard let value = LocalDate(year: c.year ?? 1970, month: c.month ?? 1, day: c.day ?? 1) else { return "" }
        return text(value)
    }
}
