import BoundedPatterns
import Foundation
import Synchronization

/// One form version made ready for its submissions, once: the schema with the rules a create or
/// an edit needs worked out (which fields start with a value, which the user cannot change, the
/// value lists' searches, the choices on offer), so that a request parses and folds nothing.
///
/// The pages pair it with the version's render plan; the create and update use case needs only
/// this.
public struct PreparedForm: Sendable {
    public let schema: FormSchema
    public let version: Int
    public let mode: FormMode
    /// The form's lists revision it was prepared with (its uploaded options).
    public let listsRevision: Int
    /// Where `today` and `now` are read (`FIELDWORK_TIME_ZONE`, else the server's zone).
    public let timeZone: TimeZone
    /// The fields that start with a value (a query prefill or a default), worked out once.
    let initialRules: [InitialValueRule]
    /// Fields the user cannot change in this mode; the server supplies their values.
    public let readOnlyFields: [String]
    /// The read-only fields that hold a value (not the notes shown in place of a question):
    /// those a form's rules compute.
    public let computedFields: [String]
    /// The prepared search of each value list, by field name (an item's by its rule key,
    /// `members[].country`).
    public let optionSearches: [String: OptionSearch]
    /// An edit's choice fields' values, to find an object's choices no longer offered.
    public let offeredChoices: OfferedChoices
    /// The rules the form brings beyond its fields' own (an imported XForm's binds), judged
    /// after them for every submission; nil for a form without.
    public let rules: (any RuleJudge)?
    /// The verdict of a create view's starting answers and those answers, when it depends on them alone
    /// (``RuleJudge/judgesAnswersAlone``, and no time field starts with a value): every
    /// fresh create view asks for the verdict of the same starting answers.
    private let lastVerdict: LastVerdict?
    /// Whether a field starts with the clock's reading (`default="today"` or `"now"`).
    public let startsWithClock: Bool
    /// Whether every fresh create view (no query) read in the same minute starts alike, whoever
    /// asks: the same values, the same verdict of the form's rules, nothing sealed with the time.
    /// Then a version keeps the page it starts as (``FormView``'s start pages) and a request
    /// fills in only its tokens.
    public let startsAlike: Bool
    /// The form's language of its own it is shown in (an XForm's itext language, by the form's
    /// name for it, and its tag when known); nil for its default language.
    public var language: (name: String, tag: String?)?
    /// The languages the form can be shown in, by tag with each one's own name (`Français`),
    /// its default first, and the tag of the one it is shown in: a language switch offers them.
    /// Empty for a form with one language.
    public var languages: [(tag: String, name: String, current: Bool)] = []

    /// - Parameter optionSearches: the searches another preparation of the same version and
    ///   lists revision made (the create view's, for the edit view): a long list is folded once.
    public init(
        schema: FormSchema, version: Int, mode: FormMode, listsRevision: Int = 0, timeZone: TimeZone = .current,
        optionSearches: [String: OptionSearch]? = nil, rules: (any RuleJudge)? = nil
    ) {
        self.schema = schema
        self.rules = rules
        self.version = version
        self.mode = mode
        self.listsRevision = listsRevision
        self.timeZone = timeZone
        self.initialRules = schema.allFields.filter { $0.prefill == .query || $0.defaultValue != nil }
            .map(InitialValueRule.init)
        self.readOnlyFields = schema.allFields.filter(mode.isReadOnly).map(\.name)
        self.computedFields = schema.allFields.filter { mode.isReadOnly($0) && !$0.presentation.displayOnly }.map(
            \.name)
        self.offeredChoices = mode == .edit ? OfferedChoices(schema) : OfferedChoices()
        // A time answer reaches the rules with the zone's offset of the moment (ODK's lexical
        // form): a starting time's verdict may change with daylight saving time.
        let startsWithTime = schema.allFields.contains {
            $0.kind == .time && ($0.prefill == .query || $0.defaultValue != nil)
        }
        self.lastVerdict = rules?.judgesAnswersAlone == true && !startsWithTime ? LastVerdict() : nil
        // An item's field read from the clock counts too: a new form's first items show it.
        self.startsWithClock =
            initialRules.contains(where: \.defaultsToClock)
            || schema.itemLists.contains(where: \.startsWithClock)
        // A form's rules start alike when their verdict is of the answers alone (their
        // first-load values are among the expressions that decides) and no start is recorded.
        self.startsAlike = rules.map { $0.judgesAnswersAlone && !$0.recordsStart && !startsWithTime } ?? true
        if let optionSearches {
            self.optionSearches = optionSearches
        } else {
            var searches: [String: OptionSearch] = [:]
            for field in schema.fields(of: .valueList) {
                searches[field.name] = OptionSearch(schema.optionGroups(for: field))
            }
            // An item's list by its rule key (`members[].country`): the same for every item.
            schema.forEachItemField { field, key in
                if field.kind == .valueList { searches[key] = OptionSearch(schema.optionGroups(for: field)) }
            }
            self.optionSearches = searches
        }
    }

    public var formID: String { schema.id }

    /// What the form's rules make of values typed so far (as the page's inputs name them),
    /// nothing stored: which questions apply, which must be answered, the computed values. Nil
    /// for a form without rules.
    ///
    /// With `keep` (a create view's starting answers), the verdict is kept for the next view
    /// when it depends on the answers alone; answers being typed are not kept, so they never
    /// push the starting answers' verdict out.
    /// - Parameters:
    ///   - itemCounts: how many items each list shows, by path, when the page knows (its new
    ///     items' empty fields are no values).
    ///   - lookedUp: the caller asked ``knownVerdict(for:)`` already and found none.
    public func rulesVerdict(
        for values: [String: [String]], itemCounts: [String: Int] = [:], session: RuleSession, keep: Bool = false,
        lookedUp: Bool = false
    ) -> RuleVerdict? {
        guard let rules else { return nil }
        if !lookedUp, let known = knownVerdict(for: values) { return known }
        var context = ValidationContext(
            mode: mode, serverValues: serverValues(known: values), clock: clock(now: session.now))
        context.requiredByRules = true
        // A verdict of values typed so far, asked while they are typed: its patterns get no more
        // than an event loop's share of work (the submission is judged in full).
        context.patternWork = BoundedRegex.inlineProgressLimit
        // Items' answers come as the page names them (`members[1].age`).
        let sent = Submission(fields: values).gatheringItems(of: schema.itemLists).holding(
            itemCounts, of: schema.itemLists)
        let checked = FormValidator.validate(schema, sent, context: context)
        let verdict = rules.judge(checked, session: session)
        if keep { lastVerdict?.keep(verdict, of: values) }
        return verdict
    }

    /// The verdict of `values` when it is known already (they are the starting answers a create
    /// view kept the verdict of, for a form whose verdict depends on them alone); nil otherwise.
    /// A comparison of answers: worth asking before judging on another thread.
    public func knownVerdict(for values: [String: [String]]) -> RuleVerdict? {
        lastVerdict?.verdict(of: values)
    }

    /// The options a field offers for these answers when the form's rules decide them (an
    /// XForm's filtered itemset): nil when the field offers all of its options.
    public func offeredOptions(of field: String, for values: [String: [String]], session: RuleSession) -> Set<String>? {
        guard rules?.choicesByAnswers.contains(field) == true,
            let offered = rulesVerdict(for: values, session: session)?.offered[field]
        else {
            return nil
        }
        return Set(offered)
    }

    /// The values the rules computed, as the form's inputs hold them: every computed field, with
    /// no value when the rules gave it none. What the page shows and what the rules route sends.
    /// An item's computed fields are under their input names (`members[1].number`).
    public func computedInputs(of verdict: RuleVerdict) -> [String: [String]] {
        let computed = InputStrings.of(verdict.result.values)
        var inputs: [String: [String]] = [:]
        for name in computedFields { inputs[name] = computed[name] ?? [] }
        func items(_ lists: [ItemList], in values: [String: FieldValue], parent: String?) {
            for list in lists {
                guard case .items(let listed)? = values[list.name] else { continue }
                let readOnly = list.fields.filter { mode.isReadOnly($0) && !$0.presentation.displayOnly }
                for (index, item) in listed.enumerated() {
                    let path = ItemList.itemPath(list.name, index, in: parent)
                    for field in readOnly { inputs["\(path).\(field.name)"] = computed["\(path).\(field.name)"] ?? [] }
                    items(list.lists, in: item.values, parent: path)
                }
            }
        }
        if !schema.itemLists.isEmpty { items(schema.itemLists, in: verdict.result.values, parent: nil) }
        return inputs
    }

    /// The values of the read-only fields among `values`, what the create view seals.
    public func readOnlyValues(_ values: [String: [String]]) -> [String: [String]] {
        var sealed: [String: [String]] = [:]
        for name in readOnlyFields {
            if let given = values[name] { sealed[name] = given }
        }
        return sealed
    }

    /// Every read-only field with a server value, empty when `known` has none, so whatever a
    /// browser sent for it is never used.
    public func serverValues(known: [String: [String]]) -> [String: [String]] {
        var values: [String: [String]] = [:]
        for name in readOnlyFields { values[name] = known[name] ?? [] }
        return values
    }

    /// The clock in the form's time zone, for `default="today"` and `default="now"`.
    public func clock(now: Date = Date()) -> ClockReading {
        ClockReading(now: now, timeZone: timeZone)
    }

    /// Today in the form's time zone.
    public func today(now: Date = Date()) -> LocalDate {
        clock(now: now).today
    }

    /// The values a new, empty form starts with: the query for `prefill="query"` fields, else the
    /// defaults, with `today` / `now` read from the clock in the given time zone.
    public func initialValues(
        query: [String: [String]], now: Date = Date(), timeZone: TimeZone? = nil
    )
        -> [String: [String]]
    {
        var clock: ClockReading?
        return initialValues(query: query) { () -> ClockReading in
            // The clock is read once per request, and only when a field needs it.
            if let clock { return clock }
            let reading = ClockReading.reading(at: now, in: timeZone ?? self.timeZone)
            clock = reading
            return reading
        }
    }

    /// The values a fresh create view starts with at `clock` (nil when no field reads it),
    /// with no query: what ``startClock(now:)`` keys a start page by.
    public func startValues(at clock: ClockReading?) -> [String: [String]] {
        initialValues(query: [:]) { clock ?? ClockReading(now: Date(), timeZone: timeZone) }
    }

    /// The clock reading (to the minute) that fresh create views' values read now; nil when no
    /// field starts with it.
    public func startClock(now: Date = Date()) -> ClockReading? {
        startsWithClock ? ClockReading.reading(at: now, in: timeZone) : nil
    }

    private func initialValues(query: [String: [String]], clock: () -> ClockReading) -> [String: [String]] {
        var values: [String: [String]] = [:]
        values.reserveCapacity(initialRules.count)
        for rule in initialRules {
            if rule.prefilledByQuery, let given = query[rule.name]?.filter({ !$0.isEmpty }), !given.isEmpty {
                values[rule.name] = rule.takesSeveralValues ? given : [given[0]]
                continue
            }
            if rule.defaultsToClock {
                values[rule.name] = clock().value(for: rule.kind).map { [$0] } ?? []
            } else if !rule.defaults.isEmpty {
                values[rule.name] = rule.defaults
            }
        }
        return values
    }
}

/// A field that starts with a value: what decides the value, worked out once (a request copies
/// no field).
struct InitialValueRule: Sendable {
    let name: String
    let kind: FieldKind
    let prefilledByQuery: Bool
    let takesSeveralValues: Bool
    /// The defaults, split.
    let defaults: [String]
    /// Whether the default is `today` or `now`, read from the clock.
    let defaultsToClock: Bool

    init(_ field: Field) {
        name = field.name
        kind = field.kind
        prefilledByQuery = field.prefill == .query
        takesSeveralValues = field.takesSeveralValues
        defaults = field.defaultValues
        defaultsToClock = field.defaultsToClock
    }
}

/// The last verdict a prepared form's rules gave, and the answers it was of.
private final class LastVerdict: Sendable {
    private let last = Mutex<(values: [String: [String]], verdict: RuleVerdict)?>(nil)

    func verdict(of values: [String: [String]]) -> RuleVerdict? {
        last.withLock { $0?.values == values ? $0?.verdict : nil }
    }

    func keep(_ verdict: RuleVerdict, of values: [String: [String]]) {
        last.withLock { $0 = (values, verdict) }
    }
}
