import FormModel
import Foundation

/// The slots of a form's inputs: the values a request shows in them, and the state of each
/// field's cell (its error, `aria-invalid`, `aria-describedby`).
enum InputSlots {
    /// ` value="…"` for a single-value input.
    struct Value: Slot {
        let field: String

        func write(_ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer) {
            markup.writeValueAttribute(state.firstValue(field), to: &buffer)
        }
    }

    /// A month or year input's value: a stored date (`2024-05-01`) as the input takes it
    /// (`2024-05`, `2024`); what was typed, as typed.
    struct DateValue: Slot {
        let field: String
        let precision: DatePrecision

        func write(_ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer) {
            let value = state.firstValue(field)
            markup.writeValueAttribute(value.flatMap(LocalDate.init).map(precision.text) ?? value, to: &buffer)
        }
    }

    /// ` value="…"` of a time or date-and-time input: the time on the clock (`14:30:15`), as the
    /// input takes it, of a value kept with milliseconds and an offset (`14:30:15.562+07:00`).
    struct ClockValue: Slot {
        let field: String
        let withDate: Bool

        func write(_ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer) {
            let value = state.firstValue(field)
            let clock =
                withDate
                ? value.flatMap(LocalDateTime.init).map(\.wallClock) : value.flatMap(LocalTime.init).map(\.wallClock)
            markup.writeValueAttribute(clock ?? value, to: &buffer)
        }
    }

    /// A textarea's content.
    struct Text: Slot {
        let field: String

        func write(_ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer) {
            guard let text = state.firstValue(field) else { return }
            // The HTML parser drops one newline right after <textarea>; keep a leading one.
            if text.hasPrefix("\n") || text.hasPrefix("\r") { buffer.writeStaticString("\n") }
            HTML.writeEscaped(text, to: &buffer)
        }
    }

    /// ` checked` when the field's values include the option.
    struct Checked: Slot {
        let field: String
        let option: String

        func write(_ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer) {
            if state.values[field]?.contains(option) == true { markup.checked.write(to: &buffer) }
        }
    }

    /// ` selected` when the field's values include the option.
    struct Selected: Slot {
        let field: String
        let option: String

        func write(_ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer) {
            if state.values[field]?.contains(option) == true { markup.selected.write(to: &buffer) }
        }
    }

    /// A value a field's label or hint shows, computed from the answers (an XForm's `<output>`),
    /// which the page's script rewrites (`slots/output`).
    struct Output: Slot {
        let field: String
        let index: Int

        func write(_ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer) {
            markup.output.write(to: &buffer) { part in
                switch part {
                case .name: "\(field).\(index)"
                case .value: state.outputs[field].flatMap { $0.indices.contains(index) ? $0[index] : nil }
                default: nil
                }
            }
        }
    }

    /// The mark after the label of a question whose `required` depends on the answers (an
    /// XForm's `required="/data/consent = 'yes'"`): required now, else optional when the form
    /// marks optional questions.
    struct RequiredNow: Slot {
        let field: String
        let marksOptional: Bool

        func write(_ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer) {
            // In a span of its own (slots/required-now), which the page's script (rules.js) fills
            // as answers change.
            (marksOptional ? markup.requiredNowOptional : markup.requiredNow).write(to: &buffer) { part, buffer in
                guard part == .items else { return }
                if state.required.contains(field) {
                    markup.requiredMark.write(to: &buffer)
                } else if marksOptional {
                    markup.optionalMark.write(to: &buffer)
                }
            }
        }
    }

    /// ` hidden` on an option the field does not offer for the answers (an XForm's filtered
    /// itemset): a checkbox's wrapper, or an `<option>` (which is disabled too, so no key picks it).
    struct Unoffered: Slot {
        let field: String
        let option: String
        let disables: Bool

        func write(_ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer) {
            guard state.unoffered[field]?.contains(option) == true else { return }
            markup.hidden.write(to: &buffer)
            if disables { markup.disabled.write(to: &buffer) }
        }
    }

    /// ` checked` when the switch is on.
    struct SwitchOn: Slot {
        let field: String

        func write(_ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer) {
            if let value = state.firstValue(field), SwitchValue.isOn(value) { markup.checked.write(to: &buffer) }
        }
    }

    /// Hidden inputs carrying a read-only choice's values, since its disabled controls are not sent.
    struct HiddenValues: Slot {
        let field: String

        func write(_ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer) {
            for value in state.values[field] ?? [] where !value.isEmpty {
                markup.writeHiddenInput(name: field, value: value, to: &buffer)
            }
        }
    }

    /// An item's hidden `_id` input (`members[1]._id`): its stable id, empty for a new item. Sent
    /// always, it counts the item even when none of its fields holds anything.
    struct ItemID: Slot {
        let field: String

        func write(_ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer) {
            markup.writeHiddenInput(name: field, value: state.values[field]?.first ?? "", to: &buffer)
        }
    }

    /// ` value="…"` for the hours or minutes part of a duration.
    struct Duration: Slot {
        let field: String
        let part: DurationPart

        func write(_ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer) {
            markup.writeValueAttribute(DurationValue.part(part, of: field, in: state), to: &buffer)
        }
    }

    /// The files already received for an attachments field, listed with the boxes that send them
    /// back, so they are not uploaded twice.
    struct Files: Slot {
        let field: String

        func write(_ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer) {
            FileListMarkup.writeKept(state.files[field] ?? [], field: field, state: state, markup: markup, to: &buffer)
        }
    }

    /// The error message under the cell, or nothing.
    struct FieldError: Slot {
        let field: String

        func write(_ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer) {
            guard let error = state.error(for: field) else { return }
            markup.fieldError.write(to: &buffer) { part, buffer in
                switch part {
                case .errorID: HTML.writeEscaped(DOMID.error(field), to: &buffer)
                case .message: HTML.writeEscaped(error.message, to: &buffer)
                default: break
                }
            }
        }
    }

    /// ` aria-invalid="true"` when the field has an error.
    struct Invalid: Slot {
        let field: String

        func write(_ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer) {
            if state.error(for: field) != nil { markup.invalid.write(to: &buffer) }
        }
    }

    /// ` aria-describedby="…"`: the static ids (hint, count) and, when there is one, the error's.
    struct DescribedBy: Slot {
        let field: String
        /// The ids, space-separated, of what always describes the field; empty when nothing does.
        let ids: String

        func write(_ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer) {
            let hasError = state.error(for: field) != nil
            guard hasError || !ids.isEmpty else { return }
            markup.describedBy.write(to: &buffer) { part, buffer in
                guard part == .ids else { return }
                HTML.writeEscaped(ids, to: &buffer)
                guard hasError else { return }
                if !ids.isEmpty { buffer.writeStaticString(" ") }
                HTML.writeEscaped(DOMID.error(field), to: &buffer)
            }
        }
    }

    /// ` fw-cell--error` on the cell when the field has an error.
    /// ` hidden` on the cell of a field whose question does not apply to the answers.
    struct CellHidden: Slot {
        let field: String

        func write(_ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer) {
            if state.hidden.contains(field) { markup.hidden.write(to: &buffer) }
        }
    }

    /// ` hidden` on a group none of whose fields' questions apply to the answers.
    struct GroupHidden: Slot {
        let fields: [String]

        func write(_ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer) {
            if !state.hidden.isEmpty, fields.allSatisfy(state.hidden.contains) { markup.hidden.write(to: &buffer) }
        }
    }

    struct CellState: Slot {
        let field: String

        func write(_ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer) {
            if state.error(for: field) != nil { markup.cellError.write(to: &buffer) }
        }
    }
}

/// How a switch's submitted or default value reads.
enum SwitchValue {
    static func isOn(_ value: String) -> Bool {
        value == "on" || value == "true"
    }
}

/// A duration's hours and minutes inputs, from their own values or split from the ISO value.
enum DurationValue {
    static func part(_ part: DurationPart, of field: String, in state: RenderState) -> String? {
        if let own = state.values["\(field).\(part.rawValue)"]?.first { return own }
        guard let iso = state.firstValue(field), let split = split(iso) else { return nil }
        return part == .hours ? String(split.hours) : String(split.minutes)
    }

    /// `PT1H30M` → (1, 30); days and weeks count as 24 and 168 hours; seconds are dropped.
    static func split(_ iso: String) -> (hours: Int, minutes: Int)? {
        guard let duration = ISODuration(iso) else { return nil }
        let minutes = NSDecimalNumber(decimal: duration.totalSeconds).intValue / 60
        return (minutes / 60, minutes % 60)
    }
}
