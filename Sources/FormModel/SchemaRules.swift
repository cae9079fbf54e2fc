import BoundedPatterns
import Foundation

/// The rules that hold for every schema, whichever importer made it (each has a `SchemaIssue.Code`;
/// the schema itself is described in docs/schema.md).
extension FormSchema {
    public static let maxButtons = 3
    public static let maxChips = 8

    /// Whether a text is a valid form id: `[a-z0-9][a-z0-9-]*`.
    public static func isValidID(_ id: String) -> Bool {
        guard let first = id.unicodeScalars.first, isLowerAlnum(first) else { return false }
        return id.unicodeScalars.allSatisfy { isLowerAlnum($0) || $0 == "-" } && id.count <= 100
    }

    /// Whether a text is a valid field name: `[A-Za-z_][A-Za-z0-9_]*`, decided on the bytes (the
    /// OData importer asks it of every property name).
    public static func isValidName(_ name: String) -> Bool {
        var text = name
        return text.withUTF8 { bytes in
            func isLetter(_ byte: UInt8) -> Bool {
                byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")
            }
            guard let first = bytes.first, first == UInt8(ascii: "_") || isLetter(first) else { return false }
            return bytes.allSatisfy {
                $0 == UInt8(ascii: "_") || isLetter($0) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
            }
        }
    }

    private static func isLowerAlnum(_ s: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(s) || s.isASCIIDigitScalar
    }

    /// Every rule the schema breaks, in document order; empty when the schema is sound.
    public func ruleViolations() -> [SchemaIssue] {
        var issues: [SchemaIssue] = []
        func add(_ code: SchemaIssue.Code, _ message: String, _ subject: String? = nil, _ at: SourceLocation? = nil) {
            issues.append(SchemaIssue(code: code, message: message, subject: subject, location: at))
        }

        if !FormSchema.isValidID(id) {
            let shape = FormSchema.isValidID(String(id.prefix(100)))
            add(
                .badID,
                shape
                    ? "The form id \"\(id.prefix(20))…\" is \(id.count) characters long; use at most 100 (it is the form's URL name)."
                    : "The form id \"\(id)\" must be lowercase letters, digits and hyphens, starting with a letter or digit."
            )
        }
        if title.trimmingCharacters(in: .whitespaces).isEmpty {
            add(.emptyTitle, "Give the form a title.")
        }
        var kinds: [SectionKind] = []
        for section in sections {
            if kinds.contains(section.kind) {
                add(.duplicateSection, "The <\(section.kind.rawValue)> section appears twice; keep one.")
            } else if let last = kinds.last,
                SectionKind.allCases.firstIndex(of: last)! > SectionKind.allCases.firstIndex(of: section.kind)!
            {
                add(
                    .sectionOrder,
                    "The <\(section.kind.rawValue)> section must come before <\(last.rawValue)>: sections go key, properties, accessory."
                )
            }
            kinds.append(section.kind)
        }
        if (section(.key)?.groups.flatMap(\.fields) ?? []).isEmpty {
            add(.emptyKey, "The <key> section must hold at least one field.")
        }
        if !topLevelFields.contains(where: \.required) {
            add(.noRequiredField, "At least one field of the form must be required (outside a switch).")
        }

        var listIDs = Set<String>()
        for list in lists {
            if !FormSchema.isValidName(list.id) && !FormSchema.isValidID(list.id) {
                add(
                    .badListID, "The list id \"\(list.id)\" must be letters, digits, hyphens or underscores.", list.id,
                    list.location)
            }
            if !listIDs.insert(list.id).inserted {
                add(
                    .duplicateList, "The list id \"\(list.id)\" is used twice; list ids must be unique.", list.id,
                    list.location)
            }
            if list.options.isEmpty && !list.external {
                add(
                    .emptyList, "The list \"\(list.id)\" has no options; add at least one <option>.", list.id,
                    list.location)
            }
            checkOptionValues(list.options, owner: "list \"\(list.id)\"", subject: list.id, at: list.location, add: add)
        }

        var names = Set<String>()
        for field in allFields {
            checkField(field, names: &names, twice: "is used twice; field names must be unique in a form", add: add)
        }
        for section in sections {
            for list in section.groups.compactMap(\.items) {
                if section.kind != .properties {
                    add(
                        .itemsNotAllowed,
                        "The item list \"\(list.name)\" stands in <\(section.kind.rawValue)>; item lists belong in <properties>.",
                        list.name, list.location)
                }
                if !names.insert(list.name).inserted {
                    add(
                        .duplicateName,
                        "The name \"\(list.name)\" is used twice; field and item list names must be unique in a form.",
                        list.name, list.location)
                }
                checkItemList(list, level: 1, add: add)
            }
        }
        for field in topLevelFields { checkChildren(of: field, add: add) }
        return issues
    }

    private func checkOptionValues(
        _ options: [Option], owner: String, subject: String, at: SourceLocation?,
        add: (SchemaIssue.Code, String, String?, SourceLocation?) -> Void
    ) {
        var seen = Set<String>()
        for option in options {
            if option.value.isEmpty {
                add(
                    .emptyOptionValue, "An option of \(owner) has an empty value; give every option a value.", subject,
                    at)
            } else if !seen.insert(option.value).inserted {
                add(.duplicateOption, "The option value \"\(option.value)\" appears twice in \(owner).", subject, at)
            }
        }
    }

    /// A field's rules where it stands (the form, or an item of a list): its name, unique among
    /// `names` (`twice` ends the message when it is not), its own rules and, when nothing else
    /// is wrong with it, whether the form takes its own default.
    func checkField(
        _ field: Field, names: inout Set<String>, twice: String,
        add: (SchemaIssue.Code, String, String?, SourceLocation?) -> Void
    ) {
        var broken = false
        func note(_ code: SchemaIssue.Code, _ message: String, _ subject: String?, _ at: SourceLocation?) {
            broken = broken || subject == field.name
            add(code, message, subject, at)
        }
        if !FormSchema.isValidName(field.name) {
            note(
                .badName,
                "The field name \"\(field.name)\" must start with a letter or _ and hold only letters, digits and _.",
                field.name, field.location)
        }
        if !names.insert(field.name).inserted {
            note(.duplicateName, "The field name \"\(field.name)\" \(twice).", field.name, field.location)
        }
        checkField(field, add: note)
        if !broken, let d = field.defaultValue, let refusal = field.refusalOfDefault(offered: options(for: field)) {
            let shown = d.count > 40 ? "\(d.prefix(40))…" : d
            add(
                .defaultRefused,
                "The default \"\(shown)\" of \"\(field.name)\" is refused by the field's own rules (\(refusal.message)); give it a default the field accepts.",
                field.name, field.location)
        }
    }

    /// Only a switch holds fields, and never another switch.
    func checkChildren(of field: Field, add: (SchemaIssue.Code, String, String?, SourceLocation?) -> Void) {
        if field.kind != .switch && !(field.children ?? []).isEmpty {
            add(
                .childrenOutsideSwitch, "Only a <switch> can hold fields; move the fields out of \"\(field.name)\".",
                field.name, field.location)
        }
        for child in field.children ?? [] where field.kind == .switch && child.kind == .switch {
            add(
                .nestedSwitch, "A switch cannot hold another switch (\"\(child.name)\" inside \"\(field.name)\").",
                child.name, child.location)
        }
    }

    private func checkField(_ field: Field, add: (SchemaIssue.Code, String, String?, SourceLocation?) -> Void) {
        let at = field.location
        let n = field.name
        let k = field.constraints
        let what = "\"\(n)\""

        // Options.
        if field.kind.hasOptions {
            let inline = field.options ?? []
            let inlineCount = inline.flatMap(\.options).count
            if let listID = field.list {
                if field.kind != .valueList {
                    add(.listNotAllowed, "Only a <value-list> can name a list; give \(what) inline options.", n, at)
                } else if list(id: listID) == nil {
                    add(
                        .unknownList,
                        "The list \"\(listID)\" named by \(what) does not exist; declare it under <lists>.", n, at)
                }
                if inlineCount > 0 {
                    add(
                        .listAndOptions, "\(what) names a list and also has inline options; use one or the other.", n,
                        at)
                }
            } else if inlineCount == 0, !field.takesValueFromParent {
                add(
                    .noOptions,
                    "\(what) has no options; add <option> elements, name a list, or (a value list) make it editable=\"false\" with prefill=\"query\" or a default.",
                    n, at)
            }
            if field.kind != .valueList && inline.contains(where: { $0.label != nil }) {
                add(.groupNotAllowed, "Option groups are for value lists only; remove the <group> from \(what).", n, at)
            }
            if field.kind == .buttons {
                if inlineCount > FormSchema.maxButtons {
                    add(
                        .tooManyButtons,
                        "\(what) has \(inlineCount) buttons; segmented buttons take at most \(FormSchema.maxButtons) options (use chips or a value list).",
                        n, at)
                }
                if k.multiple {
                    add(
                        .buttonsMultiple, "Segmented buttons select exactly one value; remove multiple from \(what).",
                        n, at)
                }
            }
            if field.kind == .chips && inlineCount > FormSchema.maxChips {
                add(
                    .tooManyChips,
                    "\(what) has \(inlineCount) chips; chips take at most \(FormSchema.maxChips) options (use a value list).",
                    n, at)
            }
            checkOptionValues(inline.flatMap(\.options), owner: what, subject: n, at: at, add: add)
            let offered = Set(options(for: field).map(\.value))
            if !offered.isEmpty {
                for value in field.defaultValues where !offered.contains(value) {
                    // Several values are separated by spaces; "a,b" is one value.
                    let several =
                        k.multiple && value.contains(",") ? " (separate several values with spaces, not commas)" : ""
                    add(
                        .unknownDefault,
                        "The default \"\(value)\" of \(what) is not one of its option values\(several).", n, at)
                }
            }
            if !k.multiple && field.defaultValues.count > 1 {
                add(.unknownDefault, "\(what) takes one value but its default lists several.", n, at)
            }
            if (k.minSelected != nil || k.maxSelected != nil) && !k.multiple {
                add(.selectedWithoutMultiple, "min-selected and max-selected need multiple=\"true\" on \(what).", n, at)
            }
            checkRange(k.minSelected, k.maxSelected, "min-selected", "max-selected", n, at, add)
            if let maxSel = k.maxSelected, maxSel < 1 {
                add(.badCount, "max-selected of \(what) must be 1 or more.", n, at)
            }
            if let maxSel = k.maxSelected, !offered.isEmpty, maxSel > offered.count {
                add(
                    .maxSelectedAboveOptions,
                    "max-selected of \(what) is \(maxSel) but it offers only \(offered.count) options.", n, at)
            }
            if let minSel = k.minSelected, !offered.isEmpty, minSel > offered.count {
                add(
                    .minAboveMax, "min-selected of \(what) is \(minSel) but it offers only \(offered.count) options.",
                    n, at)
            }
        }

        // Lengths.
        if let minL = k.minLength, minL < 0 { add(.badLength, "min-length of \(what) must be 0 or more.", n, at) }
        if let maxL = k.maxLength, maxL < 1 { add(.badLength, "max-length of \(what) must be 1 or more.", n, at) }
        checkRange(k.minLength, k.maxLength, "min-length", "max-length", n, at, add)

        if let pattern = k.pattern {
            if pattern.isEmpty {
                add(.badPattern, "The pattern of \(what) is empty; give a regular expression or remove it.", n, at)
            } else if (try? NSRegularExpression(pattern: pattern)) == nil {
                add(.badPattern, "The pattern of \(what) is not a valid regular expression.", n, at)
            } else if let part = BacktrackingCheck.risk(in: pattern) {
                add(
                    .patternBacktracks,
                    "The pattern of \(what) repeats \(part), whose inner part can take the same characters in many ways: "
                        + "a value that almost matches would be tried in every way. Make the inner quantifier possessive "
                        + "(a++), use an atomic group ((?>…)), or end each repetition with a character the inner part "
                        + "cannot match.", n, at)
            }
        }
        if let format = k.format, !format.contains(where: { $0 == "#" || $0 == "A" || $0 == "*" }) {
            add(.badFormat, "The format of \(what) has no # (digit), A (letter) or * (any) placeholder.", n, at)
        }

        // Ranges by kind.
        switch field.kind {
        case .number, .slider:
            let minV = decimal(k.min, "min", field, add)
            let maxV = decimal(k.max, "max", field, add)
            if let minV, let maxV, minV > maxV {
                add(.minAboveMax, "min of \(what) (\(k.min!)) is above its max (\(k.max!)).", n, at)
            }
            if let stepV = decimal(k.step, "step", field, add), stepV <= 0 {
                add(.badStep, "step of \(what) must be above 0.", n, at)
            }
            if field.kind == .slider && (k.min == nil || k.max == nil) {
                add(.sliderRange, "A slider needs both min and max; add them to \(what).", n, at)
            }
            if let scale = k.scale, scale < 0 || scale > 18 {
                add(.badScale, "scale of \(what) must be between 0 and 18.", n, at)
            }
            if let d = field.defaultValue, field.prefill == nil {
                if let v = DecimalText.parse(d) {
                    if let minV, v < minV { add(.defaultOutOfRange, "The default of \(what) is below its min.", n, at) }
                    if let maxV, v > maxV { add(.defaultOutOfRange, "The default of \(what) is above its max.", n, at) }
                } else {
                    add(
                        .badDefault,
                        "The default of \(what) must be \(Self.numberShape(d)) (got \"\(d)\").",
                        n, at)
                }
            }
        case .date:
            checkOrdered(k, field, add, "a date like 2026-11-21", keyword: "today", badBound: .badDate) {
                LocalDate($0)
            }
        case .time:
            // A default may be as ODK tools write it (`22:02:10.562+07:00`); a bound is a time on
            // the clock: no offset, no milliseconds.
            checkOrdered(
                k, field, add, "a time like 14:30", keyword: "now", badBound: .badTime, defaults: LocalTime.init
            ) {
                LocalTime($0).flatMap { $0.offset == nil && $0.millisecond == 0 ? $0 : nil }
            }
        case .datetime:
            checkOrdered(
                k, field, add, "a date and time like 2026-11-21T14:30", keyword: "now", badBound: .badDatetime,
                defaults: LocalDateTime.init
            ) { LocalDateTime($0).flatMap { $0.time.offset == nil && $0.time.millisecond == 0 ? $0 : nil } }
        case .duration:
            checkOrdered(k, field, add, "an ISO 8601 duration like PT15M", keyword: nil, badBound: .badDuration) {
                ISODuration($0)
            }
        case .attachments:
            checkRange(k.minCount, k.maxCount, "min-count", "max-count", n, at, add)
            if let c = k.maxCount, c < 1 { add(.badCount, "max-count of \(what) must be 1 or more.", n, at) }
            if let c = k.minCount, c < 0 { add(.badCount, "min-count of \(what) must be 0 or more.", n, at) }
            for pattern in k.accept ?? [] where !FormSchema.isMIMEPattern(pattern) {
                add(
                    .badAccept, "\"\(pattern)\" in accept of \(what) is not a MIME type such as image/png or image/*.",
                    n, at)
            }
        case .switch:
            if let d = field.defaultValue, d != "true", d != "false", d != "on", d != "off" {
                add(.badDefault, "The default of switch \(what) must be true or false.", n, at)
            }
        default:
            break
        }
        if !field.kind.isNumeric, field.kind != .date, field.kind != .time, field.kind != .datetime,
            field.kind != .duration, k.min != nil || k.max != nil
        {
            add(.attributeNotAllowed, "min and max do not apply to a \(field.kind.rawValue) field (\(what)).", n, at)
        }
        if let d = field.defaultValue, let maxL = k.maxLength, d.count > maxL,
            field.kind == .text || field.kind == .note
        {
            add(.defaultOutOfRange, "The default of \(what) is longer than its max-length.", n, at)
        }
    }

    private func checkRange(
        _ lo: Int?, _ hi: Int?, _ loName: String, _ hiName: String, _ n: String, _ at: SourceLocation?,
        _ add: (SchemaIssue.Code, String, String?, SourceLocation?) -> Void
    ) {
        if let lo, let hi, lo > hi {
            add(.minAboveMax, "\(loName) of \"\(n)\" (\(lo)) is above its \(hiName) (\(hi)).", n, at)
        }
    }

    /// What a number that does not parse must be: shorter, when it is written as one.
    private static func numberShape(_ text: String) -> String {
        DecimalText.isWritten(text)
            ? "a number of \(DecimalText.exactDigits) digits or fewer" : "a number with a . point, like 12.5"
    }

    private func decimal(
        _ text: String?, _ attribute: String, _ field: Field,
        _ add: (SchemaIssue.Code, String, String?, SourceLocation?) -> Void
    ) -> Decimal? {
        guard let text else { return nil }
        guard let value = DecimalText.parse(text) else {
            add(
                .badNumber, "\(attribute) of \"\(field.name)\" must be \(Self.numberShape(text)) (got \"\(text)\").",
                field.name, field.location)
            return nil
        }
        return value
    }

    private func checkOrdered<T: Comparable>(
        _ k: Constraints, _ field: Field, _ add: (SchemaIssue.Code, String, String?, SourceLocation?) -> Void,
        _ expected: String, keyword: String?, badBound: SchemaIssue.Code, defaults: ((String) -> T?)? = nil,
        parse: (String) -> T?
    ) {
        let n = field.name
        var bounds: [T?] = []
        for (attribute, text) in [("min", k.min), ("max", k.max)] {
            guard let text else {
                bounds.append(nil)
                continue
            }
            let value = parse(text)
            if value == nil {
                // "…T14:30Z", "…T14:30+02:00": a zone the form could not keep.
                let zoned =
                    field.kind == .datetime && text.contains("T")
                    && (text.hasSuffix("Z")
                        || text.split(separator: "T").last?.contains(where: { $0 == "+" || $0 == "-" }) == true)
                let fraction = field.kind == .duration && text.contains(where: { $0 == "." || $0 == "," })
                let why =
                    zoned
                    ? "; forms hold local date-times, so leave out the time zone"
                    : fraction ? "; write it in whole units, like PT30M for half an hour" : ""
                add(
                    badBound, "\(attribute) of \"\(n)\" must be \(expected) (got \"\(text)\")\(why).", n,
                    field.location)
            }
            bounds.append(value)
        }
        if let lo = bounds[0], let hi = bounds[1], lo > hi {
            add(.minAboveMax, "min of \"\(n)\" (\(k.min!)) is above its max (\(k.max!)).", n, field.location)
        }
        if let d = field.defaultValue, field.prefill == nil {
            // Dates and date-times take both clock words (a date's "now" is today, a date-time's
            // "today" is now); a time only "now".
            let isKeyword = keyword != nil && (d == "now" || (d == "today" && field.kind != .time))
            if !isKeyword && (defaults.map { $0(d) != nil } ?? (parse(d) != nil)) == false {
                let words = keyword.map { " or \($0)" } ?? ""
                add(
                    .badDefault, "The default of \"\(n)\" must be \(expected)\(words) (got \"\(d)\").", n,
                    field.location)
            }
        }
    }

    /// Whether a text is a MIME type or a `type/*` pattern.
    public static func isMIMEPattern(_ text: String) -> Bool {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, parts[0] != "*" else { return false }
        let token: (Substring) -> Bool = { s in
            s.unicodeScalars.allSatisfy {
                $0.isASCIILetter || $0.isASCIIDigitScalar || "!#$&^_.+-".unicodeScalars.contains($0)
            }
        }
        return token(parts[0]) && (parts[1] == "*" || token(parts[1]))
    }
}

extension Unicode.Scalar {
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
    var isASCIIDigitScalar: Bool { ("0"..."9").contains(self) }
}
