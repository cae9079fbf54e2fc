import Foundation

/// The kind of control a field is, one per field element of the native spec.
public enum FieldKind: String, Codable, Sendable, Hashable, CaseIterable {
    case text
    case number
    case note
    case date
    case time
    case datetime
    case duration
    case valueList = "value-list"
    case buttons
    case chips
    case `switch`
    case slider
    case attachments

    /// Whether the field's value is chosen from options.
    public var hasOptions: Bool { self == .valueList || self == .buttons || self == .chips }

    /// Whether `min`/`max` are numbers (as opposed to dates, times or durations).
    public var isNumeric: Bool { self == .number || self == .slider }

    /// Whether `min`/`max`/`default` are points in time.
    public var isTemporal: Bool { self == .date || self == .time || self == .datetime }
}

/// Whether a field may be changed, and when.
public enum Editability: String, Codable, Sendable, Hashable, CaseIterable {
    /// Editable in create and edit mode.
    case yes = "true"
    /// Read-only everywhere; the server keeps the value it gave.
    case no = "false"
    /// Editable in create mode, read-only in edit mode.
    case createOnly = "create-only"
}

/// Where a field's initial value comes from besides `default`.
public enum Prefill: String, Codable, Sendable, Hashable {
    /// The URL query parameter of the field's name.
    case query
}

/// The flavour of a text field: decides validation, `type`, `inputmode` and `autocomplete`.
public enum TextType: String, Codable, Sendable, Hashable, CaseIterable {
    case text
    case email
    case tel
    case url
}

/// One field of a form: its kind, data rules (`constraints`) and presentation hints.
public struct Field: Sendable, Hashable {
    public var name: String
    public var kind: FieldKind
    public var label: String?
    public var placeholder: String?
    /// One line of help under the cell.
    public var hint: String?
    public var required: Bool
    public var editable: Editability
    /// The initial value as written in the spec; dates also take `today`, datetimes `now`.
    /// Several values (a multiple choice) are separated by single spaces.
    public var defaultValue: String?
    public var prefill: Prefill?
    public var constraints: Constraints
    public var presentation: Presentation
    /// The id of a shared option list (value lists only).
    public var list: String?
    /// Inline options, in groups (a group without a label is a plain run of options).
    public var options: [OptionGroup]?
    /// Fields shown, validated and stored only while this switch is on.
    public var children: [Field]?
    /// Where the field was declared; not part of the canonical JSON.
    public var location: SourceLocation?

    @inlinable
    public init(
        name: String, kind: FieldKind, label: String? = nil, placeholder: String? = nil, hint: String? = nil,
        required: Bool = false, editable: Editability = .yes, defaultValue: String? = nil, prefill: Prefill? = nil,
        constraints: Constraints = Constraints(), presentation: Presentation = Presentation(),
        list: String? = nil, options: [OptionGroup]? = nil, children: [Field]? = nil, location: SourceLocation? = nil
    ) {
        self.name = name
        self.kind = kind
        self.label = label
        self.placeholder = placeholder
        self.hint = hint
        self.required = required
        self.editable = editable
        self.defaultValue = defaultValue
        self.prefill = prefill
        self.constraints = constraints
        self.presentation = presentation
        self.list = list
        self.options = options
        self.children = children
        self.location = location
    }

    /// Whether the field takes several values (filter chips, multi-select value lists, attachments).
    public var takesSeveralValues: Bool {
        kind == .attachments || (constraints.multiple && (kind == .valueList || kind == .chips))
    }

    /// The name people read: the label, else the placeholder, else the name in words.
    public var displayName: String {
        if let label, !label.isEmpty { return label }
        if let placeholder, !placeholder.isEmpty { return placeholder }
        return Words.fromIdentifier(name)
    }

    /// The default split into values for a multiple choice.
    public var defaultValues: [String] {
        guard let defaultValue else { return [] }
        return takesSeveralValues ? defaultValue.split(separator: " ").map(String.init) : [defaultValue]
    }
}

/// Data rules of a field. Each one gives both the server check and the matching HTML attribute.
public struct Constraints: Sendable, Hashable {
    /// `<text type>`; nil means plain text.
    public var textType: TextType?
    public var minLength: Int?
    public var maxLength: Int?
    /// A full-match regular expression.
    public var pattern: String?
    /// Grouped characters: `#` a digit, `A` a letter, `*` any character, everything else literal.
    public var format: String?
    /// Lower bound in the kind's lexical form: a decimal number, ISO 8601 date/time, or duration.
    public var min: String?
    public var max: String?
    /// Step between allowed numbers.
    public var step: String?
    /// Digits after the decimal point; 0 means a whole number.
    public var scale: Int?
    /// Several options may be chosen (value lists and chips).
    public var multiple: Bool
    public var minSelected: Int?
    public var maxSelected: Int?
    public var minCount: Int?
    public var maxCount: Int?
    /// Largest file in bytes.
    public var maxSize: Int?
    /// MIME types or `type/*` patterns a file must match.
    public var accept: [String]?
    /// Text is stored upper-cased (OData `sap:display-format="UpperCase"`, `Common.IsUpperCase`).
    public var upperCase: Bool

    @inlinable
    public init(
        textType: TextType? = nil, minLength: Int? = nil, maxLength: Int? = nil, pattern: String? = nil,
        format: String? = nil, min: String? = nil, max: String? = nil, step: String? = nil, scale: Int? = nil,
        multiple: Bool = false, minSelected: Int? = nil, maxSelected: Int? = nil, minCount: Int? = nil,
        maxCount: Int? = nil, maxSize: Int? = nil, accept: [String]? = nil, upperCase: Bool = false
    ) {
        self.textType = textType
        self.minLength = minLength
        self.maxLength = maxLength
        self.pattern = pattern
        self.format = format
        self.min = min
        self.max = max
        self.step = step
        self.scale = scale
        self.multiple = multiple
        self.minSelected = minSelected
        self.maxSelected = maxSelected
        self.minCount = minCount
        self.maxCount = maxCount
        self.maxSize = maxSize
        self.accept = accept
        self.upperCase = upperCase
    }
}

/// How a field looks, apart from its data rules.
public struct Presentation: Sendable, Hashable {
    /// Text shown before the input ("USD"); repeated for screen readers in the label.
    public var prefix: String?
    /// Text shown after the input ("kg").
    public var suffix: String?
    /// Visible lines of a note.
    public var rows: Int?
    /// Whether a value list offers a search field.
    public var searchable: Bool
    /// Text in place of a control: the label (and hint) shown as text, nothing entered, nothing
    /// stored (an XForm's read-only note). Such a field is not editable and takes no value.
    public var displayOnly: Bool
    /// A date field that asks for a month (`2024-05`) or a year (`2024`) only (an XForm's
    /// `month-year` / `year`): stored as that month's or year's first day, as ODK stores it.
    public var datePrecision: DatePrecision?
    /// A text typed without being shown (an XForm's `masked`): a password-style input, and
    /// dots in place of the value on the pages that sum an object up.
    public var masked: Bool
    /// The label as its source formatted it (an XForm's Markdown, ``RichText``); the field's
    /// `label` is its plain text. Nil for a label without marks.
    public var labelFormat: RichText?
    /// The hint as its source formatted it; the field's `hint` is its plain text.
    public var hintFormat: RichText?

    @inlinable
    public init(
        prefix: String? = nil, suffix: String? = nil, rows: Int? = nil, searchable: Bool = false,
        displayOnly: Bool = false, datePrecision: DatePrecision? = nil, masked: Bool = false,
        labelFormat: RichText? = nil, hintFormat: RichText? = nil
    ) {
        self.masked = masked
        self.labelFormat = labelFormat
        self.hintFormat = hintFormat
        self.prefix = prefix
        self.suffix = suffix
        self.rows = rows
        self.searchable = searchable
        self.displayOnly = displayOnly
        self.datePrecision = datePrecision
    }
}

/// What a date field asks for when not a whole date.
public enum DatePrecision: String, Codable, Sendable, Hashable {
    case month
    case year

    /// The date a month (`2024-05`) or year (`2024`) stands for, its first day; a whole date
    /// (`2024-05-17`, as a JSON client may send) counts as its month's or year's first day too.
    public func date(_ text: String) -> LocalDate? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, first.count == 4, let year = Int(first) else { return nil }
        switch self {
        case .year:
            if parts.count == 1 { return LocalDate(year: year, month: 1, day: 1) }
            return LocalDate(text).flatMap { LocalDate(year: $0.year, month: 1, day: 1) }
        case .month:
            if parts.count == 2, parts[1].count == 2, let month = Int(parts[1]) {
                return LocalDate(year: year, month: month, day: 1)
            }
            return LocalDate(text).flatMap { LocalDate(year: $0.year, month: $0.month, day: 1) }
        }
    }

    /// A date as the field's input holds it: `2024-05` or `2024`.
    public func text(_ date: LocalDate) -> String {
        switch self {
        case .month: String(date.description.prefix(7))
        case .year: String(date.description.prefix(4))
        }
    }
}

extension Field {
    /// A value list that is not editable and is given its value, by its parent page's query
    /// (`prefill="query"`) or a `default`: it needs no options, and shows the value it was
    /// given ("task pre-populated from the task screen" in the create pattern).
    public var takesValueFromParent: Bool {
        kind == .valueList && editable == .no && (prefill == .query || defaultValue != nil)
    }
}
