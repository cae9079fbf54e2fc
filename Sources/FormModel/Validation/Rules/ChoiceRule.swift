/// Value lists, buttons and chips: only offered values, one for a single choice, `min-selected`
/// and `max-selected` for several. A field whose list has no options yet accepts any value.
enum ChoiceRule {
    static func check(_ field: Field, _ raw: RawInput, offered: [Option]) -> RuleOutcome {
        let words = FieldWording(field)
        var chosen: [String] = []
        for value in raw.strings.map({ $0.trimmingWhitespace() }) where !value.isEmpty {
            if !chosen.contains(value) { chosen.append(value) }
        }
        if chosen.isEmpty { return .empty }
        let several = field.takesSeveralValues
        if !several && chosen.count > 1 {
            return .issue(field, .tooMany, "Select only one \(words.singular)")
        }
        let values = offered.map(\.value)
        if !values.isEmpty, chosen.contains(where: { !values.contains($0) }) {
            let what = several ? words.plural : words.withArticle
            return .issue(field, .notAnOption, "Select \(what) from the list")
        }
        if values.isEmpty && !several {
            // An open list (options not uploaded yet) takes any text within the field's limits.
            switch TextRule.check(field, RawInput(strings: [chosen[0]])) {
            case .value(.text(let text)): return .value(.choice(text))
            case let other: return other
            }
        }
        guard several else { return .value(.choice(chosen[0])) }
        let c = field.constraints
        if let min = c.minSelected, chosen.count < min {
            return .issue(field, .minSelected, "Select at least \(words.count(min))")
        }
        if let max = c.maxSelected, chosen.count > max {
            return .issue(field, .maxSelected, "Select at most \(words.count(max))")
        }
        // Stored in the order the field offers its options.
        if !values.isEmpty { chosen = values.filter(chosen.contains) }
        return .value(.choices(chosen))
    }
}
