/// Whether a form creates an object or edits one. The mode decides which fields the server,
/// not the user, fills: the create and edit views render those read-only, and validation takes
/// the server's values for them whatever was submitted.
public enum FormMode: String, Sendable, Hashable {
    case create
    case edit

    /// Whether a field is read-only in this mode, its value decided by the server:
    /// `editable="false"` always, `create-only` when editing. An editable `prefill="query"` field
    /// stays the user's, the query giving only its initial value.
    public func isReadOnly(_ field: Field) -> Bool {
        switch field.editable {
        case .yes: false
        case .no: true
        case .createOnly: self == .edit
        }
    }
}
