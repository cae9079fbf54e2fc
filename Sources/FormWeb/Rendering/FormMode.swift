import FormModel

/// Whether a form view creates an object or edits one; each has its own render plan.
public enum FormMode: String, Sendable, Hashable {
    case create
    case edit

    /// Whether a field is read-only in this mode: `editable="false"` always, `create-only` when editing.
    public func isReadOnly(_ field: Field) -> Bool {
        switch field.editable {
        case .yes: false
        case .no: true
        case .createOnly: self == .edit
        }
    }

    /// The model's validation mode.
    public var validationMode: ValidationMode {
        switch self {
        case .create: .create
        case .edit: .edit
        }
    }
}
