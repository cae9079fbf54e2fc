/// A rule of the form spec that a schema breaks; importers add the line and column.
public struct SchemaIssue: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable identifier of the rule, e.g. `duplicate-name`.
    public var code: Code
    /// What is wrong and what to do, for people.
    public var message: String
    /// The field (or list) the issue is about.
    public var subject: String?
    public var location: SourceLocation?

    public init(code: Code, message: String, subject: String? = nil, location: SourceLocation? = nil) {
        self.code = code
        self.message = message
        self.subject = subject
        self.location = location
    }

    public var description: String {
        (location.map { "\($0): " } ?? "") + message + " [\(code)]"
    }

    /// A stable, machine-readable rule identifier: importers report it as their error's code,
    /// so never renamed. The constants are every rule of `FormSchema.ruleViolations()`.
    public struct Code: ErrorCode {
        public var rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// min or max on a kind of field that has no range.
        public static let attributeNotAllowed = Code("attribute-not-allowed")
        public static let badAccept = Code("bad-accept")
        public static let badCount = Code("bad-count")
        /// A min or max of a date field that is not a date.
        public static let badDate = Code("bad-date")
        /// A min or max of a datetime field that is not a date and time.
        public static let badDatetime = Code("bad-datetime")
        public static let badDefault = Code("bad-default")
        /// A min or max of a duration field that is not an ISO 8601 duration.
        public static let badDuration = Code("bad-duration")
        /// A format without any placeholder (`#`, `A`, `*`).
        public static let badFormat = Code("bad-format")
        public static let badID = Code("bad-id")
        public static let badLength = Code("bad-length")
        public static let badListID = Code("bad-list-id")
        public static let badName = Code("bad-name")
        /// A min, max or step of a number field that is not a number.
        public static let badNumber = Code("bad-number")
        public static let badPattern = Code("bad-pattern")
        /// A pattern that can backtrack catastrophically (``BacktrackingCheck``).
        public static let patternBacktracks = Code("pattern-backtracks")
        public static let badScale = Code("bad-scale")
        public static let badStep = Code("bad-step")
        /// A min or max of a time field that is not a time.
        public static let badTime = Code("bad-time")
        /// Segmented buttons marked `multiple`.
        public static let buttonsMultiple = Code("buttons-multiple")
        /// Fields inside a field that is not a switch.
        public static let childrenOutsideSwitch = Code("children-outside-switch")
        public static let defaultOutOfRange = Code("default-out-of-range")
        /// A default the field's own validation rule refuses (a `javascript:` default of a URL
        /// field, one that misses the pattern), found by submitting it as a browser would.
        public static let defaultRefused = Code("default-refused")
        public static let duplicateList = Code("duplicate-list")
        public static let duplicateName = Code("duplicate-name")
        public static let duplicateOption = Code("duplicate-option")
        public static let duplicateSection = Code("duplicate-section")
        /// A key section without fields.
        public static let emptyKey = Code("empty-key")
        public static let emptyList = Code("empty-list")
        public static let emptyOptionValue = Code("empty-option-value")
        public static let emptyTitle = Code("empty-title")
        /// Option groups on a field that is not a value list.
        public static let groupNotAllowed = Code("group-not-allowed")
        /// A field that names a list and has inline options too.
        public static let listAndOptions = Code("list-and-options")
        /// A list named by a field that is not a value list.
        public static let listNotAllowed = Code("list-not-allowed")
        public static let maxSelectedAboveOptions = Code("max-selected-above-options")
        /// A lower bound above its upper bound (or min-selected above the options offered).
        public static let minAboveMax = Code("min-above-max")
        public static let nestedSwitch = Code("nested-switch")
        public static let noOptions = Code("no-options")
        /// No top-level field is required.
        public static let noRequiredField = Code("no-required-field")
        public static let sectionOrder = Code("section-order")
        /// min-selected or max-selected without `multiple`.
        public static let selectedWithoutMultiple = Code("selected-without-multiple")
        /// A slider without both min and max.
        public static let sliderRange = Code("slider-range")
        public static let tooManyButtons = Code("too-many-buttons")
        public static let tooManyChips = Code("too-many-chips")
        /// A default that is not one of the field's options, or several for a single choice.
        public static let unknownDefault = Code("unknown-default")
        public static let unknownList = Code("unknown-list")
        /// An item list's `min-count`/`max-count` outside 0…500, or min above max.
        public static let badItemCount = Code("bad-item-count")
        /// An item list that holds no field.
        public static let emptyItems = Code("empty-items")
        /// Item lists nested more than three levels deep.
        public static let itemsTooDeep = Code("items-too-deep")
        /// An item list outside `<properties>`.
        public static let itemsNotAllowed = Code("items-not-allowed")
        /// A field inside an item list with `prefill`.
        public static let prefillInItems = Code("prefill-in-items")
    }
}
