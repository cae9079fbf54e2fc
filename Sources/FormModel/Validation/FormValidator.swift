/// Validates submissions against a form: a pure function, strings and staged files in,
/// typed values or issues out.
public enum FormValidator {
    /// Checks every field of `schema` (parse, then required, then constraints), reporting all
    /// issues at once in form order.
    public static func validate(
        _ schema: FormSchema, _ submission: Submission, context: ValidationContext = ValidationContext()
    ) -> ValidationResult {
        // Implemented on branch `validation` (issue 3); this declaration fixes the API.
        ValidationResult(values: [:], issues: [FieldIssue(field: "", code: "unavailable", message: "Validation is not merged yet.")])
    }
}
