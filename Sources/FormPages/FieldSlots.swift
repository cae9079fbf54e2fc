import FormModel
import Mustache

/// The slots of one field as its templates name them: `{{slot.value}}`, `{{slot.error}}`,
/// `{{slot.invalid}}`…, and the control's ids, `{{slot.id}}` and `{{slot.hintID}}`
/// (``DOMID``). A name becomes the slot's sentinel when a template asks for it, from one
/// table (``kinds``); a name the field has no use for (`files` on a text field) is empty, and
/// one no kind has is missing, which the tests of the templates catch.
final class FieldSlots: MustacheParent {
    /// The input's name: the field's, or a control's (`next` on the sign-in page).
    let name: String
    /// What the field's cell knows that decides which slots it has.
    let traits: Traits
    private let registry: SlotRegistry

    /// What decides a field's slots, beside its name.
    struct Traits {
        /// The ids, space-separated, of what always describes the control (hint, count).
        var describedBy = ""
        /// Read-only choices: disabled controls, their values sent in hidden inputs.
        var sendsHiddenValues = false
        /// An attachments field: the files already received are listed.
        var hasFiles = false
        /// On an edit view, how the stored choices the field no longer offers are shown.
        var keptChoices: KeptChoiceControl?
        /// A date asked as a month or a year: its value is shown as one (`2024-05`, `2024`).
        var datePrecision: DatePrecision?
        /// A time (`time`) or a date and time (`datetime`): its input shows the time on the clock.
        var clock: FieldKind?
        /// A long value list: its search box, the query shown, its chosen values and matches.
        var longList: (several: Bool, labels: OptionLabels)?
    }

    init(_ name: String, traits: Traits = Traits(), registry: SlotRegistry) {
        self.name = name
        self.traits = traits
        self.registry = registry
    }

    /// Every slot a field's templates can name, and when the field has it.
    static let kinds: [String: @Sendable (FieldSlots) -> (any Slot)?] = [
        "value": { slots in
            if let clock = slots.traits.clock {
                return InputSlots.ClockValue(field: slots.name, withDate: clock == .datetime)
            }
            return slots.traits.datePrecision.map { InputSlots.DateValue(field: slots.name, precision: $0) }
                ?? InputSlots.Value(field: slots.name)
        },
        "text": { InputSlots.Text(field: $0.name) },
        "switch": { InputSlots.SwitchOn(field: $0.name) },
        "hours": { InputSlots.Duration(field: $0.name, part: .hours) },
        "minutes": { InputSlots.Duration(field: $0.name, part: .minutes) },
        "error": { InputSlots.FieldError(field: $0.name) },
        "invalid": { InputSlots.Invalid(field: $0.name) },
        "describedBy": { InputSlots.DescribedBy(field: $0.name, ids: $0.traits.describedBy) },
        "cell": { InputSlots.CellState(field: $0.name) },
        "applies": { InputSlots.CellHidden(field: $0.name) },
        "hidden": { $0.traits.sendsHiddenValues ? InputSlots.HiddenValues(field: $0.name) : nil },
        "files": { $0.traits.hasFiles ? InputSlots.Files(field: $0.name) : nil },
        "kept": { slots in
            slots.traits.keptChoices.map { ChoiceSlots.NoLongerOffered(field: slots.name, control: $0) }
        },
        "query": { $0.traits.longList == nil ? nil : InputSlots.Value(field: InputName.searchQuery(of: $0.name)) },
        "searched": {
            $0.traits.longList == nil ? nil : InputSlots.Value(field: InputName.searchedQuery(of: $0.name))
        },
        "choices": { slots in
            slots.traits.longList.map {
                ChoiceSlots.LongList(field: slots.name, several: $0.several, labels: $0.labels)
            }
        },
    ]

    func child(named name: String) -> Any? {
        switch name {
        case "id": return DOMID.field(self.name)
        case "hintID": return DOMID.hint(self.name)
        default: break
        }
        guard let kind = Self.kinds[name] else { return nil }
        return kind(self).map { registry.sentinel($0) } ?? ""
    }
}

/// The slots of one option of a choice: `{{slot.checked}}`, `{{slot.selected}}`.
struct OptionSlots: MustacheParent {
    let field: String
    let option: String
    let registry: SlotRegistry

    func child(named name: String) -> Any? {
        switch name {
        case "checked": registry.sentinel(InputSlots.Checked(field: field, option: option))
        case "selected": registry.sentinel(InputSlots.Selected(field: field, option: option))
        case "unoffered": registry.sentinel(InputSlots.Unoffered(field: field, option: option, disables: false))
        case "unofferedOption": registry.sentinel(InputSlots.Unoffered(field: field, option: option, disables: true))
        default: nil
        }
    }
}

/// The slots of a detail page's row: `{{slot.value}}`, `{{slot.hidden}}`.
struct DetailRowSlots: MustacheParent {
    let field: String
    let registry: SlotRegistry

    func child(named name: String) -> Any? {
        switch name {
        case "value": registry.sentinel(DetailSlots.Value(field: field))
        case "hidden": registry.sentinel(DetailSlots.RowHidden(field: field))
        default: nil
        }
    }
}

/// The slots of a detail page's group: `{{slot.hidden}}`.
struct DetailGroupSlots: MustacheParent {
    let fields: [String]
    let registry: SlotRegistry

    func child(named name: String) -> Any? {
        name == "hidden" ? registry.sentinel(DetailSlots.GroupHidden(fields: fields)) : nil
    }
}
