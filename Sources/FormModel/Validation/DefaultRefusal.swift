extension Field {
    /// What the field's own rule says of its default when a submission brings it: the first issue,
    /// or nil when the rule takes it (or there is no default, or it is `today` or `now`, read from
    /// the clock per request). Importers refuse a default the form itself would refuse on submit.
    /// - Parameter offered: the options of a choice field (`FormSchema.options(for:)`).
    public func refusalOfDefault(offered: [Option]) -> FieldIssue? {
        guard defaultValue != nil, !defaultsToClock else { return nil }
        // A switch's default off is a value, not a missing one; `required` is no concern here.
        var field = self
        field.required = false
        guard case .issues(let found) = FormValidator.rule(field, RawInput(strings: defaultValues), offered: offered)
        else { return nil }
        return found.first
    }
}
