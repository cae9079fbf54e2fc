/// The one rule that marks fields required or optional, shared by the view and the server check.
///
/// Required fields always carry `*` and the form shows "* indicates a required field" at the top.
/// When optional fields are few (no more than a third of the fields a person fills in), their
/// labels also say "(optional)", as GOV.UK does for mostly-required forms.
public struct RequiredMarking: Sendable, Hashable {
    /// Whether any field is required, so the explanatory line is shown.
    public let showsLegend: Bool
    /// Whether optional fields get "(optional)" after their label.
    public let marksOptional: Bool

    public init(schema: FormSchema) {
        let markable = schema.allFields.filter { $0.kind != .switch && $0.editable != .no }
        let required = markable.filter(\.required).count
        let optional = markable.count - required
        showsLegend = required > 0
        marksOptional = optional > 0 && optional * 3 <= markable.count
    }

    /// The legend line shown at the top of the form.
    public static let legend = "* indicates a required field"

    /// The marker after a field's label: "*", " (optional)" or nothing.
    public func marker(for field: Field) -> FieldMarker {
        if field.required { return .required }
        if marksOptional && field.kind != .switch && field.editable != .no { return .optional }
        return .none
    }
}

/// What follows a label.
public enum FieldMarker: Sendable, Hashable {
    case required
    case optional
    case none
}
