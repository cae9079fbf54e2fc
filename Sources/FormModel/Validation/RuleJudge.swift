import Foundation

/// Rules a form brings beyond its fields' own (an imported ODK XForm's binds: `relevant`,
/// `calculate`, `readonly`, `required`, `constraint`), judged on the server after the fields'
/// rules, for every submission whatever brought it, and for what the page shows (which
/// questions apply to the values typed so far). Built once per form version.
public protocol RuleJudge: Sendable {
    /// Judges the values the fields' rules made of a submission (`checked`: valid values, and
    /// issues of values that do not parse or break a field's own rule): the verdict's result
    /// holds every issue in form order and the values as stored.
    func judge(_ checked: ValidationResult, session: RuleSession) -> RuleVerdict
    /// The values a new form's fields start with beyond their defaults, computed when it is
    /// shown (an XForm's `setvalue` on `odk-instance-first-load`), as its inputs hold them.
    func initialValues(session: RuleSession) -> [String: [String]]
    /// The labels and hints that show values computed from the answers (an XForm's `<output>`),
    /// by field: the page writes each value where it stands, from ``RuleVerdict/outputs``.
    var computedTexts: [String: ComputedText] { get }
    /// The fields whose questions must be answered or not depending on the answers: the page
    /// marks them for the answers given (``RuleVerdict/required``).
    var conditionallyRequired: Set<String> { get }
    /// The fields whose options may depend on the answers (an XForm's itemsets): only theirs
    /// are in ``RuleVerdict/offered``, and a search of any other list needs no verdict.
    var choicesByAnswers: Set<String> { get }
    /// Whether a form shown fresh carries its time (`timestamp start` preload): the create view
    /// seals it, the create reads it back (``RuleSession/started``).
    var recordsStart: Bool { get }
    /// Whether a verdict depends on the answers alone, not on the clock, chance or who asks:
    /// then the same answers may be given the verdict found before (``PreparedForm``).
    var judgesAnswersAlone: Bool { get }
}

extension RuleJudge {
    public var judgesAnswersAlone: Bool { false }
}

/// Who submits, when, and what is replaced: what a form's preloads and clock read.
public struct RuleSession: Sendable {
    /// The clock of `today()`, `now()` and the preloads of the submission's time.
    public var now: Date
    public var timeZone: TimeZone
    /// When the form was shown (sealed by the create view); `now` when unknown.
    public var started: Date?
    /// The name under which a create view seals when it was shown, beside its read-only
    /// fields' values (seconds since 1970): no field can have it.
    public static let startedKey = "@started"
    /// The account's name and email (`property` preloads); nil for a visitor.
    public var username: String?
    public var email: String?
    /// The stored record this submission replaces (an edit): its own id is deprecated by the new one.
    public var previous: String?

    public init(
        now: Date = Date(), timeZone: TimeZone = .current, started: Date? = nil, username: String? = nil,
        email: String? = nil, previous: String? = nil
    ) {
        self.now = now
        self.timeZone = timeZone
        self.started = started
        self.username = username
        self.email = email
        self.previous = previous
    }
}

/// A field's label and hint as text and values computed from the answers, in order; the
/// values are numbered across both (the label's first).
public struct ComputedText: Sendable, Hashable {
    public enum Part: Sendable, Hashable {
        case text(String)
        /// The value at this index of the field's ``RuleVerdict/outputs``.
        case value(Int)
    }

    public var label: [Part]?
    public var hint: [Part]?

    public init(label: [Part]? = nil, hint: [Part]? = nil) {
        self.label = label
        self.hint = hint
    }
}

/// What a form's rules made of a submission.
public struct RuleVerdict: Sendable {
    /// Every issue in form order (the fields' own and the rules'), and the values as stored:
    /// those of fields that apply only, computed and read-only ones the server's own.
    public var result: ValidationResult
    /// The fields that apply to these values, an item's by input name (`members[1].age`), and
    /// the item lists that apply, by path (`members`); the others are hidden, neither judged nor
    /// stored.
    public var relevant: Set<String>
    /// The fields that apply and must be answered for these values.
    public var required: Set<String>
    /// The options the fields whose choices depend on the answers (an XForm's filtered itemset)
    /// offer for these values, by field; the other fields offer all of theirs.
    public var offered: [String: [String]]
    /// The record of truth stored beside the values (an XForm's instance XML), and its id.
    public var record: String?
    public var recordID: String?
    /// Rules that could not be evaluated (kept for the log): each reads as not met.
    public var errors: [String]
    /// The values the fields' labels and hints show (``ComputedText``), by field.
    public var outputs: [String: [String]] = [:]
    /// How many items the lists whose count the rules give (an XForm's `jr:count`) have for
    /// these values, by list path (`members`, `members[0].doses`): the page shows as many.
    public var itemCounts: [String: Int] = [:]

    public init(
        result: ValidationResult, relevant: Set<String>, required: Set<String> = [],
        offered: [String: [String]] = [:], record: String? = nil, recordID: String? = nil, errors: [String] = []
    ) {
        self.result = result
        self.relevant = relevant
        self.required = required
        self.offered = offered
        self.record = record
        self.recordID = recordID
        self.errors = errors
    }
}
