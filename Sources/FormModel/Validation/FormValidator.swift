import BoundedPatterns

/// Validates submissions against a form: a pure function, strings and staged files in,
/// typed values or issues out.
public enum FormValidator {
    /// Checks every field of `schema` (parse, then required, then constraints) and every item
    /// of its item lists (``validateItems(_:_:in:parent:context:budget:)``), reporting all
    /// issues at once in form order.
    ///
    /// Fields read-only in this mode take `context.serverValues` (else their default) instead of
    /// what was submitted. Children of a switch are checked and stored only while the switch is
    /// on, as decided from the submitted values. Unknown names are ignored.
    public static func validate(
        _ schema: FormSchema, _ submission: Submission, context: ValidationContext = ValidationContext()
    ) -> ValidationResult {
        var values: [String: FieldValue] = [:]
        var issues: [FieldIssue] = []
        var budget = ItemList.maxItemsInObject
        for section in schema.sections {
            judge(
                section.groups, submission, in: schema, path: nil, context: context, fieldContext: context,
                budget: &budget, values: &values, issues: &issues)
        }
        return ValidationResult(values: values, issues: issues)
    }

    /// ``validate(_:_:context:)`` on a thread that serves other requests (an event loop): each
    /// pattern gets a small share of work there, which no value a person types needs; a
    /// submission with a value that takes more (one made to make a pattern backtrack) is
    /// validated again by `elsewhere`, which runs it on a thread of its own (NIO's blocking pool)
    /// with the whole limit. So a pattern never holds an event loop for more than a moment.
    public static func validateOffLoop(
        _ schema: FormSchema, _ submission: Submission, context: ValidationContext,
        elsewhere: (@escaping @Sendable () -> ValidationResult) async -> ValidationResult?
    ) async -> ValidationResult {
        var inline = context
        inline.patternWork = min(context.patternWork, BoundedRegex.inlineProgressLimit)
        let result = validate(schema, submission, context: inline)
        guard result.issues.contains(where: { $0.code == .patternUnchecked }) else { return result }
        return await elsewhere { validate(schema, submission, context: context) } ?? result
    }

    /// One field: its rule, then `required` when the rule found nothing.
    static func check(
        _ field: Field, in schema: FormSchema, _ submission: Submission, _ context: ValidationContext
    )
        -> RuleOutcome
    {
        let raw = input(for: field, submission, context)
        var offered = field.kind.hasOptions ? schema.options(for: field) : []
        if let kept = context.noLongerOffered[field.name], !offered.isEmpty {
            offered += kept.map { Option(value: $0, label: $0) }
        }
        let outcome = rule(field, raw, offered: offered, patternWork: context.patternWork)
        if outcome == .empty, field.required, !context.requiredByRules {
            let hasOptions = !field.kind.hasOptions || !schema.options(for: field).isEmpty
            return .issue(field, .required, RequiredMessage.text(for: field, hasOptions: hasOptions))
        }
        return outcome
    }

    /// The field's own rule, before `required`; `offered` are the options of a choice field.
    static func rule(
        _ field: Field, _ raw: RawInput, offered: [Option], patternWork: Int = BoundedRegex.progressLimit
    ) -> RuleOutcome {
        switch field.kind {
        case .text, .note: TextRule.check(field, raw, patternWork: patternWork)
        case .number, .slider: NumberRule.check(field, raw)
        case .date, .time, .datetime: TemporalRule.check(field, raw)
        case .duration: DurationRule.check(field, raw)
        case .valueList, .buttons, .chips: ChoiceRule.check(field, raw, offered: offered)
        case .switch: SwitchRule.check(field, raw)
        case .attachments: AttachmentsRule.check(field, raw)
        }
    }

    /// The strings and files to check: the submission's, or the server's for read-only fields.
    static func input(for field: Field, _ submission: Submission, _ context: ValidationContext) -> RawInput {
        guard context.mode.isReadOnly(field) else {
            // Only a duration has hours and minutes inputs (no names made for other fields).
            let duration = field.kind == .duration
            return RawInput(
                strings: submission.fields[field.name] ?? [],
                hours: duration ? submission.first("\(field.name).hours") : nil,
                minutes: duration ? submission.first("\(field.name).minutes") : nil,
                files: field.kind == .attachments ? submission.files[field.name] ?? [] : [])
        }
        let files = context.serverFiles[field.name] ?? []
        if let given = context.serverValues[field.name] { return RawInput(strings: given, files: files) }
        guard context.mode == .create else { return RawInput(files: files) }
        // A read-only field of a new object keeps the value the form was given.
        return RawInput(strings: field.initialValues(at: context.clock), files: files)
    }
}
