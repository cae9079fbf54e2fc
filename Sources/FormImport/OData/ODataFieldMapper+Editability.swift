import BoundedPatterns
import FormModel
import Foundation

/// A property's editability: whether the user may change it and must fill it, on create and
/// on edit, and the value list that helps fill it.
extension ODataFormMapper {
    /// Editable, create-only or read-only, and whether the field is required.
    func decideEditableAndRequired(
        _ field: inout Field, _ context: PropertyContext, _ annotations: PropertyAnnotations, _ control: FieldControl
    ) {
        let property = context.property
        let sapUpdatable = !isFalse(property.sap.updatable)
        var editable = Editability.yes
        if isFalse(property.sap.creatable) || control == .readOnly { editable = .no }
        if editable == .yes && (isSet(Term.immutable, annotations) || !sapUpdatable || context.isKey) {
            editable = .createOnly
        }
        field.editable = editable
        var required =
            context.requiredOnInsert || control == .mandatory
            || (context.isKey ? editable != .no : !property.nullable || isTrue(property.sap.required))
        // A field control decided at run time leaves the field optional (the service says when it is
        // mandatory); an unticked switch is a value (false); a read-only field is not the user's to give.
        if control == .dynamic && !context.isKey && !context.requiredOnInsert { required = false }
        if field.kind == .switch || editable == .no { required = false }
        field.required = required
    }

    enum FieldControl: Equatable {
        case none, mandatory, optional, readOnly, hidden, dynamic

        /// `Common.FieldControl`: an enumeration member, its number (7, 3, 1, 0), or a path.
        init(_ value: AnnotationValue) {
            switch value {
            case .enumMember(let members):
                switch members.first?.member {
                case "Mandatory": self = .mandatory
                case "Optional": self = .optional
                case "ReadOnly": self = .readOnly
                case "Hidden", "Inapplicable": self = .hidden
                default: self = .none
                }
            case .int(let number), .decimal(let number):
                switch Int(number) {
                case 7: self = .mandatory
                case 3: self = .optional
                case 1: self = .readOnly
                case 0: self = .hidden
                default: self = .none
                }
            case .path, .expression: self = .dynamic
            default: self = .none
            }
        }
    }

    /// A value help: searchable or fixed values, and the `Label` of its `Common.ValueList`.
    struct ValueList {
        enum Kind { case searchable, fixed }
        var kind: Kind
        var label: String?
    }

    /// Whether the property has a value help: `Common.ValueList` (any qualifier),
    /// `ValueListReferences`, `ValueListMapping`, `ValueListWithFixedValues`, or V2 `sap:value-list`.
    func valueListKind(property: PropertyDecl, targets: [String]) -> ValueList? {
        var found = false
        var fixed = false
        var label: String?
        for target in targets where index.table(target) != nil {
            for entry in index.takeAll(target, Term.valueList) {
                found = true
                if label == nil { label = entry.value.record?["Label"]?.string }
            }
            if !index.takeAll(target, Term.valueListReferences).isEmpty { found = true }
            if !index.takeAll(target, Term.valueListMapping).isEmpty { found = true }
            if let entry = index.take(target, Term.valueListWithFixedValues) {
                found = true
                if entry.value.staticBool == true { fixed = true }
            }
        }
        switch property.sap.valueList {
        case "fixed-values":
            found = true
            fixed = true
        case "standard", "true", "True":
            found = true
        default:
            break
        }
        return found ? ValueList(kind: fixed ? .fixed : .searchable, label: label) : nil
    }

    /// A number's bounds and scale, as decimal text.
    struct NumericRange {
        var min: String?
        var max: String?
        var scale: Int?

        static func integer(_ type: String) -> NumericRange {
            switch type {
            case "Edm.Byte": NumericRange(min: "0", max: "255", scale: 0)
            case "Edm.SByte": NumericRange(min: "-128", max: "127", scale: 0)
            case "Edm.Int16": NumericRange(min: "-32768", max: "32767", scale: 0)
            case "Edm.Int32": NumericRange(min: "-2147483648", max: "2147483647", scale: 0)
            default: NumericRange(min: "-9223372036854775808", max: "9223372036854775807", scale: 0)
            }
        }
    }
}
