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
    /// The form's fields in form order, and each one's place in it.
    let fields: [Field]
    let order: [String: Int]
    /// Fields whose node has a `timestamp start` preload: the create view seals when it was shown.
    package let recordsStart: Bool
    package var judgesAnswersAlone: Bool { judge.judgesAnswersAlone }
    /// Option label by value, by select node path: `jr:choice-name`'s answers.
    let optionLabels: [String: [String: String]]
    /// Fields whose answers are geo text, by their type (`geopoint`, `geotrace`, `geoshape`).
    let geoTypes: [String: String]
    package let computedTexts: [String: ComputedText]
    package let conditionallyRequired: Set<String>
    package let choicesByAnswers: Set<String>

    /// - Throws: when the stored rules no longer compile (``XFormJudge/init(rules:)``).
    package init(rules: XFormRules, schema: FormSchema) throws {
        judge = try XFormJudge(rules: rules)
        self.rules = rules
        fields = schema.allFields
        var order: [String: Int] = [:]
        for (index, field) in fields.enumerated() { order[field.name] = index }
        self.order = order
        recordsStart = rules.nodes.contains { $0.preload?.preload == "timestamp" && $0.preload?.params == "start" }
        var labels: [String: [String: String]] = [:]
        var geoTypes: [String: String] = [:]
        for node in rules.nodes {
            guard let name = node.field, let field = schema.field(named: name) else { continue }
            if let type = node.type, ["geopoint", "geotrace", "geoshape"].contains(type) { geoTypes[name] = type }
            if field.kind.hasOptions {
                var byValue: [String: String] = [:]
                for option in schema.options(for: field) { byValue[option.value] = option.label }
                labels[node.path] = byValue
            }
        }
        optionLabels = labels
        var texts: [String: ComputedText] = [:]
        for node in rules.nodes {
            guard let name = node.field, node.leftOut == nil else { continue }
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
            rules.nodes.compactMap { node in
                guard let field = node.field, let required = node.bind?.required, required.compiled != nil,
                    !XFormBind.isTrue(required)
                else { return nil }
                return field
            })
        choicesByAnswers = Set(rules.nodes.compactMap { $0.itemset == nil ? nil : $0.field })
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
        // A geo answer that is not one is a type error, and empty for the rules.
        var typeIssues: [FieldIssue] = []
        for (name, type) in geoTypes.sorted(by: { $0.key < $1.key }) {
            guard let text = submitted[name], !text.isEmpty, !XFormGeo.isValid(text, type: type) else { continue }
            submitted[name] = ""
            let label = field(named: name).map(FieldWording.init)?.noun ?? name
            typeIssues.append(
                FieldIssue(field: name, code: .type, message: "Enter \(label) as \(XFormGeo.example(type: type))"))
        }
        let meta = XFormMeta(
            started: session.started, username: session.username, email: session.email, previous: session.previous)
        let verdict = judge.judge(submitted, host: host, meta: meta)
        // The fields' own issues of the fields that apply; `required` is the binds' to decide.
        var issues: [FieldIssue] = []
        var flagged: Set<String> = []
        for issue in checked.issues + typeIssues where issue.code != .required {
            guard issue.field.isEmpty || verdict.relevant.contains(issue.field) else { continue }
            var issue = issue
            if issue.code == .notAnOption, let field = field(named: issue.field) {
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
        issues.sort { (order[$0.field] ?? -1) < (order[$1.field] ?? -1) }
        var values: [String: FieldValue] = [:]
        for field in fields where verdict.relevant.contains(field.name) && !field.presentation.displayOnly {
            let given = checked.values[field.name]
            let judged = verdict.values[field.name]
            // A date of month or year precision is stored as ODK stores it (`2024-05-01`).
            if judged == given.map({ lexical($0, of: field, session: session) }),
                field.presentation.datePrecision == nil
            {
                values[field.name] = given
            } else if let judged {
                // Computed or read-only: the server's value, read back as the field's kind.
                values[field.name] = value(judged, of: field, session: session) ?? given
            }
        }
        var ruled = RuleVerdict(
            result: ValidationResult(values: values, issues: issues), relevant: verdict.relevant,
            required: verdict.required, offered: verdict.offered, record: verdict.instanceXML,
            recordID: verdict.instanceID,
            errors: verdict.errors)
        ruled.outputs = verdict.outputs
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

    /// A field of the form by name, through its place in form order.
    func field(named name: String) -> Field? {
        order[name].map { fields[$0] }
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
        case .time(let time):
            return ODKLexical.time(
                hour: time.hour, minute: time.minute, second: time.second, in: session.timeZone, on: session.now)
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
