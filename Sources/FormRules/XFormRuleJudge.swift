import FormModel
import FormXML
import Foundation

/// An imported XForm's rules as the judge the create and update use case calls after the
/// fields' own rules (``RuleJudge``): the typed values go into the instance in ODK's lexical
/// forms, ``XFormJudge`` evaluates the binds, and its verdict comes back as field issues, the
/// values as stored and the instance XML, the record of truth (`../shared/spec/xforms-mapping.md`,
/// "Evaluation on the server" and "Storage"). Built once per form version.
package final class XFormRuleJudge: RuleJudge {
    package let judge: XFormJudge
    let rules: XFormRules
    /// The form's fields in form order, by name, and each one's place in form order (its item
    /// lists' too).
    let fields: [Field]
    let byName: [String: Field]
    let order: [String: Int]
    /// The form's item lists (its repeats).
    let itemLists: [ItemList]
    let schema: FormSchema
    /// Fields whose node has a `timestamp start` preload: the create view seals when it was shown.
    package let recordsStart: Bool
    package var judgesAnswersAlone: Bool { judge.judgesAnswersAlone }
    /// Option label by value, by select node path: `jr:choice-name`'s answers.
    let optionLabels: [String: [String: String]]
    /// Fields whose answers are geo text, by their type (`geopoint`, `geotrace`, `geoshape`), by
    /// rule key (an item's: `members[].home`).
    let geoTypes: [String: String]
    package let computedTexts: [String: ComputedText]
    package let conditionallyRequired: Set<String>
    package let choicesByAnswers: Set<String>

    /// - Throws: when the stored rules no longer compile (``XFormJudge/init(rules:)``).
    package init(rules: XFormRules, schema: FormSchema) throws {
        var plainLabels: [String: String] = [:]
        for node in rules.nodes {
            guard let field = rules.field(of: node, in: schema), field.presentation.labelFormat != nil,
                let label = field.label
            else { continue }
            plainLabels[node.path] = label
        }
        judge = try XFormJudge(rules: rules, plainLabels: plainLabels)
        self.rules = rules
        fields = schema.allFields
        byName = Dictionary(fields.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var order: [String: Int] = [:]
        for group in schema.sections.flatMap(\.groups) {
            if let list = group.items { order[list.name] = order.count }
            for field in group.fields.flatMap({ [$0] + ($0.children ?? []) }) { order[field.name] = order.count }
        }
        self.order = order
        itemLists = schema.itemLists
        self.schema = schema
        recordsStart = rules.nodes.contains { $0.preload?.preload == "timestamp" && $0.preload?.params == "start" }
        var labels: [String: [String: String]] = [:]
        var geoTypes: [String: String] = [:]
        for node in rules.nodes {
            guard let key = rules.ruleKey(of: node), let field = rules.field(of: node, in: schema) else { continue }
            // By rule key: an item's for every item (`members[].home`).
            if let type = node.type, ["geopoint", "geotrace", "geoshape"].contains(type) { geoTypes[key] = type }
            if field.kind.hasOptions {
                var byValue: [String: String] = [:]
                for option in schema.options(for: field) { byValue[option.value] = option.label }
                labels[node.path] = byValue
            }
        }
        optionLabels = labels
        var texts: [String: ComputedText] = [:]
        // An item's field by its rule key (`members[].age`).
        let key = rules.ruleKey(of:)
        let formNodes = rules.nodes
        for node in formNodes {
            guard let name = key(node), node.leftOut == nil else { continue }
            var index = 0
            func parts(_ text: XFormText?) -> [ComputedText.Part]? {
                guard let segments = text?.segments(in: rules.translations),
                    segments.contains(where: { if case .output = $0 { true } else { false } })
                else {
                    // No output here; the label's still count before the hint's.
                    return nil
                }
                return segments.map { segment in
                    switch segment {
                    case .text(let text): return .text(text)
                    case .output:
                        index += 1
                        return .value(index - 1)
                    }
                }
            }
            let label = parts(node.label)
            let hint = parts(node.hint)
            if label != nil || hint != nil { texts[name] = ComputedText(label: label, hint: hint) }
        }
        computedTexts = texts
        conditionallyRequired = Set(
            formNodes.compactMap { node in
                guard let field = key(node), let required = node.bind?.required, required.compiled != nil,
                    !XFormBind.isTrue(required)
                else { return nil }
                return field
            })
        choicesByAnswers = Set(formNodes.compactMap { $0.itemset == nil ? nil : key($0) })
        self.geoTypes = geoTypes
    }

    package func judge(_ checked: ValidationResult, session: RuleSession) -> RuleVerdict {
        let host = XFormHost(rules: rules, optionLabels: optionLabels, now: session.now, timeZone: session.timeZone)
        // Every field's answer, an empty one too: a default or first-load value the person
        // cleared stays cleared.
        var submitted: [String: String] = [:]
        for field in fields {
            submitted[field.name] = checked.values[field.name].map { lexical($0, of: field, session: session) } ?? ""
        }
        var counts: [String: Int] = [:]
        itemAnswers(
            of: itemLists, in: checked.values, parent: nil, session: session, into: &submitted, counts: &counts)
        // A geo answer that is not one is a type error, and empty for the rules.
        var typeIssues: [FieldIssue] = []
        let geoAnswers =
            geoTypes.isEmpty
            ? [] : submitted.keys.sorted().compactMap { name in geoTypes[ItemList.ruleKey(name)].map { (name, $0) } }
        for (name, type) in geoAnswers {
            guard let text = submitted[name], !text.isEmpty, !XFormGeo.isValid(text, type: type) else { continue }
            submitted[name] = ""
            let label = field(atInput: name).map(FieldWording.init)?.noun ?? name
            typeIssues.append(
                FieldIssue(field: name, code: .type, message: "Enter \(label) as \(XFormGeo.example(type: type))"))
        }
        let meta = XFormMeta(
            started: session.started, username: session.username, email: session.email, previous: session.previous)
        let verdict = judge.judge(submitted, counts: counts, host: host, meta: meta)
        // The fields' own issues of the fields that apply; `required` is the binds' to decide.
        var issues: [FieldIssue] = []
        var flagged: Set<String> = []
        for issue in checked.issues + typeIssues where issue.code != .required {
            guard issue.field.isEmpty || verdict.relevant.contains(issue.field) else { continue }
            var issue = issue
            if issue.code == .notAnOption, let field = field(atInput: issue.field) {
                // The form's options for these answers, in the mapping's words.
                issue.message = XFormWording.choice(field.displayName)
            }
            issue.code = Self.code(issue.code)
            issues.append(issue)
            flagged.insert(issue.field)
        }
        for issue in verdict.issues where !flagged.contains(issue.field) {
            issues.append(FieldIssue(field: issue.field, code: FieldIssue.Code(issue.code), message: issue.message))
            flagged.insert(issue.field)
        }
        let ranks = Dictionary(issues.map { ($0.field, rank(of: $0.field)) }, uniquingKeysWith: { first, _ in first })
        issues.sort { ranks[$0.field, default: []].lexicographicallyPrecedes(ranks[$1.field, default: []]) }
        var values: [String: FieldValue] = [:]
        for field in fields where verdict.relevant.contains(field.name) {
            // Computed or read-only: the server's value, read back as the field's kind.
            let value = judgedValue(
                given: checked.values[field.name], judged: verdict.values[field.name], of: field, session: session)
            if let value { values[field.name] = value }
        }
        judgedItems(
            of: itemLists, given: checked.values, parent: nil, verdict: verdict, session: session, into: &values)
        var ruled = RuleVerdict(
            result: ValidationResult(values: values, issues: issues), relevant: verdict.relevant,
            required: verdict.required, offered: verdict.offered, record: verdict.instanceXML,
            recordID: verdict.instanceID,
            errors: verdict.errors)
        ruled.outputs = verdict.outputs
        ruled.itemCounts = verdict.itemCounts
        return ruled
    }

    package func initialValues(session: RuleSession) -> [String: [String]] {
        let host = XFormHost(rules: rules, optionLabels: optionLabels, now: session.now, timeZone: session.timeZone)
        var values: [String: [String]] = [:]
        for (name, text) in judge.firstLoadValues(host: host) {
            guard let field = field(named: name),
                let value = value(text, of: field, session: session)
            else { continue }
            values[name] = InputStrings.of([name: value])[name]
        }
        return values
    }

    /// A field of the form by name.
    func field(named name: String) -> Field? {
        byName[name]
    }

    /// A field's own rule's code as the XForms mapping names it: a value that does not parse as
    /// its type is `type`, one not among the options `choice`.
    static func code(_ code: FieldIssue.Code) -> FieldIssue.Code {
        switch code {
        case .invalid, .scale: .type
        case .notAnOption: .choice
        default: code
        }
    }

    /// A typed value in ODK's lexical form, as the instance holds it.
    func lexical(_ value: FieldValue, of field: Field, session: RuleSession) -> String {
        switch value {
        case .text(let text): return text
        case .number(let number): return "\(number)"
        case .bool(let on): return field.kind == .switch ? (on ? "OK" : "") : (on ? "true" : "false")
        case .date(let date):
            switch field.presentation.datePrecision {
            case .year: return LocalDate(year: date.year, month: 1, day: 1)?.description ?? date.description
            case .month: return LocalDate(year: date.year, month: date.month, day: 1)?.description ?? date.description
            case nil: return date.description
            }
        // A time sent with its offset (as ODK tools send it) keeps it; a page's, the form's zone.
        case .time(let time) where time.offset != nil:
            return Self.odk(time)
        case .time(let time):
            return ODKLexical.time(
                hour: time.hour, minute: time.minute, second: time.second, in: session.timeZone, on: session.now)
        case .datetime(let local) where local.time.offset != nil:
            return "\(local.date)T\(Self.odk(local.time))"
        case .datetime(let local):
            let parts = ODKLexical.Local(
                year: local.date.year, month: local.date.month, day: local.date.day, hour: local.time.hour,
                minute: local.time.minute, second: local.time.second)
            return ODKLexical.dateTime(parts, in: session.timeZone) ?? local.description
        case .duration(let duration): return duration.description
        case .choice(let choice): return choice
        case .choices(let choices): return choices.joined(separator: " ")
        case .files(let files): return files.map(\.name).joined(separator: " ")
        // A field's node holds text; a repeat's items are nodes of their own, never one text.
        case .items: return ""
        }
    }

    /// A time with its offset as ODK writes it: seconds and milliseconds always (`22:02:10.562+07:00`).
    static func odk(_ time: LocalTime) -> String {
        var text = "\(time.wallClock.count == 5 ? time.wallClock + ":00" : time.wallClock)."
        text += String(1000 + time.millisecond).dropFirst()
        return text + (time.offset.map { LocalTime.zone($0) } ?? "")
    }

    /// A value the instance holds, as the field's kind; nil when it reads as none.
    func value(_ text: String, of field: Field, session: RuleSession) -> FieldValue? {
        switch field.kind {
        case .text, .note: return .text(text)
        case .number, .slider:
            return Decimal(string: text.trimmingCharacters(in: .whitespaces)).map(FieldValue.number)
        case .date:
            return ODKLexical.local(text, in: session.timeZone).flatMap {
                LocalDate(year: $0.year, month: $0.month, day: $0.day)
            }.map(FieldValue.date)
        case .time:
            return ODKLexical.local(text, in: session.timeZone).flatMap {
                LocalTime(hour: $0.hour, minute: $0.minute, second: $0.second)
            }.map(FieldValue.time)
        case .datetime:
            guard let local = ODKLexical.local(text, in: session.timeZone),
                let date = LocalDate(year: local.year, month: local.month, day: local.day),
                let time = LocalTime(hour: local.hour, minute: local.minute, second: local.second)
            else { return nil }
            return .datetime(LocalDateTime(date: date, time: time))
        case .duration: return ISODuration(text).map(FieldValue.duration)
        case .switch: return .bool(text == "OK" || text == "true" || text == "1")
        case .valueList, .buttons, .chips:
            return field.constraints.multiple == true
                ? .choices(text.split(separator: " ").map(String.init)) : .choice(text)
        case .attachments: return nil
        }
    }
}
