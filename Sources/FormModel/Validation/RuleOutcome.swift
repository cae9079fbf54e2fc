/// What one field's strings or files were, before the validator applies `required`.
struct RawInput: Sendable {
    /// The strings under the field's name (a repeated name gives several).
    var strings: [String] = []
    /// `NAME.hours` and `NAME.minutes`, for durations.
    var hours: String?
    var minutes: String?
    var files: [SubmittedFile] = []

    /// The first string, if any.
    var first: String? { strings.first }
}

/// The result of one rule on one field: nothing given, a typed value, or issues.
enum RuleOutcome: Sendable, Equatable {
    case empty
    case value(FieldValue)
    case issues([FieldIssue])

    /// One issue for `field`.
    static func issue(_ field: Field, _ code: FieldIssue.Code, _ message: String) -> RuleOutcome {
        .issues([FieldIssue(field: field.name, code: code, message: message)])
    }
}
