import Foundation

/// Numbers and sliders: a `.` point, the field's prefix or suffix when typed, scale, min, max and step.
enum NumberRule {
    static func check(_ field: Field, _ raw: RawInput) -> RuleOutcome {
        guard let typed = raw.first?.trimmingWhitespaceAndNewlines(), !typed.isEmpty else {
            return .empty
        }
        let words = FieldWording(field)
        let c = field.constraints
        let text = stripAffixes(typed, field.presentation)
        if DecimalText.isWritten(text), DecimalText.significantDigits(of: text) > DecimalText.exactDigits {
            // More than a Decimal holds: it would be stored as another number, or not parse.
            let digits = DecimalText.exactDigits
            return .issue(
                field, .invalid, "Enter \(words.noun) with \(digits) digits or fewer"
            )
        }
        guard let value = DecimalText.parse(text) else {
            return .issue(field, .invalid, "Enter \(words.noun) as a number, like \(example(scale: c.scale))")
        }
        if let scale = c.scale, significantScale(text) > scale {
            let message =
                scale == 0
                ? "\(words.subject) must be a whole number"
                : "\(words.subject) must have \(Words.count(scale, "decimal place")) or fewer"
            return .issue(field, .scale, message)
        }
        if let min = c.min, let bound = DecimalText.parse(min), value < bound {
            return .issue(field, .min, "\(words.subject) must be \(min) or more")
        }
        if let max = c.max, let bound = DecimalText.parse(max), value > bound {
            return .issue(field, .max, "\(words.subject) must be \(max) or less")
        }
        if let stepText = c.step, let step = DecimalText.parse(stepText), step > 0 {
            let base = c.min.flatMap(DecimalText.parse) ?? 0
            if !isWhole((value - base) / step) {
                let message =
                    base == 0
                    ? "\(words.subject) must be a multiple of \(stepText)"
                    : "\(words.subject) must be \(c.min ?? "0") plus a multiple of \(stepText)"
                return .issue(field, .step, message)
            }
        }
        return .value(.number(value))
    }

    /// "12.50" for scale 2, "12" for scale 0, "12.5" otherwise.
    static func example(scale: Int?) -> String {
        guard let scale else { return "12.5" }
        return scale == 0 ? "12" : "12." + "5" + String(repeating: "0", count: min(scale, 6) - 1)
    }

    /// The text without the field's prefix ("USD 12.50") or suffix ("12 kg", "12kg"), any case.
    static func stripAffixes(_ text: String, _ presentation: Presentation) -> String {
        var body = Substring(text)
        if let prefix = presentation.prefix?.trimmingCharacters(in: .whitespaces), !prefix.isEmpty,
            body.lowercased().hasPrefix(prefix.lowercased())
        {
            body = body.dropFirst(prefix.count).drop(while: \.isWhitespace)
        }
        if let suffix = presentation.suffix?.trimmingCharacters(in: .whitespaces), !suffix.isEmpty,
            body.lowercased().hasSuffix(suffix.lowercased())
        {
            body = body.dropLast(suffix.count)
            while body.last?.isWhitespace == true { body = body.dropLast() }
        }
        return String(body)
    }

    /// Digits after the point, ignoring trailing zeros ("12.500" has scale 1).
    static func significantScale(_ text: String) -> Int {
        guard text.contains(".") else { return 0 }
        var trimmed = Substring(text)
        while trimmed.last == "0" { trimmed = trimmed.dropLast() }
        return DecimalText.scale(of: String(trimmed))
    }

    static func isWhole(_ value: Decimal) -> Bool {
        var input = value
        var rounded = Decimal()
        NSDecimalRound(&rounded, &input, 0, .plain)
        return rounded == value
    }
}
