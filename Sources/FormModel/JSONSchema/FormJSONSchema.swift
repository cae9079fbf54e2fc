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
        var schema: JSONValue = ["type": "object", "properties": .object(properties)]
        switch use {
        case .create:
            let required = form.topLevelFields.filter { isRequiredInCreate($0) }.map(\.name)
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

    /// Whether a create must send the field: required, with no default to start from, and
    /// the client's to give (a switch's children only count while it is on).
    static func isRequiredInCreate(_ field: Field) -> Bool {
        field.required && field.defaultValue == nil && !FormMode.create.isReadOnly(field)
            && field.kind != .attachments
    }
}
