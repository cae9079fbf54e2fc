/// Values as people read them on detail and list pages.
extension FieldValue {
    /// The value for people: "21 November 2026", "USD 12.50", "Bug, UI and 3 more", "On", "3 files".
    public func displayText(for field: Field, in schema: FormSchema) -> String {
        switch self.conformed(to: field) ?? self {
        case .text where field.presentation.masked:
            // Typed without being shown: not echoed where the object is summed up.
            return "••••••"
        case .text(let s):
            if let format = field.constraints.format { return GroupedFormat(format).regroup(s) }
            return s
        case .number(let n):
            let number = HumanText.number(n, scale: field.constraints.scale)
            let prefix = field.presentation.prefix.map { "\($0) " } ?? ""
            let suffix = field.presentation.suffix.map { " \($0)" } ?? ""
            return prefix + number + suffix
        case .bool(let on): return on ? "On" : "Off"
        case .date(let d):
            switch field.presentation.datePrecision {
            case .month?: return HumanText.month(d)
            case .year?: return String(d.year)
            case nil: return HumanText.date(d)
            }
        case .time(let t): return HumanText.time(t)
        case .datetime(let dt): return HumanText.datetime(dt)
        case .duration(let d): return HumanText.duration(d)
        case .choice(let value): return label(of: value, field, schema)
        case .choices(let values): return HumanText.summary(values.map { label(of: $0, field, schema) })
        case .files(let files):
            return files.count == 1 ? files[0].name : "\(files.count) files"
        case .items(let items):
            // A field holds no items; a list's own wording is ``displayText(for:)`` of its list.
            return Words.count(items.count, "item")
        }
    }

    /// An item list's value in a line: "2 members", "No members".
    public func displayText(for list: ItemList) -> String {
        guard case .items(let items) = self, !items.isEmpty else { return "No \(list.pluralNoun)" }
        return Words.count(items.count, list.noun, plural: list.pluralNoun)
    }

    /// Each value for people, for pages that list them all: option labels, or file names;
    /// a single value gives one item, its `displayText`.
    public func displayItems(for field: Field, in schema: FormSchema) -> [String] {
        switch self.conformed(to: field) ?? self {
        case .choices(let values): return values.map { label(of: $0, field, schema) }
        case .files(let files): return files.map(\.name)
        default: return [displayText(for: field, in: schema)]
        }
    }

    private func label(of value: String, _ field: Field, _ schema: FormSchema) -> String {
        schema.options(for: field).first { $0.value == value }?.label ?? value
    }
}
