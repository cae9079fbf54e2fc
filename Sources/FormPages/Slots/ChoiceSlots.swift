import FormModel

/// The slots of choices whose options are not in the plan: a long value list's, which are
/// searched on the server, and on an edit view the stored choices a field no longer offers.
enum ChoiceSlots {
    /// A long value list's chosen values (checked), then the matches of the search asked for
    /// without JavaScript (``RenderState/listSearches``), as radios or checkboxes, and, when a
    /// choice gives other fields their values, the button that takes it and fills them.
    struct LongList: Slot {
        let field: String
        let several: Bool
        let labels: OptionLabels

        func write(_ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer) {
            let chosen = (state.values[field] ?? []).filter { !$0.isEmpty }
            // A list the form's service feeds has no labels in the plan: the request brings them.
            let known = state.choiceLabels[field]
            var options = chosen.map { (value: $0, label: known?[$0] ?? labels.label(of: $0), checked: true) }
            let search = state.listSearches[field]
            for match in search?.matches ?? [] where !chosen.contains(match.value) {
                options.append((match.value, match.label, false))
            }
            for (index, option) in options.enumerated() {
                markup.writeChoice(
                    id: DOMID.listOption(field, index: index + 1), field: field, several: several,
                    value: option.value,
                    checked: option.checked, to: &buffer
                ) { HTML.writeEscaped(option.label, to: &$0) }
            }
            guard let search else { return }
            if search.matches.isEmpty {
                markup.noMatches.write(to: &buffer) { $0 == .query ? search.query : nil }
            } else if search.total > search.matches.count {
                markup.moreMatches.write(to: &buffer) { part in
                    switch part {
                    case .count: String(search.matches.count)
                    case .total: String(search.total)
                    default: nil
                    }
                }
            }
            if !search.gives.isEmpty, !search.matches.isEmpty {
                markup.pick.write(to: &buffer) { part in
                    switch part {
                    case .name: InputName.pick
                    case .value: field
                    case .text: Words.list(search.gives)
                    default: nil
                    }
                }
            }
        }
    }

    /// On an edit view, the object's stored choices that the field no longer offers
    /// (``RenderState/noLongerOffered``), chosen while the submitted values hold them, labelled
    /// so that nobody takes them for current options: `<option>`s of a select, or radios or
    /// checkboxes beside the field's own.
    struct NoLongerOffered: Slot {
        let field: String
        let control: KeptChoiceControl

        func write(_ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer) {
            for (index, value) in (state.noLongerOffered[field] ?? []).enumerated() {
                let chosen = state.values[field]?.contains(value) == true
                let label: (inout PageBuffer) -> Void = { buffer in
                    markup.noLongerOffered.write(to: &buffer) { $0 == .value ? value : nil }
                }
                guard control != .option else {
                    markup.keptOption.write(to: &buffer) { part, buffer in
                        switch part {
                        case .value: HTML.writeEscaped(value, to: &buffer)
                        case .checked: if chosen { markup.selected.write(to: &buffer) }
                        case .text: label(&buffer)
                        default: break
                        }
                    }
                    continue
                }
                markup.writeChoice(
                    id: DOMID.keptOption(field, index: index + 1), field: field, several: control == .checkbox,
                    value: value,
                    checked: chosen, to: &buffer, text: label)
            }
        }
    }
}
