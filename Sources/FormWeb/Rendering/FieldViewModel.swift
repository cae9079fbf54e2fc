import FormModel

/// The Mustache context of one field cell: a dictionary, so swift-mustache never falls back to `Mirror`.
///
/// Every field dictionary carries every key the templates read. Mustache looks a missing key up
/// in the enclosing contexts, so a switch's child without a hint would otherwise show the
/// switch's hint.
struct FieldViewModel {
    let schema: FormSchema
    let marking: RequiredMarking
    let registry: SlotRegistry
    var mode: FormMode = .create

    func context(for field: Field, inKeySection: Bool) -> [String: Any] {
        let name = HTML.clean(field.name)
        let id = "field-\(name)"
        let hint = field.hint.map(HTML.clean).flatMap { $0.isEmpty ? nil : $0 }
        let visibleLabel = field.label.map(HTML.clean).flatMap { $0.isEmpty ? nil : $0 }
        let readonly = mode.isReadOnly(field)
        let fieldset = Self.usesFieldset(field)
        let countLabel = Self.countLabel(field)

        var describedIDs: [String] = []
        if hint != nil { describedIDs.append("\(id)-hint") }
        if countLabel != nil { describedIDs.append("\(id)-count") }

        var srSuffix: [String] = []
        if let prefix = field.presentation.prefix.map(HTML.clean), !prefix.isEmpty { srSuffix.append("in \(prefix)") }
        if let suffix = field.presentation.suffix.map(HTML.clean), !suffix.isEmpty { srSuffix.append("in \(suffix)") }

        let marker = marking.marker(for: field)
        // A value list whose options are not uploaded yet takes any text: a plain text input.
        let openList = isOpenList(field)
        let children = (field.children ?? []).map { context(for: $0, inKeySection: false) }

        return [
            "name": name,
            "id": id,
            "kind": field.kind.rawValue,
            "partial": "fields/\(field.kind.rawValue)",
            // Key information usually has only a placeholder; its label is then for screen readers only.
            "label": HTML.clean(visibleLabel ?? field.displayName),
            "labelHidden": visibleLabel == nil,
            "srSuffix": srSuffix,
            "required": marker == .required,
            "optional": marker == .optional,
            "hint": hint.map { [$0] } ?? [],
            "hintID": "\(id)-hint",
            "fieldset": fieldset,
            "readonly": readonly && (!Self.isChoice(field.kind) || openList),
            // Radios, checkboxes, selects, switches and ranges have no read-only state: they are
            // disabled and the values travel in hidden inputs instead.
            "disabled": readonly && Self.isChoice(field.kind) && !openList,
            "openList": openList,
            "multiple": field.takesSeveralValues,
            "inputType": field.constraints.multiple ? "checkbox" : "radio",
            "attrs": attributes(for: field),
            "prefix": field.presentation.prefix.map { [HTML.clean($0)] } ?? [],
            "suffix": field.presentation.suffix.map { [HTML.clean($0)] } ?? [],
            "rows": String(field.presentation.rows ?? 3),
            "countLabel": countLabel.map { [$0] } ?? [],
            "optionGroups": optionGroups(for: field, id: id, name: name),
            "options": optionGroups(for: field, id: id, name: name).flatMap { $0["options"] as! [[String: Any]] },
            "children": children,
            "sValue": registry.sentinel(.value(field: name)),
            "sText": registry.sentinel(.text(field: name)),
            "sSwitch": registry.sentinel(.switchOn(field: name)),
            "sHours": registry.sentinel(.durationPart(field: name, part: .hours)),
            "sMinutes": registry.sentinel(.durationPart(field: name, part: .minutes)),
            "sHidden": readonly && Self.isChoice(field.kind) && !openList ? registry.sentinel(.hiddenValues(field: name)) : "",
            "sError": registry.sentinel(.fieldError(field: name)),
            "sInvalid": registry.sentinel(.invalid(field: name)),
            "sDescribedBy": registry.sentinel(.describedBy(field: name, ids: describedIDs)),
            "sCell": registry.sentinel(.cellState(field: name)),
            "sFiles": field.kind == .attachments ? registry.sentinel(.files(field: name)) : "",
        ]
    }

    /// A single-choice value list without options yet (an OData value list before its options
    /// are uploaded): shown as a text input, and the server takes any text within its limits.
    func isOpenList(_ field: Field) -> Bool {
        field.kind == .valueList && !field.takesSeveralValues && schema.options(for: field).isEmpty
    }

    /// Kinds whose controls are several inputs get a fieldset and legend instead of a label.
    static func usesFieldset(_ field: Field) -> Bool {
        switch field.kind {
        case .duration, .buttons, .chips: true
        case .valueList: field.constraints.multiple
        case .text, .number, .note, .date, .time, .datetime, .switch, .slider, .attachments: false
        }
    }

    /// Kinds whose controls cannot be `readonly`.
    static func isChoice(_ kind: FieldKind) -> Bool {
        switch kind {
        case .valueList, .buttons, .chips, .switch, .slider, .attachments: true
        case .text, .number, .note, .date, .time, .datetime, .duration: false
        }
    }

    /// "Up to 5 files, 10 MB each" for attachments with limits.
    static func countLabel(_ field: Field) -> String? {
        guard field.kind == .attachments else { return nil }
        let count = field.constraints.maxCount
        let size = field.constraints.maxSize.map(ByteSize.describe)
        switch (count, size) {
        case let (count?, size?): return "Up to \(Words.count(count, "file")), \(size) each"
        case let (count?, nil): return "Up to \(Words.count(count, "file"))"
        case let (nil, size?): return "Files up to \(size) each"
        case (nil, nil): return nil
        }
    }

    /// The main control's attributes, in a fixed order so the HTML is deterministic.
    /// Each constraint gives the matching attribute; the server checks the same rules again.
    func attributes(for field: Field) -> [[String: String]] {
        var attrs: [(String, String)] = []
        let c = field.constraints
        let placeholder = field.placeholder.map(HTML.clean).flatMap { $0.isEmpty ? nil : $0 }
        switch field.kind {
        case .text:
            switch c.textType ?? .text {
            case .text: attrs.append(("type", "text"))
            case .email: attrs += [("type", "email"), ("autocomplete", "email"), ("spellcheck", "false")]
            case .tel: attrs += [("type", "tel"), ("inputmode", "tel"), ("autocomplete", "tel")]
            case .url: attrs += [("type", "url"), ("inputmode", "url"), ("autocomplete", "url"), ("spellcheck", "false")]
            }
            if let format = c.format.map(HTML.clean) {
                attrs.append(("placeholder", placeholder ?? format))
            } else if let placeholder {
                attrs.append(("placeholder", placeholder))
            }
            if let minLength = c.minLength { attrs.append(("minlength", String(minLength))) }
            if let maxLength = c.maxLength { attrs.append(("maxlength", String(maxLength))) }
            if let pattern = c.pattern { attrs.append(("pattern", HTML.clean(pattern))) }
            if let format = c.format { attrs.append(("data-format", HTML.clean(format))) }
        case .number:
            let inputmode = c.scale == 0 ? "numeric" : "decimal"
            let hasAffix = field.presentation.prefix != nil || field.presentation.suffix != nil
            if hasAffix {
                // A text input lets the affixes sit beside it and keeps browsers from rejecting
                // "12.50" against a step; the server checks the bounds.
                attrs += [("type", "text"), ("inputmode", inputmode)]
            } else {
                attrs += [("type", "number"), ("inputmode", inputmode)]
                if let min = c.min { attrs.append(("min", min)) }
                if let max = c.max { attrs.append(("max", max)) }
                attrs.append(("step", c.step ?? Self.step(forScale: c.scale)))
            }
            if let placeholder { attrs.append(("placeholder", placeholder)) }
        case .note:
            if let placeholder { attrs.append(("placeholder", placeholder)) }
            if let minLength = c.minLength { attrs.append(("minlength", String(minLength))) }
            if let maxLength = c.maxLength { attrs.append(("maxlength", String(maxLength))) }
        case .date, .time, .datetime:
            let type = field.kind == .datetime ? "datetime-local" : field.kind.rawValue
            attrs.append(("type", type))
            if let min = c.min { attrs.append(("min", Self.htmlTemporal(min, kind: field.kind))) }
            if let max = c.max { attrs.append(("max", Self.htmlTemporal(max, kind: field.kind))) }
        case .slider:
            if let min = c.min { attrs.append(("min", min)) }
            if let max = c.max { attrs.append(("max", max)) }
            attrs.append(("step", c.step ?? "1"))
        case .valueList where isOpenList(field):
            attrs += [("type", "text"), ("autocomplete", "off")]
            if let placeholder { attrs.append(("placeholder", placeholder)) }
            if let maxLength = c.maxLength { attrs.append(("maxlength", String(maxLength))) }
        case .valueList:
            if field.presentation.searchable { attrs.append(("data-searchable", "true")) }
        case .attachments:
            if let accept = c.accept, !accept.isEmpty {
                attrs.append(("accept", accept.map(HTML.clean).joined(separator: ",")))
            }
            if let maxCount = c.maxCount { attrs.append(("data-max-count", String(maxCount))) }
            if let maxSize = c.maxSize { attrs.append(("data-max-size", String(maxSize))) }
        case .duration, .buttons, .chips, .switch:
            break
        }
        return attrs.map { ["n": $0.0, "v": HTML.clean($0.1)] }
    }

    /// `0.01` for scale 2, `1` for scale 0, `any` when the scale is open.
    static func step(forScale scale: Int?) -> String {
        guard let scale else { return "any" }
        if scale <= 0 { return "1" }
        return "0." + String(repeating: "0", count: scale - 1) + "1"
    }

    /// Browsers want `YYYY-MM-DDTHH:MM` for datetime-local and `HH:MM` for time; `today`/`now`
    /// bounds are not fixed at plan time, so they are left to the server.
    static func htmlTemporal(_ value: String, kind: FieldKind) -> String {
        switch kind {
        case .datetime: value.count > 16 && value.hasSuffix(":00") ? String(value.prefix(16)) : value
        default: value
        }
    }

    func optionGroups(for field: Field, id: String, name: String) -> [[String: Any]] {
        guard field.kind.hasOptions else { return [] }
        var index = 0
        return schema.optionGroups(for: field).map { group in
            let label = group.label.map(HTML.clean).flatMap { $0.isEmpty ? nil : $0 }
            let options: [[String: Any]] = group.options.map { option in
                let value = HTML.clean(option.value)
                // The first option takes the field's id, so "#field-<name>" links land on a control.
                let optionID = index == 0 ? id : "\(id)-\(index)"
                index += 1
                return [
                    "optionID": optionID,
                    "optionValue": value,
                    "optionLabel": HTML.clean(option.label),
                    "sChecked": registry.sentinel(.checked(field: name, option: value)),
                    "sSelected": registry.sentinel(.selected(field: name, option: value)),
                ]
            }
            return [
                "hasGroupLabel": label != nil,
                "groupLabelText": label ?? "",
                "options": options,
            ]
        }
    }
}
