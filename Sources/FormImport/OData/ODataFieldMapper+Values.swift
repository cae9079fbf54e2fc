import BoundedPatterns
import FormModel
import Foundation

/// A property's values: decimal ranges, bounds of numbers, dates and times, units, allowed
/// values, accepted media types and defaults.
extension ODataFormMapper {
    /// `Edm.Decimal` with `Precision` p and `Scale` s: at most p − s digits before the point and s
    /// after it. Scale defaults to 0; `variable` or `floating` leaves the decimals open.
    func decimalRange(precision: String?, scale: String?, context: PropertyContext) -> NumericRange {
        let p = precision.flatMap { Int($0) }
        var s: Int? = 0
        if let scale {
            if let value = Int(scale) { s = value } else { s = nil }  // variable, floating
        }
        // A form's scale is 0 to 18 (the rules of every form): a wider or negative one is left out.
        if let scale = s, scale < 0 || scale > 18 {
            dropped(context, "its Scale \(scale) is not one of 0 to 18 decimal places a form checks")
            return NumericRange(min: nil, max: nil, scale: nil)
        }
        guard let p, p > 0 else { return NumericRange(min: nil, max: nil, scale: s) }
        if let scale = s, scale > p {
            dropped(context, "its Scale \(scale) does not fit its Precision \(p)")
            return NumericRange(min: nil, max: nil, scale: nil)
        }
        // A form's number is a Foundation `Decimal`, exact to 38 digits: a wider bound would be
        // rounded, or not a number at all past about 165 digits, so such a range stays open.
        if p > DecimalText.exactDigits {
            dropped(
                context,
                "its Precision \(p) is more than the \(DecimalText.exactDigits) digits a form checks exactly, so its range is not checked"
            )
            return NumericRange(min: nil, max: nil, scale: s)
        }
        let whole = p - (s ?? 0)
        var max = whole > 0 ? String(repeating: "9", count: whole) : "0"
        if let scale = s, scale > 0 { max += "." + String(repeating: "9", count: scale) }
        return NumericRange(min: "-" + max, max: max, scale: s)
    }

    /// `Validation.Minimum` / `Maximum` (with `Validation.Exclusive` nested) narrow the type's range.
    func applyBounds(
        _ range: inout NumericRange, context: PropertyContext, minimum: AnnotationEntry?, maximum: AnnotationEntry?
    ) {
        for (entry, isMinimum) in [(minimum, true), (maximum, false)] {
            guard let entry else { continue }
            guard let text = entry.value.literalText, var bound = DecimalText.parse(text) else {
                dropped(context, "its Validation.\(isMinimum ? "Minimum" : "Maximum") is not a number")
                continue
            }
            if entry.annotations.contains(where: { $0.term == Term.exclusive && $0.value.staticBool == true }) {
                if range.scale == 0 {
                    bound += isMinimum ? 1 : -1
                } else {
                    dropped(
                        context,
                        "its exclusive Validation.\(isMinimum ? "Minimum" : "Maximum") cannot be kept for decimals; the bound is kept inclusive"
                    )
                }
            }
            let current = (isMinimum ? range.min : range.max).flatMap(DecimalText.parse)
            // A bound wider than the type's range would let through values the service refuses.
            if let current, isMinimum ? bound < current : bound > current { continue }
            let written = "\(bound)"
            if isMinimum { range.min = written } else { range.max = written }
        }
        if minimum != nil || maximum != nil, let low = range.min.flatMap(DecimalText.parse),
            let high = range.max.flatMap(DecimalText.parse), low > high
        {
            dropped(context, "its minimum is above its maximum")
            range.min = nil
            range.max = nil
        }
    }

    func applyTemporalBounds(
        _ k: inout Constraints, kind: FieldKind, context: PropertyContext, minimum: AnnotationValue?,
        maximum: AnnotationValue?
    ) {
        func lexical(_ value: AnnotationValue?) -> String? {
            guard let value else { return nil }
            guard var text = value.literalText else { return nil }
            switch kind {
            case .date:
                return LocalDate(text) != nil ? text : nil
            case .datetime:
                // 2026-11-21T14:30:00Z → 2026-11-21T14:30:00 (forms hold local date-times).
                if let zone = text.firstIndex(where: { $0 == "Z" || $0 == "+" }) { text = String(text[..<zone]) }
                if let dot = text.firstIndex(of: ".") { text = String(text[..<dot]) }
                return LocalDateTime(text) != nil ? text : nil
            case .time:
                if let dot = text.firstIndex(of: ".") { text = String(text[..<dot]) }
                return LocalTime(text) != nil ? text : nil
            case .duration:
                return ISODuration(text) != nil ? text : nil
            default:
                return nil
            }
        }
        for (value, isMinimum) in [(minimum, true), (maximum, false)] where value != nil {
            if let text = lexical(value) {
                if isMinimum { k.min = text } else { k.max = text }
            } else {
                dropped(context, "its Validation.\(isMinimum ? "Minimum" : "Maximum") is not a \(kind.rawValue)")
            }
        }
        if let low = k.min, let high = k.max {
            let ordered: Bool =
                switch kind {
                case .date: LocalDate(low).flatMap { a in LocalDate(high).map { a <= $0 } } ?? true
                case .datetime: LocalDateTime(low).flatMap { a in LocalDateTime(high).map { a <= $0 } } ?? true
                case .time: LocalTime(low).flatMap { a in LocalTime(high).map { a <= $0 } } ?? true
                default: ISODuration(low).flatMap { a in ISODuration(high).map { a <= $0 } } ?? true
                }
            if !ordered {
                dropped(context, "its minimum is after its maximum")
                k.min = nil
                k.max = nil
            }
        }
    }

    /// `Measures.ISOCurrency` / `Measures.Unit`: a fixed unit becomes the suffix; a path keeps the
    /// unit property a field of its own, noted in the hint once its label is known.
    func applyUnit(
        _ field: inout Field, _ extras: inout MappedExtras, property: PropertyDecl, annotations: PropertyAnnotations
    ) {
        let currency = annotation(Term.isoCurrency, annotations)
        let unit = currency ?? annotation(Term.unit, annotations)
        if let fixed = unit?.string?.trimmingASCIIWhitespace, !fixed.isEmpty {
            field.presentation.suffix = fixed
        } else if let path = unit?.anyPath, !path.contains(ascii: UInt8(ascii: "/")) {
            extras.unitProperty = path
            extras.unitIsCurrency = currency != nil
        } else if let path = property.sap.unit, !path.contains(ascii: UInt8(ascii: "/")) {
            extras.unitProperty = path
        }
    }

    /// `Validation.AllowedValues`: records with a `Value`, labelled by a nested `Common.Label`,
    /// `Core.Description` or `Core.SymbolicName`.
    func allowedOptions(_ items: [AnnotationValue], context: PropertyContext) -> [Option] {
        var options: [Option] = []
        var seen = Set<String>()
        for item in items {
            let record = item.record
            guard let value = (record?["Value"] ?? item).literalText?.trimmingASCIIWhitespace, !value.isEmpty else {
                dropped(context, "one of its Validation.AllowedValues has no value")
                continue
            }
            guard seen.insert(value).inserted else {
                dropped(context, "the allowed value \"\(value)\" appears twice")
                continue
            }
            let label =
                self.label(record?.annotation(Term.label)?.string) ?? self.label(
                    record?.annotation(Term.description)?.string)
                ?? record?.annotation(Term.symbolicName)?.string.map(Words.fromIdentifier) ?? value
            options.append(Option(value: value, label: label))
        }
        return options
    }

    /// MIME types for `accept`, trimmed and each once; every other value goes to `drop`, with
    /// the reason, for a warning.
    func acceptedTypes(_ types: [String], drop: (String) -> Void) -> [String]? {
        var accepted: [String] = []
        for type in types.map(\.trimmingASCIIWhitespace) where !accepted.contains(type) {
            if FormSchema.isMIMEPattern(type) {
                accepted.append(type)
            } else {
                drop("\"\(type)\" is not a MIME type such as image/png")
            }
        }
        return accepted.isEmpty ? nil : accepted
    }

    /// A `DefaultValue` the field can hold, else nil with a warning.
    func validDefault(_ text: String, for field: Field, context: PropertyContext) -> String? {
        let k = field.constraints
        let fits: Bool
        switch field.kind {
        case .switch:
            fits = text == "true" || text == "false"
        case .number:
            if let value = DecimalText.parse(text) {
                let low = k.min.flatMap(DecimalText.parse)
                let high = k.max.flatMap(DecimalText.parse)
                fits = (low.map { value >= $0 } ?? true) && (high.map { value <= $0 } ?? true)
            } else {
                fits = false
            }
        case .text, .note:
            fits =
                (k.maxLength.map { text.count <= $0 } ?? true)
                && (k.pattern.map { KnownPattern.fullMatch($0, text) } ?? true)
        case .date: fits = LocalDate(text) != nil
        case .time: fits = LocalTime(text) != nil
        case .datetime: fits = LocalDateTime(text) != nil
        case .duration: fits = ISODuration(text) != nil
        case .buttons, .chips, .valueList:
            let offered = (field.options ?? []).flatMap(\.options).map(\.value)
            fits = offered.isEmpty ? !k.multiple : offered.contains(text)
        case .slider, .attachments:
            fits = false
        }
        guard fits else {
            dropped(context, "its DefaultValue \"\(text)\" does not fit the property's type and facets")
            return nil
        }
        // Then the field's own rule, as a submission would meet the default: its message says why.
        var defaulted = field
        defaulted.defaultValue = text
        if let issue = defaulted.refusalOfDefault(offered: (field.options ?? []).flatMap(\.options)) {
            dropped(context, "its DefaultValue \"\(text)\" is refused by the field's own rule (\"\(issue.message)\")")
            return nil
        }
        return text
    }
}
