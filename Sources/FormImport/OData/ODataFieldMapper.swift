import BoundedPatterns
import FormModel
import Foundation

/// What the mapping makes of one property.
enum MappedProperty {
    /// A field (written to the caller's place), with where it goes and the property holding its
    /// unit, if that is another property.
    case field(MappedExtras)
    /// Not a field by the rules (computed, hidden, not creatable nor updatable, ...).
    case notAField
    /// A type the forms cannot hold yet; the reason names it for the report.
    case unsupported(String)
}

/// The parts of a mapped property the form, not the field, deals with.
struct MappedExtras {
    /// Notes and attachments go to the accessory area.
    var accessory = false
    /// A `Measures.ISOCurrency` / `Measures.Unit` / `sap:unit` path: the property holding the unit.
    var unitProperty: String?
    var unitIsCurrency = false
    /// The title of the value list the field names: its `Common.ValueList`'s `Label`.
    var listTitle: String?
    /// The Common.FieldControl or UI.Hidden is a path: stays optional, editable and shown.
    var dynamicFieldControl = false
    var dynamicHidden = false
    /// The field takes values written freely in the annotations (a pattern, bounds, options, a
    /// default, media types): the form is checked against every schema rule before it is kept.
    var freeValues = false
    /// The field's kind, editability and required flag, as in the field: what the form's checks read.
    var kind = FieldKind.text
    var editable = Editability.yes
    var required = false
}

/// How a property is to be read, beside its declaration.
struct PropertyContext {
    var property: PropertyDecl
    /// The entity set's type.
    var entityType: String
    /// Whether any annotation targets a member of `entityType`.
    var entityTypeMembersAnnotated: Bool
    var isKey: Bool
    /// `Capabilities.InsertRestrictions/RequiredProperties` names it.
    var requiredOnInsert: Bool
    /// The `Label` of the `UI.DataField` that placed it.
    var dataFieldLabel: String?
    var fieldName: String
    /// A draft bookkeeping property of a draft-enabled type (``ODataFormMapper/isDraftAdministrative(_:)``).
    var draftAdministrative = false
}

/// The annotation tables of one property, found once: each look-up by target hashes the whole
/// target, and most properties of V2 services have none.
struct PropertyAnnotations {
    /// `Type/Property` for the entity type and, for an inherited property, its declaring type.
    let targets: [String]
    let tables: [AnnotationIndex.Table]
    /// The property's type definition, whose annotations apply where the property has none.
    let definition: TypeDefinitionDecl?
}

/// A property's type as the mapping reads it: through its type definition, with its facets.
struct ResolvedType {
    /// `Edm.String`, ..., or a qualified enumeration, complex or entity type name.
    let name: String
    let isUndeclaredPrimitive: Bool
    let maxLength: String?
    let precision: String?
    let scale: String?
    let enumType: EnumTypeDecl?
}

extension ODataFormMapper {
    /// Maps one property by every rule of the mapping (docs/odata.md, "Fields"), phase by phase:
    /// whether it is a field at all, what its type is, then the field itself (`fill`).
    func mapProperty(_ context: PropertyContext, into mapped: inout Field?) -> MappedProperty {
        let annotations = propertyAnnotations(context)
        var extras = MappedExtras()
        guard let control = visibleControl(context, annotations, &extras) else { return .notAField }
        let type = resolvedType(context.property, annotations)
        if let why = unsupportedShape(context.property, type) { return .unsupported(why) }

        // The field is filled in the caller's place: a Field is large, and a copy of it retains
        // every string and array it holds. It starts as a copy of a blank one: the optimiser
        // builds a new Field (its default Constraints especially) in temporaries it copies and
        // destroys, which costs more than the copy.
        mapped = ODataFormMapper.blankField
        mapped!.name = context.fieldName
        mapped!.location = SourceLocation(line: context.property.line)
        let outcome = fill(&mapped!, &extras, context, annotations, type, control)
        if case .field = outcome {} else { mapped = nil }
        return outcome
    }

    /// What `mapProperty` starts each field from.
    static let blankField = Field(name: "", kind: .text)
}
