import Foundation

// The canonical JSON form schema (docs/schema.md). Fields are flat objects: constraints and
// presentation hints sit beside the name and kind, absent values are left out, and `location`
// (where a spec declared the field) is never part of it.

extension FormSchema: Codable {
    enum CodingKeys: String, CodingKey {
        case format, id, title, object, submit, regular, sections, lists
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if let format = try c.decodeIfPresent(String.self, forKey: .format), format != FormSchema.format {
            throw DecodingError.dataCorruptedError(
                forKey: .format, in: c, debugDescription: "Unknown format \(format); expected \(FormSchema.format)")
        }
        self.init(
            id: try c.decode(String.self, forKey: .id),
            title: try c.decode(String.self, forKey: .title),
            object: try c.decodeIfPresent(String.self, forKey: .object),
            submit: try c.decodeIfPresent(String.self, forKey: .submit) ?? "Create",
            regular: try c.decodeIfPresent(RegularPresentation.self, forKey: .regular) ?? .formSheet,
            sections: try c.decodeIfPresent([FormSection].self, forKey: .sections) ?? [],
            lists: try c.decodeIfPresent([OptionList].self, forKey: .lists) ?? []
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(FormSchema.format, forKey: .format)
        try c.encode(id, forKey: .id)
        try c.encode(title, forKey: .title)
        try c.encodeIfPresent(object, forKey: .object)
        try c.encode(submit, forKey: .submit)
        try c.encode(regular, forKey: .regular)
        try c.encode(sections, forKey: .sections)
        if !lists.isEmpty { try c.encode(lists, forKey: .lists) }
    }

    /// The canonical JSON text: sorted keys, so equal schemas give equal bytes.
    public func canonicalJSON(pretty: Bool = false) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Reads a schema from canonical JSON.
    public static func fromCanonicalJSON(_ data: Data) throws -> FormSchema {
        try JSONDecoder().decode(FormSchema.self, from: data)
    }
}

extension Field: Codable {
    enum CodingKeys: String, CodingKey {
        case name, kind, label, placeholder, hint, required, editable
        case defaultValue = "default"
        case prefill
        case textType = "type"
        case minLength, maxLength, pattern, format, min, max, step, scale, multiple
        case minSelected, maxSelected, minCount, maxCount, maxSize, accept, upperCase
        case prefix, suffix, rows, searchable, displayOnly
        case datePrecision = "precision"
        case masked, labelFormat, hintFormat
        case list, options, children
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let constraints = Constraints(
            textType: try c.decodeIfPresent(TextType.self, forKey: .textType),
            minLength: try c.decodeIfPresent(Int.self, forKey: .minLength),
            maxLength: try c.decodeIfPresent(Int.self, forKey: .maxLength),
            pattern: try c.decodeIfPresent(String.self, forKey: .pattern),
            format: try c.decodeIfPresent(String.self, forKey: .format),
            min: try c.decodeIfPresent(String.self, forKey: .min),
            max: try c.decodeIfPresent(String.self, forKey: .max),
            step: try c.decodeIfPresent(String.self, forKey: .step),
            scale: try c.decodeIfPresent(Int.self, forKey: .scale),
            multiple: try c.decodeIfPresent(Bool.self, forKey: .multiple) ?? false,
            minSelected: try c.decodeIfPresent(Int.self, forKey: .minSelected),
            maxSelected: try c.decodeIfPresent(Int.self, forKey: .maxSelected),
            minCount: try c.decodeIfPresent(Int.self, forKey: .minCount),
            maxCount: try c.decodeIfPresent(Int.self, forKey: .maxCount),
            maxSize: try c.decodeIfPresent(Int.self, forKey: .maxSize),
            accept: try c.decodeIfPresent([String].self, forKey: .accept),
            upperCase: try c.decodeIfPresent(Bool.self, forKey: .upperCase) ?? false
        )
        let presentation = Presentation(
            prefix: try c.decodeIfPresent(String.self, forKey: .prefix),
            suffix: try c.decodeIfPresent(String.self, forKey: .suffix),
            rows: try c.decodeIfPresent(Int.self, forKey: .rows),
            searchable: try c.decodeIfPresent(Bool.self, forKey: .searchable) ?? false,
            displayOnly: try c.decodeIfPresent(Bool.self, forKey: .displayOnly) ?? false,
            datePrecision: try c.decodeIfPresent(DatePrecision.self, forKey: .datePrecision),
            masked: try c.decodeIfPresent(Bool.self, forKey: .masked) ?? false,
            labelFormat: try c.decodeIfPresent(RichText.self, forKey: .labelFormat),
            hintFormat: try c.decodeIfPresent(RichText.self, forKey: .hintFormat)
        )
        self.init(
            name: try c.decode(String.self, forKey: .name),
            kind: try c.decode(FieldKind.self, forKey: .kind),
            label: try c.decodeIfPresent(String.self, forKey: .label),
            placeholder: try c.decodeIfPresent(String.self, forKey: .placeholder),
            hint: try c.decodeIfPresent(String.self, forKey: .hint),
            required: try c.decodeIfPresent(Bool.self, forKey: .required) ?? false,
            editable: try c.decodeIfPresent(Editability.self, forKey: .editable) ?? .yes,
            defaultValue: try c.decodeIfPresent(String.self, forKey: .defaultValue),
            prefill: try c.decodeIfPresent(Prefill.self, forKey: .prefill),
            constraints: constraints,
            presentation: presentation,
            list: try c.decodeIfPresent(String.self, forKey: .list),
            options: try c.decodeIfPresent([OptionGroup].self, forKey: .options),
            children: try c.decodeIfPresent([Field].self, forKey: .children)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(kind, forKey: .kind)
        try c.encodeIfPresent(label, forKey: .label)
        try c.encodeIfPresent(placeholder, forKey: .placeholder)
        try c.encodeIfPresent(hint, forKey: .hint)
        try c.encode(required, forKey: .required)
        try c.encode(editable, forKey: .editable)
        try c.encodeIfPresent(defaultValue, forKey: .defaultValue)
        try c.encodeIfPresent(prefill, forKey: .prefill)
        let k = constraints
        try c.encodeIfPresent(k.textType, forKey: .textType)
        try c.encodeIfPresent(k.minLength, forKey: .minLength)
        try c.encodeIfPresent(k.maxLength, forKey: .maxLength)
        try c.encodeIfPresent(k.pattern, forKey: .pattern)
        try c.encodeIfPresent(k.format, forKey: .format)
        try c.encodeIfPresent(k.min, forKey: .min)
        try c.encodeIfPresent(k.max, forKey: .max)
        try c.encodeIfPresent(k.step, forKey: .step)
        try c.encodeIfPresent(k.scale, forKey: .scale)
        if k.multiple { try c.encode(true, forKey: .multiple) }
        try c.encodeIfPresent(k.minSelected, forKey: .minSelected)
        try c.encodeIfPresent(k.maxSelected, forKey: .maxSelected)
        try c.encodeIfPresent(k.minCount, forKey: .minCount)
        try c.encodeIfPresent(k.maxCount, forKey: .maxCount)
        try c.encodeIfPresent(k.maxSize, forKey: .maxSize)
        try c.encodeIfPresent(k.accept, forKey: .accept)
        if k.upperCase { try c.encode(true, forKey: .upperCase) }
        try c.encodeIfPresent(presentation.prefix, forKey: .prefix)
        try c.encodeIfPresent(presentation.suffix, forKey: .suffix)
        try c.encodeIfPresent(presentation.rows, forKey: .rows)
        if presentation.searchable { try c.encode(true, forKey: .searchable) }
        if presentation.displayOnly { try c.encode(true, forKey: .displayOnly) }
        try c.encodeIfPresent(presentation.datePrecision, forKey: .datePrecision)
        if presentation.masked { try c.encode(true, forKey: .masked) }
        try c.encodeIfPresent(presentation.labelFormat, forKey: .labelFormat)
        try c.encodeIfPresent(presentation.hintFormat, forKey: .hintFormat)
        try c.encodeIfPresent(list, forKey: .list)
        try c.encodeIfPresent(options, forKey: .options)
        try c.encodeIfPresent(children, forKey: .children)
    }
}

/// A group is `{"label"?, "fields"}`, or `{"items": {…}}` where an item list stands.
extension FieldGroup: Codable {
    enum CodingKeys: String, CodingKey {
        case label, fields, items
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if let items = try c.decodeIfPresent(ItemList.self, forKey: .items) {
            self.init(items: items)
        } else {
            self.init(
                label: try c.decodeIfPresent(String.self, forKey: .label),
                fields: try c.decode([Field].self, forKey: .fields))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        if let items {
            try c.encode(items, forKey: .items)
            return
        }
        try c.encodeIfPresent(label, forKey: .label)
        try c.encode(fields, forKey: .fields)
    }
}

/// `{"name", "label", "object", "minCount", "maxCount", "startCount"?, "startItems"?, "addRemove"?,
/// "groups"}`: an item's groups as a section's; `startCount`, `startItems` and `addRemove` only
/// when not their defaults.
extension ItemList: Codable {
    enum CodingKeys: String, CodingKey {
        case name, label, object, minCount, maxCount, startCount, startItems, addRemove, groups
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try c.decode(String.self, forKey: .name),
            label: try c.decode(String.self, forKey: .label),
            object: try c.decodeIfPresent(String.self, forKey: .object),
            minCount: try c.decodeIfPresent(Int.self, forKey: .minCount) ?? 0,
            maxCount: try c.decodeIfPresent(Int.self, forKey: .maxCount) ?? ItemList.defaultMaxCount,
            startCount: try c.decodeIfPresent(Int.self, forKey: .startCount),
            startItems: try c.decodeIfPresent([[String: String]].self, forKey: .startItems),
            addRemove: try c.decodeIfPresent(Bool.self, forKey: .addRemove) ?? true,
            groups: try c.decode([FieldGroup].self, forKey: .groups))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(label, forKey: .label)
        try c.encode(object, forKey: .object)
        try c.encode(minCount, forKey: .minCount)
        try c.encode(maxCount, forKey: .maxCount)
        try c.encodeIfPresent(startCount, forKey: .startCount)
        try c.encodeIfPresent(startItems, forKey: .startItems)
        if !addRemove { try c.encode(false, forKey: .addRemove) }
        try c.encode(groups, forKey: .groups)
    }
}
