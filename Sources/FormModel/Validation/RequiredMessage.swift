/// What to do when a required field is empty: "Enter a title", "Select a project", "Turn on Remind me".
public enum RequiredMessage {
    /// The `required` message for a field, by kind. A single value list without options (an open
    /// list, shown as a text input until its options are uploaded) asks to enter a value.
    public static func text(for field: Field, hasOptions: Bool = true) -> String {
        let words = FieldWording(field)
        if field.kind == .valueList && !hasOptions && !field.takesSeveralValues {
            return "Enter \(words.withArticle)"
        }
        switch field.kind {
        case .text, .note, .number, .slider, .date, .time, .datetime, .duration:
            return "Enter \(words.withArticle)"
        case .valueList, .buttons, .chips:
            if field.takesSeveralValues {
                let min = max(field.constraints.minSelected ?? 1, 1)
                return min == 1 ? "Select at least one \(words.singular)" : "Select at least \(words.count(min))"
            }
            return "Select \(words.withArticle)"
        case .switch:
            return "Turn on \(words.subject)"
        case .attachments:
            let min = max(field.constraints.minCount ?? 1, 1)
            return min == 1 ? "Select a file" : "Select at least \(min) files"
        }
    }
}
