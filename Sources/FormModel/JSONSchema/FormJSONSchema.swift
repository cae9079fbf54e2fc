/// The JSON Schema of a form's values: of the object JSON's `values`, and of the bodies of a
/// create and an edit (``ValueSchemaUse``), one property a field, switch children included
/// (values are flat by name).
public enum FormJSONSchema {
    /// The object schema of the form's values for `use`.
    public static func values(of form: FormSchema, use: ValueSchemaUse) -> JSONValue {
        var properties: [String: JSONValue] = [:]
        for field in form.allFields {
            if let schema = FieldJSONSchema.schema(for: field, in: form, use: use) { properties[field.name] = schema }
        }
        for list in form.itemLists { properties[list.name] = items(list, in: form, use: use) }
        var schema: JSONValue = ["type": "object", "properties": .object(properties)]
        switch use {
        case .create:
            let required =
                form.topLevelFields.filter { isRequiredInCreate($0) }.map(\.name)
                + form.itemLists.filter { $0.minCount > 0 }.map(\.name)
            if !required.isEmpty { schema["required"] = .strings(required) }
            schema["additionalProperties"] = false
        case .edit:
            schema["additionalProperties"] = false
        case .answer:
            // Objects of older versions may hold values of fields this version no longer has.
            break
        }
        return schema
    }

    /// An item list's value: an array of its items, each an object of its fields' values and
    /// its own lists, with `_id`; a create's and an edit's within the list's bounds (an edit
    /// that sends a list replaces it whole), an answer's as stored (an older version's object
    /// may have more or fewer).
    static func items(_ list: ItemList, in form: FormSchema, use: ValueSchemaUse) -> JSONValue {
        var properties: [String: JSONValue] = [
            FormValidator.itemIDName: [
                "type": "string", "format": "uuid",
                "description":
                    "The item's id, made by the server on its first save. An edit that sends it back keeps the item; an item without one (or with an id the object does not have) is new.",
            ]
        ]
        let fields = list.fields.flatMap { [$0] + ($0.children ?? []) }
        for field in fields {
            if let schema = FieldJSONSchema.schema(for: field, in: form, use: use) { properties[field.name] = schema }
        }
        for inner in list.lists { properties[inner.name] = items(inner, in: form, use: use) }
        var item: JSONValue = ["type": "object", "properties": .object(properties)]
        var schema: JSONValue = [
            "type": "array", "title": .string(list.label), "x-fieldwork-kind": "items",
            "description": .string("\(list.label): a list of \(list.pluralNoun), each an object."),
        ]
        if use == .answer {
            item["required"] = .strings([FormValidator.itemIDName])
        } else {
            let required = list.fields.filter { isRequiredInCreate($0) }.map(\.name)
            if !required.isEmpty { item["required"] = .strings(required) }
            item["additionalProperties"] = false
            if list.minCount > 0 { schema["minItems"] = .int(list.minCount) }
            schema["maxItems"] = .int(min(list.maxCount, ItemList.maxItems))
        }
        schema["items"] = item
        return schema
    }

    /// Whether a create must send the field: required, with no default to start from, and
    /// the client's to give (a switch's children only count while it is on).
    static func isRequiredInCreate(_ field: Field) -> Bool {
        field.required && field.defaultValue == nil && !FormMode.create.isReadOnly(field)
            && field.kind != .attachments
    }
}
