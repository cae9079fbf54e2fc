import BoundedPatterns
import FormModel
import Foundation

/// A property's phases: the annotations that target it, whether it shows at all, its type
/// resolved, and the field filled from them.
extension ODataFormMapper {
    /// The tables of the annotations that target the property.
    func propertyAnnotations(_ context: PropertyContext) -> PropertyAnnotations {
        let property = context.property
        var targets: [String] = []
        if context.entityTypeMembersAnnotated { targets.append(context.entityType + "/" + property.name) }
        if property.declaringType != context.entityType, index.annotatesMembers(of: property.declaringType) {
            targets.append(property.declaringType + "/" + property.name)
        }
        let definition = isUndeclaredPrimitive(property.type) ? nil : metadata.typeDefinitions[property.type]
        return PropertyAnnotations(
            targets: targets, tables: targets.compactMap { index.table($0) }, definition: definition)
    }

    /// The property's own annotation of a term, the entity type's first.
    func entry(_ term: String, _ annotations: PropertyAnnotations) -> AnnotationEntry? {
        for table in annotations.tables {
            if let entry = index.take(table, term) { return entry }
        }
        return nil
    }

    func annotation(_ term: String, _ annotations: PropertyAnnotations) -> AnnotationValue? {
        entry(term, annotations)?.value
    }

    func isSet(_ term: String, _ annotations: PropertyAnnotations) -> Bool {
        annotation(term, annotations)?.staticBool == true
    }

    /// The property's annotation of a term, else its type definition's.
    func typeEntry(_ term: String, _ annotations: PropertyAnnotations) -> AnnotationEntry? {
        if let entry = entry(term, annotations) { return entry }
        return annotations.definition.flatMap { index.take($0.name, term) }
    }

    /// The properties SAP and CAP add to a draft-enabled entity type for the draft's own
    /// bookkeeping: the draft's id, whether this is the active entity or a draft, and when.
    static func isDraftAdministrative(_ name: String) -> Bool {
        [
            "IsActiveEntity", "HasActiveEntity", "HasDraftEntity", "DraftUUID", "DraftEntityCreationDateTime",
            "DraftEntityLastChangeDateTime", "DraftAdministrativeData_DraftUUID", "DraftEntityOperationCode",
        ].contains(name)
    }

    /// Whether the property is a field at all (not computed, hidden, nor closed to both create
    /// and update), and if so its field control; notes a field control or `UI.Hidden` decided at run time.
    func visibleControl(
        _ context: PropertyContext, _ annotations: PropertyAnnotations, _ extras: inout MappedExtras
    ) -> FieldControl? {
        let property = context.property
        if isSet(Term.computed, annotations) { return nil }
        if let pattern = property.storeGeneratedPattern, pattern == "Identity" || pattern == "Computed" {
            return nil
        }
        if let hidden = annotation(Term.hidden, annotations) {
            if hidden.staticBool == true { return nil }
            if hidden.isDynamic { extras.dynamicHidden = true }
        }
        if isFalse(property.sap.visible) { return nil }
        if isFalse(property.sap.creatable) && isFalse(property.sap.updatable) { return nil }
        // Fiori elements never shows a draft's bookkeeping: the service keeps it. Decided after
        // the annotations above were read, so the report counts them as used as before.
        if context.draftAdministrative { return nil }
        let control: FieldControl
        if let value = annotation(Term.fieldControl, annotations) {
            control = FieldControl(value)
        } else {
            control = property.sap.fieldControl != nil ? .dynamic : .none
        }
        if control == .hidden { return nil }
        if control == .dynamic { extras.dynamicFieldControl = true }
        return control
    }

    /// The type through its type definition, with the facets the property does not set itself.
    func resolvedType(_ property: PropertyDecl, _ annotations: PropertyAnnotations) -> ResolvedType {
        let definition = annotations.definition
        let name = definition?.underlyingType ?? property.type
        let primitive = isUndeclaredPrimitive(property.type)
        return ResolvedType(
            name: name, isUndeclaredPrimitive: primitive, maxLength: property.maxLength ?? definition?.maxLength,
            precision: property.precision ?? definition?.precision, scale: property.scale ?? definition?.scale,
            enumType: primitive ? nil : metadata.enums[name])
    }

    /// Why a collection or a structured type cannot be a field yet.
    func unsupportedShape(_ property: PropertyDecl, _ type: ResolvedType) -> String? {
        if property.isCollection { return "a collection of \(shortTypeName(type.name))" }
        if !type.isUndeclaredPrimitive, let complex = metadata.types[type.name] {
            return "the \(complex.isComplex ? "complex" : "entity") type \(shortTypeName(type.name))"
        }
        return nil
    }

    /// The field of a property that is one: its words, control, constraints, options, media,
    /// editability, requirement and default, in that order (each may undo what came before).
    func fill(
        _ field: inout Field, _ extras: inout MappedExtras, _ context: PropertyContext,
        _ annotations: PropertyAnnotations, _ type: ResolvedType, _ control: FieldControl
    ) -> MappedProperty {
        let labelled = describe(&field, context, annotations)
        let mediaType = annotation(Term.mediaType, annotations)
        var numeric: NumericRange?
        guard chooseControl(&field, &numeric, context, annotations, type, mediaType: mediaType) else {
            return .unsupported(type.name.hasPrefix("Edm.") ? type.name : "the type \(type.name)")
        }
        if type.name == "Edm.String" { constrainText(&field, &extras, context, annotations, type) }
        if numeric != nil {
            constrainNumber(&field, &extras, &numeric, context, annotations)
        } else if field.kind.isTemporal || field.kind == .duration {
            let minimum = typeEntry(Term.minimum, annotations)?.value
            let maximum = typeEntry(Term.maximum, annotations)?.value
            if minimum != nil || maximum != nil { extras.freeValues = true }
            applyTemporalBounds(
                &field.constraints, kind: field.kind, context: context, minimum: minimum, maximum: maximum)
        }
        if let why = offerOptions(&field, &extras, context, annotations, type, numeric: numeric, labelled: labelled) {
            return .unsupported(why)
        }
        if field.kind == .note { extras.accessory = true }
        if field.kind == .attachments { takeFiles(&field, &extras, context, annotations, mediaType: mediaType) }
        decideEditableAndRequired(&field, context, annotations, control)
        if let text = context.property.defaultValue {
            extras.freeValues = true
            field.defaultValue = validDefault(text, for: field, context: context)
        }
        extras.kind = field.kind
        extras.editable = field.editable
        extras.required = field.required
        return .field(extras)
    }

    /// Label and hint: a `DataField` label, else `Common.Label`, else `sap:label`, else a value
    /// list's `Label`, else the name in words; `Common.QuickInfo`, else `sap:quickinfo`, else
    /// `Core.Description`. Whether the property has a label of its own.
    func describe(_ field: inout Field, _ context: PropertyContext, _ annotations: PropertyAnnotations) -> Bool {
        let property = context.property
        field.label = label(context.dataFieldLabel, annotation(Term.label, annotations)?.string, property.sap.label)
        let labelled = field.label != nil
        if !labelled { field.label = Words.fromIdentifier(property.name) }
        field.hint =
            hint(annotation(Term.quickInfo, annotations)?.string) ?? hint(property.sap.quickinfo)
            ?? hint(annotation(Term.description, annotations)?.string)
        return labelled
    }
}
