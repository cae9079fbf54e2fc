/// Switches: on when `on`, `true`, `1` or `yes` was sent (browsers send `on`, API clients `true`), else off.
enum SwitchRule {
    static func check(_ field: Field, _ raw: RawInput) -> RuleOutcome {
        let on = raw.strings.contains {
            ["on", "true", "1", "yes"].contains($0.trimmingWhitespace().lowercased())
        }
        if field.required && !on { return .issue(field, .required, RequiredMessage.text(for: field)) }
        return .value(.bool(on))
    }
}
