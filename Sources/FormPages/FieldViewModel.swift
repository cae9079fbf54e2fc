import FormModel

/// The template context of one field cell (`partials/field`, then `fields/<kind>`).
///
/// Every cell carries every name the templates read: Mustache looks a missing name up in the
/// enclosing contexts, so a switch's child without a hint would otherwise show the switch's hint.
/// A class, unlike the other contexts: swift-mustache holds contexts as `Any`, and a struct this
/// size would be copied in and out of its box at each of the dozens of lookups per cell.
final class FieldViewModel: KeyPathContext {
    let name: PageText
    let id: PageText
    let kind: String
    /// The kind's partial, `fields/<kind>`.
    let partial: String
    let label: PageText
    /// The label as the cell shows it: with the values it computes from the answers in place
    /// (slots), where `label` (for attributes) shows them as the import did.
    let shownLabel: PageText
    let labelHidden: Bool
    /// The label as its source formatted it (``RichTextMarkup``), HTML made from escaped runs;
    /// empty for a plain label or one whose words are computed from the answers.
    let labelMarkup: [String]
    /// The shown label when it has no markup: one of the two is given.
    let labelText: [PageText]
    /// The hint as its source formatted it, likewise.
    let hintMarkup: [String]
    /// The hint when it has no markup.
    let hintText: [PageText]
    let srSuffix: [PageText]
    let required: Bool
    let optional: Bool
    let hint: [PageText]
    let hintID: PageText
    /// The id of an attachments field's "Up to 5 files" line.
    let countID: PageText
    /// The ids of a long list's title, a duration's minutes and a slider's range (``DOMID``).
    let listTitleID: PageText
    let minutesID: PageText
    let rangeID: PageText
    let fieldset: Bool
    let readonly: Bool
    let disabled: Bool
    let openList: Bool
    let multiple: Bool
    /// A value list too long to send whole: a search box, the chosen values and the matches of
    /// a search (``Slot/longList(field:several:labels:)``), searched on the server.
    let longList: Bool
    /// The long list's search box name (`NAME._q`) and where its script searches.
    let searchName: PageText
    let optionsURL: PageText
    /// A long list the form's service feeds: choosing one of its rows may fill other fields
    /// (`data-remote` loads the script that does).
    let remote: Bool
    /// The hidden `NAME._searched`: the query whose matches are shown (``InputName/searchedQuery(of:)``).
    let searchedName: PageText
    /// The title of the long list's options (``FormSchema/listTitle(for:)``), when its list has one.
    let listTitle: [PageText]
    let inputType: String
    let attrs: [Attribute]
    let prefix: [PageText]
    let suffix: [PageText]
    let rows: String
    let countLabel: [String]
    let optionGroups: [OptionGroupCell]
    let options: [OptionCell]
    /// Segmented buttons whose labels are too long to share a phone's row in equal parts: each
    /// segment takes its label's width, and one that does not fit moves to a row of its own.
    let segmentsWrap: Bool
    let children: [FieldViewModel]
    /// The field's per-request holes, by the names its templates use (``FieldSlots``).
    let slot: FieldSlots
    /// A text shown in place of a question (an XForm's note): its label and hint, no control.
    let displayOnly: Bool
    /// The mark of a question required depending on the answers (a slot), when it is one.
    let requiredNow: [String]
    /// The field's name on its cell (`data-field`), for a form whose rules show and hide cells.
    let cellName: [PageText]

    static let templateKeys: [String: PartialKeyPath<FieldViewModel> & Sendable] = [
        "name": \.name, "id": \.id, "kind": \.kind, "partial": \.partial, "label": \.label, "shownLabel": \.shownLabel,
        "labelHidden": \.labelHidden, "labelMarkup": \.labelMarkup, "hintMarkup": \.hintMarkup,
        "labelText": \.labelText, "hintText": \.hintText,
        "srSuffix": \.srSuffix, "required": \.required, "optional": \.optional,
        "hint": \.hint, "hintID": \.hintID, "countID": \.countID, "fieldset": \.fieldset, "readonly": \.readonly,
        "disabled": \.disabled,
        "openList": \.openList, "multiple": \.multiple, "inputType": \.inputType, "attrs": \.attrs,
        "prefix": \.prefix, "suffix": \.suffix, "rows": \.rows, "countLabel": \.countLabel,
        "optionGroups": \.optionGroups, "options": \.options, "segmentsWrap": \.segmentsWrap, "children": \.children,
        "slot": \.slot, "longList": \.longList, "searchName": \.searchName, "optionsURL": \.optionsURL,
        "remote": \.remote, "displayOnly": \.displayOnly, "requiredNow": \.requiredNow, "cellName": \.cellName,
        "searchedName": \.searchedName, "listTitle": \.listTitle, "listTitleID": \.listTitleID,
        "minutesID": \.minutesID, "rangeID": \.rangeID,
    ]

    /// Equal segments fit a 390 px phone while the longest label times the number of segments
    /// is at most about 27 characters (three of "Unassigned" do not fit).
    static func segmentsWrap(labels: [String]) -> Bool {
        (labels.map(\.count).max() ?? 0) * labels.count > 27
    }

    /// An attribute of the main control: `{{n}}="{{v}}"`.
    struct Attribute: KeyPathContext {
        let n: String
        let v: PageText

        static let templateKeys: [String: PartialKeyPath<Attribute> & Sendable] = [
            "n": \.n, "v": \.v,
        ]
    }

    /// A group of a choice's options, labelled or not.
    struct OptionGroupCell: KeyPathContext {
        let hasGroupLabel: Bool
        let groupLabelText: PageText
        let options: [OptionCell]

        static let templateKeys: [String: PartialKeyPath<OptionGroupCell> & Sendable] = [
            "hasGroupLabel": \.hasGroupLabel, "groupLabelText": \.groupLabelText, "options": \.options,
        ]
    }

    /// One option of a choice, with the slots that check or select it.
    struct OptionCell: KeyPathContext {
        let optionID: PageText
        let optionValue: PageText
        let optionLabel: PageText
        let slot: OptionSlots

        static let templateKeys: [String: PartialKeyPath<OptionCell> & Sendable] = [
            "optionID": \.optionID, "optionValue": \.optionValue, "optionLabel": \.optionLabel, "slot": \.slot,
        ]
    }

    /// What the cells of one form share while they are built.
    struct Builder {
        let schema: FormSchema
        let marking: RequiredMarking
        let registry: SlotRegistry
        let mode: FormMode
        /// Whether the form has rules that show and hide its questions (cells name their field).
        let hasRules: Bool
        /// The labels and hints that show values computed from the answers, by field.
        let computedTexts: [String: ComputedText]
        /// The fields whose `required` depends on the answers.
        let conditionallyRequired: Set<String>
        /// The fields whose options depend on the answers through the form's rules (an XForm's
        /// filtered itemsets).
        let choicesByAnswers: Set<String>

        init(schema: FormSchema, registry: SlotRegistry, mode: FormMode = .create, rules: (any RuleJudge)? = nil) {
            self.schema = schema
            marking = schema.requiredMarking
            self.registry = registry
            self.mode = mode
            hasRules = rules != nil
            computedTexts = rules?.computedTexts ?? [:]
            conditionallyRequired = rules?.conditionallyRequired ?? []
            choicesByAnswers = rules?.choicesByAnswers ?? []
        }

        /// A label or hint as text and slots for its computed values; nil for none.
        func text(_ parts: [ComputedText.Part]?, field: String) -> PageText? {
            guard let parts else { return nil }
            var text: PageText = ""
            for part in parts {
                switch part {
                case .text(let literal): text = "\(text)\(literal)"
                case .value(let index):
                    text = "\(text)\(slot: registry.sentinel(InputSlots.Output(field: field, index: index)))"
                }
            }
            return text
        }

        /// The cell of a field, with its children's.
        func cell(for field: Field) -> FieldViewModel {
            FieldViewModel(field, builder: self)
        }
    }

    private init(_ field: Field, builder: Builder) {
        let registry = builder.registry
        let name = PageText(field.name)
        let id = PageText(DOMID.field(field.name))
        let computed = builder.computedTexts[ItemList.ruleKey(field.name)]
        let hint = builder.text(computed?.hint, field: field.name) ?? PageText.nonEmpty(field.hint)
        let visibleLabel = PageText.nonEmpty(field.label)
        let readonly = builder.mode.isReadOnly(field)
        let countLabel = Self.countLabelText(field)

        var describedIDs: [String] = []
        let hintID = PageText(DOMID.hint(field.name))
        let countID = PageText(DOMID.count(field.name))
        if hint != nil { describedIDs.append(hintID.text) }
        if countLabel != nil { describedIDs.append(countID.text) }

        var srSuffix: [PageText] = []
        if let prefix = PageText.nonEmpty(field.presentation.prefix) { srSuffix.append("in \(prefix)") }
        if let suffix = PageText.nonEmpty(field.presentation.suffix) { srSuffix.append("in \(suffix)") }

        let marker = builder.marking.marker(for: field)
        // A value list whose options are not uploaded yet takes any text: a plain text input.
        let openList = builder.isOpenList(field)
        // Radios, checkboxes, selects, switches and ranges have no read-only state: they are
        // disabled and the values travel in hidden inputs instead.
        let disabled = readonly && Self.isChoice(field.kind) && !openList
        let longList = builder.schema.isLongList(field)
        // A long list sends no options with the page: its chosen values and matches are slots.
        let optionGroups = longList ? [] : builder.optionGroups(for: field, name: name)

        self.name = name
        self.id = id
        displayOnly = field.presentation.displayOnly
        cellName = builder.hasRules ? [name] : []
        kind = field.kind.rawValue
        partial = longList ? "fields/value-list-long" : "fields/\(field.kind.rawValue)"
        // Key information usually has only a placeholder; its label is then for screen readers only.
        label = visibleLabel ?? PageText(field.displayName)
        shownLabel = builder.text(computed?.label, field: field.name) ?? label
        labelHidden = visibleLabel == nil
        labelMarkup =
            visibleLabel == nil || computed?.label != nil
            ? [] : field.presentation.labelFormat.map { [RichTextMarkup.html($0)] } ?? []
        hintMarkup =
            computed?.hint != nil ? [] : field.presentation.hintFormat.map { [RichTextMarkup.html($0)] } ?? []
        labelText = labelMarkup.isEmpty ? [shownLabel] : []
        hintText = hintMarkup.isEmpty ? hint.map { [$0] } ?? [] : []
        self.srSuffix = srSuffix
        // A question required depending on the answers is marked for the answers given (a slot).
        let conditional = builder.conditionallyRequired.contains(ItemList.ruleKey(field.name))
        required = marker == .required && !conditional
        optional = marker == .optional && !conditional
        requiredNow =
            conditional
            ? [
                registry.sentinel(
                    InputSlots.RequiredNow(field: field.name, marksOptional: builder.marking.marksOptional))
            ]
            : []
        self.hint = hint.map { [$0] } ?? []
        self.hintID = hintID
        self.countID = countID
        listTitleID = PageText(DOMID.listTitle(field.name))
        minutesID = PageText(DOMID.minutes(field.name))
        rangeID = PageText(DOMID.range(field.name))
        fieldset = Self.usesFieldset(field) && !longList
        self.readonly = readonly && (!Self.isChoice(field.kind) || openList)
        self.disabled = disabled
        self.openList = openList
        multiple = field.takesSeveralValues
        self.longList = longList
        self.searchName = PageText(InputName.searchQuery(of: field.name))
        optionsURL = "/api/forms/\(builder.schema.id)/fields/\(name)/options"
        remote = longList && field.list.flatMap { builder.schema.list(id: $0)?.remote } == true
        searchedName = PageText(InputName.searchedQuery(of: field.name))
        listTitle = longList ? PageText.nonEmpty(builder.schema.listTitle(for: field)).map { [$0] } ?? [] : []
        inputType = field.constraints.multiple ? "checkbox" : "radio"
        attrs = builder.attributes(for: field) + (longList ? builder.listFilterAttribute(for: field) : [])
        prefix = field.presentation.prefix.map { [PageText($0)] } ?? []
        suffix = field.presentation.suffix.map { [PageText($0)] } ?? []
        rows = String(field.presentation.rows ?? 3)
        self.countLabel = countLabel.map { [$0] } ?? []
        self.optionGroups = optionGroups
        options = optionGroups.flatMap(\.options)
        segmentsWrap = field.kind == .buttons && Self.segmentsWrap(labels: options.map(\.optionLabel.text))
        children = (field.children ?? []).map(builder.cell(for:))
        var traits = FieldSlots.Traits()
        traits.describedBy = describedIDs.joined(separator: " ")
        traits.sendsHiddenValues = disabled
        traits.hasFiles = field.kind == .attachments
        if field.kind == .date { traits.datePrecision = field.presentation.datePrecision }
        if field.kind == .time || field.kind == .datetime { traits.clock = field.kind }
        if longList {
            traits.longList = (field.takesSeveralValues, OptionLabels(builder.schema.optionGroups(for: field)))
        }
        // A long list shows its chosen values whatever they are; a read-only choice sends them hidden.
        if builder.mode == .edit, field.kind.hasOptions, !longList, !openList, !disabled {
            traits.keptChoices = field.takesSeveralValues ? .checkbox : field.kind == .valueList ? .option : .radio
        }
        slot = FieldSlots(name.text, traits: traits, registry: registry)
    }
}

extension FieldViewModel {
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
    static func countLabelText(_ field: Field) -> String? {
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
}

extension FieldViewModel.Builder {
    /// A single-choice value list without options yet (an OData value list before its options
    /// are uploaded): shown as a text input, and the server takes any text within its limits.
    func isOpenList(_ field: Field) -> Bool {
        // A list the form's service feeds is searched, never typed into freely.
        field.kind == .valueList && !field.takesSeveralValues && schema.options(for: field).isEmpty
            && !schema.isLongList(field)
    }

    /// Which answers a long list's search sends with it (`data-filtered-by`, read by
    /// drill-down.js): those of the fields that narrow its options (a service value help's `In`
    /// parameters), every answer (`*`) for a list the form's rules filter (an XForm's itemset),
    /// none for any other, so that answers are not written into addresses (and proxies' logs)
    /// that do not need them.
    func listFilterAttribute(for field: Field) -> [FieldViewModel.Attribute] {
        if choicesByAnswers.contains(ItemList.ruleKey(field.name)) {
            return [FieldViewModel.Attribute(n: "data-filtered-by", v: "*")]
        }
        // An item's field is keyed by its rule key; the fields narrowing it are its item's.
        let key = ItemList.ruleKey(field.name)
        guard let names = schema.listFilters[key], !names.isEmpty else { return [] }
        let item =
            key == field.name ? "" : String(field.name[...(field.name.lastIndex(of: ".") ?? field.name.startIndex)])
        return [
            FieldViewModel.Attribute(
                n: "data-filtered-by", v: PageText(names.sorted().map { item + $0 }.joined(separator: " ")))
        ]
    }

    /// The main control's attributes, in a fixed order so the HTML is deterministic.
    /// Each constraint gives the matching attribute; the server checks the same rules again.
    func attributes(for field: Field) -> [FieldViewModel.Attribute] {
        var attrs: [(String, String)] = []
        let c = field.constraints
        let placeholder = PageText.nonEmpty(field.placeholder)?.text
        switch field.kind {
        case .text:
            switch c.textType ?? .text {
            case .text where field.presentation.masked:
                attrs += [("type", "password"), ("autocomplete", "off")]
            case .text: attrs.append(("type", "text"))
            case .email: attrs += [("type", "email"), ("autocomplete", "email"), ("spellcheck", "false")]
            case .tel: attrs += [("type", "tel"), ("inputmode", "tel"), ("autocomplete", "tel")]
            case .url:
                attrs += [("type", "url"), ("inputmode", "url"), ("autocomplete", "url"), ("spellcheck", "false")]
            }
            if let format = c.format {
                attrs.append(("placeholder", placeholder ?? format))
            } else if let placeholder {
                attrs.append(("placeholder", placeholder))
            }
            if let minLength = c.minLength { attrs.append(("minlength", String(minLength))) }
            if let maxLength = c.maxLength { attrs.append(("maxlength", String(maxLength))) }
            if let pattern = c.pattern { attrs.append(("pattern", pattern)) }
            if let format = c.format { attrs.append(("data-format", format)) }
            // A Clear button while it holds text (clear-button.js).
            if !mode.isReadOnly(field) { attrs.append(("data-clear", "true")) }
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
                attrs.append(("step", c.step ?? FieldViewModel.step(forScale: c.scale)))
            }
            if let placeholder { attrs.append(("placeholder", placeholder)) }
        case .note:
            if let placeholder { attrs.append(("placeholder", placeholder)) }
            if let minLength = c.minLength { attrs.append(("minlength", String(minLength))) }
            if let maxLength = c.maxLength { attrs.append(("maxlength", String(maxLength))) }
        case .date where field.presentation.datePrecision == .year:
            // A year: four digits (no browser has a year picker).
            attrs += [("type", "number"), ("inputmode", "numeric"), ("min", "1"), ("max", "9999"), ("step", "1")]
        case .date, .time, .datetime:
            let type =
                field.kind == .datetime
                ? "datetime-local" : field.presentation.datePrecision == .month ? "month" : field.kind.rawValue
            attrs.append(("type", type))
            if let min = c.min { attrs.append(("min", FieldViewModel.htmlTemporal(min, kind: field.kind))) }
            if let max = c.max { attrs.append(("max", FieldViewModel.htmlTemporal(max, kind: field.kind))) }
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
            // The drill-down list screen (drill-down.js) replaces the control with JavaScript on.
            attrs.append(("data-drilldown", "true"))
            // The drill-down screen's heading, when the list has a title (else the field's label).
            if let title = PageText.nonEmpty(schema.listTitle(for: field)) { attrs.append(("data-title", title.text)) }
        case .attachments:
            if let accept = c.accept, !accept.isEmpty {
                attrs.append(("accept", accept.map { PageText($0).text }.joined(separator: ",")))
            }
            if let maxCount = c.maxCount { attrs.append(("data-max-count", String(maxCount))) }
            if let maxSize = c.maxSize { attrs.append(("data-max-size", String(maxSize))) }
        case .duration, .buttons, .chips, .switch:
            break
        }
        return attrs.map { FieldViewModel.Attribute(n: $0.0, v: PageText($0.1)) }
    }

    /// A choice's options in their groups; the first option takes the field's id.
    func optionGroups(for field: Field, name: PageText) -> [FieldViewModel.OptionGroupCell] {
        guard field.kind.hasOptions else { return [] }
        var index = 0
        return schema.optionGroups(for: field).map { group in
            let label = PageText.nonEmpty(group.label)
            let options = group.options.map { option in
                let value = PageText(option.value)
                // The first option takes the field's id, so the error summary's links land on a control.
                let optionID = PageText(DOMID.option(field.name, index: index))
                index += 1
                return FieldViewModel.OptionCell(
                    optionID: optionID, optionValue: value, optionLabel: PageText(option.label),
                    slot: OptionSlots(field: name.text, option: value.text, registry: registry))
            }
            return FieldViewModel.OptionGroupCell(
                hasGroupLabel: label != nil, groupLabelText: label ?? "", options: options)
        }
    }
}
