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

    // MARK: Phases of a property

    /// The tables of the annotations that target the property.
    private func propertyAnnotations(_ context: PropertyContext) -> PropertyAnnotations {
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
    private func entry(_ term: String, _ annotations: PropertyAnnotations) -> AnnotationEntry? {
        for table in annotations.tables {
            if let entry = index.take(table, term) { return entry }
        }
        return nil
    }

    private func annotation(_ term: String, _ annotations: PropertyAnnotations) -> AnnotationValue? {
        entry(term, annotations)?.value
    }

    private func isSet(_ term: String, _ annotations: PropertyAnnotations) -> Bool {
        annotation(term, annotations)?.staticBool == true
    }

    /// The property's annotation of a term, else its type definition's.
    private func typeEntry(_ term: String, _ annotations: PropertyAnnotations) -> AnnotationEntry? {
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
    private func visibleControl(
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
    private func resolvedType(_ property: PropertyDecl, _ annotations: PropertyAnnotations) -> ResolvedType {
        let definition = annotations.definition
        let name = definition?.underlyingType ?? property.type
        let primitive = isUndeclaredPrimitive(property.type)
        return ResolvedType(
            name: name, isUndeclaredPrimitive: primitive, maxLength: property.maxLength ?? definition?.maxLength,
            precision: property.precision ?? definition?.precision, scale: property.scale ?? definition?.scale,
            enumType: primitive ? nil : metadata.enums[name])
    }

    /// Why a collection or a structured type cannot be a field yet.
    private func unsupportedShape(_ property: PropertyDecl, _ type: ResolvedType) -> String? {
        if property.isCollection { return "a collection of \(shortTypeName(type.name))" }
        if !type.isUndeclaredPrimitive, let complex = metadata.types[type.name] {
            return "the \(complex.isComplex ? "complex" : "entity") type \(shortTypeName(type.name))"
        }
        return nil
    }

    /// The field of a property that is one: its words, control, constraints, options, media,
    /// editability, requirement and default, in that order (each may undo what came before).
    private func fill(
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
    private func describe(_ field: inout Field, _ context: PropertyContext, _ annotations: PropertyAnnotations) -> Bool
    {
        let property = context.property
        field.label = label(context.dataFieldLabel, annotation(Term.label, annotations)?.string, property.sap.label)
        let labelled = field.label != nil
        if !labelled { field.label = Words.fromIdentifier(property.name) }
        field.hint =
            hint(annotation(Term.quickInfo, annotations)?.string) ?? hint(property.sap.quickinfo)
            ?? hint(annotation(Term.description, annotations)?.string)
        return labelled
    }

    /// The control a type gives, and for a number its range; false for a type forms cannot hold.
    private func chooseControl(
        _ field: inout Field, _ numeric: inout NumericRange?, _ context: PropertyContext,
        _ annotations: PropertyAnnotations, _ type: ResolvedType, mediaType: AnnotationValue?
    ) -> Bool {
        let property = context.property
        if type.enumType != nil {
            field.kind = .valueList
            return true
        }
        switch type.name {
        case "Edm.String":
            field.kind = isSet(Term.multiLineText, annotations) ? .note : .text
        case "Edm.Boolean":
            field.kind = .switch
        case "Edm.Byte", "Edm.SByte", "Edm.Int16", "Edm.Int32", "Edm.Int64":
            field.kind = .number
            numeric = NumericRange.integer(type.name)
        case "Edm.Decimal":
            field.kind = .number
            numeric = decimalRange(precision: type.precision, scale: type.scale, context: context)
        case "Edm.Double", "Edm.Single":
            field.kind = .number
            numeric = NumericRange(min: nil, max: nil, scale: nil)
        case "Edm.Date":
            field.kind = .date
        case "Edm.DateTime":
            field.kind = property.sap.displayFormat == "Date" ? .date : .datetime
        case "Edm.DateTimeOffset":
            field.kind = .datetime
        case "Edm.TimeOfDay", "Edm.Time":
            field.kind = .time
        case "Edm.Duration":
            field.kind = .duration
        case "Edm.Guid":
            field.kind = .text
            field.constraints.pattern = KnownPattern.uuid
            field.constraints.maxLength = 36
        case "Edm.Stream":
            field.kind = .attachments
        case "Edm.Binary" where mediaType != nil:
            field.kind = .attachments
        default:
            return false
        }
        return true
    }

    /// Text: max-length, input type, upper case, a pattern or an input mask.
    private func constrainText(
        _ field: inout Field, _ extras: inout MappedExtras, _ context: PropertyContext,
        _ annotations: PropertyAnnotations, _ type: ResolvedType
    ) {
        let property = context.property
        if let max = type.maxLength.flatMap({ Int($0) }), max > 0 { field.constraints.maxLength = max }
        if isSet(Term.isEmailAddress, annotations) || property.sap.semantics == "email" {
            field.constraints.textType = .email
        } else if isSet(Term.isPhoneNumber, annotations) || property.sap.semantics == "tel" {
            field.constraints.textType = .tel
        } else if property.sap.semantics == "url" {
            field.constraints.textType = .url
        }
        if property.sap.displayFormat == "UpperCase" || isSet(Term.isUpperCase, annotations) {
            field.constraints.upperCase = true
        }
        if let pattern = typeEntry(Term.pattern, annotations)?.value.string {
            extras.freeValues = true
            // An empty pattern would take only an empty value: the rules of every form refuse it.
            if !pattern.isEmpty, (try? NSRegularExpression(pattern: pattern)) != nil {
                if let part = BacktrackingCheck.risk(in: pattern) {
                    // Dropped, not the field: the service checks its own pattern anyway.
                    dropped(
                        context,
                        "its Validation.Pattern \"\(pattern)\" repeats \(part), which can backtrack catastrophically")
                } else {
                    field.constraints.pattern = pattern
                }
            } else {
                dropped(context, "its Validation.Pattern \"\(pattern)\" is not a regular expression the server can use")
            }
        } else if isSet(Term.isDigitSequence, annotations) || property.sap.displayFormat == "NonNegative" {
            // V2's NonNegative on a string: a digit sequence (SAP's code fields).
            field.constraints.pattern = KnownPattern.digits
        }
        if field.constraints.pattern == nil, let mask = typeEntry(Term.inputMask, annotations)?.value {
            extras.freeValues = true
            switch mask.record.map(ODataInputMask.constraint(of:)) ?? .failure(.noMask) {
            case .success(.format(let format)): field.constraints.format = format
            case .success(.pattern(let pattern)): field.constraints.pattern = pattern
            case .failure(let refusal): dropped(context, refusal.reason)
            }
        }
    }

    /// Numbers: the type's range narrowed by `NonNegative` and `Validation.Minimum` / `Maximum`, and the unit.
    private func constrainNumber(
        _ field: inout Field, _ extras: inout MappedExtras, _ numeric: inout NumericRange?, _ context: PropertyContext,
        _ annotations: PropertyAnnotations
    ) {
        guard var range = numeric else { return }
        let property = context.property
        if property.sap.displayFormat == "NonNegative", range.min.map({ $0.hasPrefix("-") }) ?? true {
            range.min = "0"
        }
        let minimum = typeEntry(Term.minimum, annotations)
        let maximum = typeEntry(Term.maximum, annotations)
        if minimum != nil || maximum != nil { extras.freeValues = true }
        applyBounds(&range, context: context, minimum: minimum, maximum: maximum)
        field.constraints.min = range.min
        field.constraints.max = range.max
        field.constraints.scale = range.scale
        numeric = range
        applyUnit(&field, &extras, property: property, annotations: annotations)
    }

    /// Options known at import (allowed values, enumeration members), else a value list whose
    /// options an admin uploads; the reason when an enumeration has no member to offer.
    private func offerOptions(
        _ field: inout Field, _ extras: inout MappedExtras, _ context: PropertyContext,
        _ annotations: PropertyAnnotations, _ type: ResolvedType, numeric: NumericRange?, labelled: Bool
    ) -> String? {
        let allowed = typeEntry(Term.allowedValues, annotations)?.value
        let valueList = valueListKind(property: context.property, targets: annotations.targets)
        guard field.kind != .switch && field.kind != .attachments && !field.kind.isTemporal && field.kind != .duration
        else { return nil }
        var options: [Option] = []
        var multiple = false
        if let items = allowed?.collection {
            options = allowedOptions(items, context: context)
        } else if let enumType = type.enumType {
            options = enumOptions(enumType)
            multiple = enumType.isFlags
        }
        if !options.isEmpty {
            extras.freeValues = true
            field.kind =
                multiple
                ? (options.count <= FormSchema.maxChips ? .chips : .valueList)
                : options.count <= FormSchema.maxButtons
                    ? .buttons : options.count <= FormSchema.maxChips ? .chips : .valueList
            field.options = [OptionGroup(options: options)]
            field.constraints.multiple = multiple
            field.constraints.min = nil
            field.constraints.max = nil
            field.constraints.scale = nil
            field.constraints.maxLength = nil
            field.constraints.pattern = nil
            field.constraints.format = nil
            field.presentation = Presentation()
        } else if type.enumType != nil {
            return "the enumeration \(shortTypeName(type.name)) without members"
        } else if let valueList {
            field.kind = .valueList
            field.list = context.fieldName
            field.presentation = Presentation(searchable: valueList.kind == .searchable)
            field.constraints.format = nil
            if let numeric {
                // Until its options are uploaded the list takes any text: keep it a number.
                field.constraints.pattern = numeric.scale == 0 ? KnownPattern.integer : KnownPattern.decimal
                field.constraints.min = nil
                field.constraints.max = nil
                field.constraints.scale = nil
            }
            if let title = label(valueList.label) {
                extras.listTitle = title
                // A property without a label of its own: the list's title names what it holds.
                if !labelled { field.label = title }
            }
        }
        return nil
    }

    /// An enumeration's members, each once, labelled by its `Common.Label` or `Core.Description`.
    private func enumOptions(_ enumType: EnumTypeDecl) -> [Option] {
        var seen = Set<String>()
        return enumType.members.filter { !$0.isEmpty && seen.insert($0).inserted }.map { member in
            let target = enumType.name + "/" + member
            let label =
                self.label(index.take(target, Term.label)?.value.string)
                ?? self.label(index.take(target, Term.description)?.value.string)
                ?? Words.fromIdentifier(member)
            return Option(value: member, label: label)
        }
    }

    /// Media: one file, of the media types the annotations allow.
    private func takeFiles(
        _ field: inout Field, _ extras: inout MappedExtras, _ context: PropertyContext,
        _ annotations: PropertyAnnotations, mediaType: AnnotationValue?
    ) {
        extras.accessory = true
        extras.freeValues = true
        field.constraints = Constraints(maxCount: 1)
        var accept: [String] = []
        if let type = mediaType?.string { accept.append(type) }
        accept += (annotation(Term.acceptableMediaTypes, annotations)?.collection ?? []).compactMap(\.string)
        field.constraints.accept = acceptedTypes(accept) { dropped(context, $0) }
        field.presentation = Presentation()
    }

    /// Editable, create-only or read-only, and whether the field is required.
    private func decideEditableAndRequired(
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

    /// What `mapProperty` starts each field from.
    private static let blankField = Field(name: "", kind: .text)

    // MARK: Pieces

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
    private func valueListKind(property: PropertyDecl, targets: [String]) -> ValueList? {
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

    /// `Edm.Decimal` with `Precision` p and `Scale` s: at most p − s digits before the point and s
    /// after it. Scale defaults to 0; `variable` or `floating` leaves the decimals open.
    private func decimalRange(precision: String?, scale: String?, context: PropertyContext) -> NumericRange {
        let p = precision.flatMap { Int($0) }
        var s: Int? = 0
        if let scale {
            if let value = Int(scale) { s = value } else { s = nil }  // variable, floating
        }
        // A form's scale is 0 to 18 (the rules of every form): a wider or negative one is left out.
        if let scale = s, scale < 0 || scale > 18 {
            dropped(context, "its Scale \(scale) is not one of 0 to 18 decimal places a form checks")
            return NumericRange(min: nil, max: nil, scale: nil)
        }
        guard let p, p > 0 else { return NumericRange(min: nil, max: nil, scale: s) }
        if let scale = s, scale > p {
            dropped(context, "its Scale \(scale) does not fit its Precision \(p)")
            return NumericRange(min: nil, max: nil, scale: nil)
        }
        // A form's number is a Foundation `Decimal`, exact to 38 digits: a wider bound would be
        // rounded, or not a number at all past about 165 digits, so such a range stays open.
        if p > DecimalText.exactDigits {
            dropped(
                context,
                "its Precision \(p) is more than the \(DecimalText.exactDigits) digits a form checks exactly, so its range is not checked"
            )
            return NumericRange(min: nil, max: nil, scale: s)
        }
        let whole = p - (s ?? 0)
        var max = whole > 0 ? String(repeating: "9", count: whole) : "0"
        if let scale = s, scale > 0 { max += "." + String(repeating: "9", count: scale) }
        return NumericRange(min: "-" + max, max: max, scale: s)
    }

    /// `Validation.Minimum` / `Maximum` (with `Validation.Exclusive` nested) narrow the type's range.
    private func applyBounds(
        _ range: inout NumericRange, context: PropertyContext, minimum: AnnotationEntry?, maximum: AnnotationEntry?
    ) {
        for (entry, isMinimum) in [(minimum, true), (maximum, false)] {
            guard let entry else { continue }
            guard let text = entry.value.literalText, var bound = DecimalText.parse(text) else {
                dropped(context, "its Validation.\(isMinimum ? "Minimum" : "Maximum") is not a number")
                continue
            }
            if entry.annotations.contains(where: { $0.term == Term.exclusive && $0.value.staticBool == true }) {
                if range.scale == 0 {
                    bound += isMinimum ? 1 : -1
                } else {
                    dropped(
                        context,
                        "its exclusive Validation.\(isMinimum ? "Minimum" : "Maximum") cannot be kept for decimals; the bound is kept inclusive"
                    )
                }
            }
            let current = (isMinimum ? range.min : range.max).flatMap(DecimalText.parse)
            // A bound wider than the type's range would let through values the service refuses.
            if let current, isMinimum ? bound < current : bound > current { continue }
            let written = "\(bound)"
            if isMinimum { range.min = written } else { range.max = written }
        }
        if minimum != nil || maximum != nil, let low = range.min.flatMap(DecimalText.parse),
            let high = range.max.flatMap(DecimalText.parse), low > high
        {
            dropped(context, "its minimum is above its maximum")
            range.min = nil
            range.max = nil
        }
    }

    private func applyTemporalBounds(
        _ k: inout Constraints, kind: FieldKind, context: PropertyContext, minimum: AnnotationValue?,
        maximum: AnnotationValue?
    ) {
        func lexical(_ value: AnnotationValue?) -> String? {
            guard let value else { return nil }
            guard var text = value.literalText else { return nil }
            switch kind {
            case .date:
                return LocalDate(text) != nil ? text : nil
            case .datetime:
                // 2026-11-21T14:30:00Z → 2026-11-21T14:30:00 (forms hold local date-times).
                if let zone = text.firstIndex(where: { $0 == "Z" || $0 == "+" }) { text = String(text[..<zone]) }
                if let dot = text.firstIndex(of: ".") { text = String(text[..<dot]) }
                return LocalDateTime(text) != nil ? text : nil
            case .time:
                if let dot = text.firstIndex(of: ".") { text = String(text[..<dot]) }
                return LocalTime(text) != nil ? text : nil
            case .duration:
                return ISODuration(text) != nil ? text : nil
            default:
                return nil
            }
        }
        for (value, isMinimum) in [(minimum, true), (maximum, false)] where value != nil {
            if let text = lexical(value) {
                if isMinimum { k.min = text } else { k.max = text }
            } else {
                dropped(context, "its Validation.\(isMinimum ? "Minimum" : "Maximum") is not a \(kind.rawValue)")
            }
        }
        if let low = k.min, let high = k.max {
            let ordered: Bool =
                switch kind {
                case .date: LocalDate(low).flatMap { a in LocalDate(high).map { a <= $0 } } ?? true
                case .datetime: LocalDateTime(low).flatMap { a in LocalDateTime(high).map { a <= $0 } } ?? true
                case .time: LocalTime(low).flatMap { a in LocalTime(high).map { a <= $0 } } ?? true
                default: ISODuration(low).flatMap { a in ISODuration(high).map { a <= $0 } } ?? true
                }
            if !ordered {
                dropped(context, "its minimum is after its maximum")
                k.min = nil
                k.max = nil
            }
        }
    }

    /// `Measures.ISOCurrency` / `Measures.Unit`: a fixed unit becomes the suffix; a path keeps the
    /// unit property a field of its own, noted in the hint once its label is known.
    private func applyUnit(
        _ field: inout Field, _ extras: inout MappedExtras, property: PropertyDecl, annotations: PropertyAnnotations
    ) {
        let currency = annotation(Term.isoCurrency, annotations)
        let unit = currency ?? annotation(Term.unit, annotations)
        if let fixed = unit?.string?.trimmingASCIIWhitespace, !fixed.isEmpty {
            field.presentation.suffix = fixed
        } else if let path = unit?.anyPath, !path.contains(ascii: UInt8(ascii: "/")) {
            extras.unitProperty = path
            extras.unitIsCurrency = currency != nil
        } else if let path = property.sap.unit, !path.contains(ascii: UInt8(ascii: "/")) {
            extras.unitProperty = path
        }
    }

    /// `Validation.AllowedValues`: records with a `Value`, labelled by a nested `Common.Label`,
    /// `Core.Description` or `Core.SymbolicName`.
    private func allowedOptions(_ items: [AnnotationValue], context: PropertyContext) -> [Option] {
        var options: [Option] = []
        var seen = Set<String>()
        for item in items {
            let record = item.record
            guard let value = (record?["Value"] ?? item).literalText?.trimmingASCIIWhitespace, !value.isEmpty else {
                dropped(context, "one of its Validation.AllowedValues has no value")
                continue
            }
            guard seen.insert(value).inserted else {
                dropped(context, "the allowed value \"\(value)\" appears twice")
                continue
            }
            let label =
                self.label(record?.annotation(Term.label)?.string) ?? self.label(
                    record?.annotation(Term.description)?.string)
                ?? record?.annotation(Term.symbolicName)?.string.map(Words.fromIdentifier) ?? value
            options.append(Option(value: value, label: label))
        }
        return options
    }

    /// MIME types for `accept`, trimmed and each once; every other value goes to `drop`, with
    /// the reason, for a warning.
    func acceptedTypes(_ types: [String], drop: (String) -> Void) -> [String]? {
        var accepted: [String] = []
        for type in types.map(\.trimmingASCIIWhitespace) where !accepted.contains(type) {
            if FormSchema.isMIMEPattern(type) {
                accepted.append(type)
            } else {
                drop("\"\(type)\" is not a MIME type such as image/png")
            }
        }
        return accepted.isEmpty ? nil : accepted
    }

    /// A `DefaultValue` the field can hold, else nil with a warning.
    private func validDefault(_ text: String, for field: Field, context: PropertyContext) -> String? {
        let k = field.constraints
        let fits: Bool
        switch field.kind {
        case .switch:
            fits = text == "true" || text == "false"
        case .number:
            if let value = DecimalText.parse(text) {
                let low = k.min.flatMap(DecimalText.parse)
                let high = k.max.flatMap(DecimalText.parse)
                fits = (low.map { value >= $0 } ?? true) && (high.map { value <= $0 } ?? true)
            } else {
                fits = false
            }
        case .text, .note:
            fits =
                (k.maxLength.map { text.count <= $0 } ?? true)
                && (k.pattern.map { KnownPattern.fullMatch($0, text) } ?? true)
        case .date: fits = LocalDate(text) != nil
        case .time: fits = LocalTime(text) != nil
        case .datetime: fits = LocalDateTime(text) != nil
        case .duration: fits = ISODuration(text) != nil
        case .buttons, .chips, .valueList:
            let offered = (field.options ?? []).flatMap(\.options).map(\.value)
            fits = offered.isEmpty ? !k.multiple : offered.contains(text)
        case .slider, .attachments:
            fits = false
        }
        guard fits else {
            dropped(context, "its DefaultValue \"\(text)\" does not fit the property's type and facets")
            return nil
        }
        // Then the field's own rule, as a submission would meet the default: its message says why.
        var defaulted = field
        defaulted.defaultValue = text
        if let issue = defaulted.refusalOfDefault(offered: (field.options ?? []).flatMap(\.options)) {
            dropped(context, "its DefaultValue \"\(text)\" is refused by the field's own rule (\"\(issue.message)\")")
            return nil
        }
        return text
    }

    /// Reports a piece of a property's mapping that was left out.
    func dropped(_ context: PropertyContext, _ why: String) {
        report.warn(
            .mappingDropped,
            "\(shortTypeName(context.entityType))/\(context.property.name): \(why); that part is left out.",
            file: metadata.file, line: context.property.line)
    }

    func shortTypeName(_ name: String) -> String { Self.shortName(name) }

    /// A qualified name without its namespace (`ns.Product` → `Product`).
    static func shortName(_ name: String) -> String {
        name.lastIndex(ofASCII: UInt8(ascii: ".")).map { String(name[name.index(after: $0)...]) } ?? name
    }

    /// A label as written, or for an unresolved CAP text key (`{i18n>CreatedAt}`) its key in words.
    func label(_ text: String?) -> String? { label(text, nil) }

    /// The first of the labels, in the order they take precedence, that is text; failing that,
    /// the first text key in words. A key (`{@i18n>labelStatus}`) names a text in the app's
    /// translation files, which an import does not read: a label of the service further down
    /// (`sap:label="Status"`) says more than the key does.
    func label(_ first: String?, _ second: String?, _ third: String? = nil) -> String? {
        var key: String?
        for text in [first, second, third] {
            guard let text = nonEmpty(text) else { continue }
            guard let found = ODataFormMapper.textKey(text) else { return text }
            if key == nil { key = found }
        }
        return key.map { Words.fromIdentifier($0.split(separator: ".").joined(separator: " ")) }
    }

    /// A hint as written; an unresolved text key is no hint.
    func hint(_ text: String?) -> String? {
        guard let text = nonEmpty(text), ODataFormMapper.textKey(text) == nil else { return nil }
        return text
    }

    /// The key of a CAP text placeholder, `{i18n>Key}` or `{@i18n>Key}`: the service left it unresolved.
    static func textKey(_ text: String) -> String? {
        guard text.hasPrefix("{"), text.hasSuffix("}"), let arrow = text.firstIndex(ofASCII: UInt8(ascii: ">")) else {
            return nil
        }
        let bundle = text[text.index(after: text.startIndex)..<arrow]
        guard bundle == "i18n" || bundle == "@i18n" else { return nil }
        let key = text[text.index(after: arrow)..<text.index(before: text.endIndex)]
        return key.isEmpty ? nil : String(key)
    }

    func nonEmpty(_ text: String?) -> String? {
        guard let text else { return nil }
        // Almost every text starts with a visible ASCII character: decide on the bytes first.
        if let first = text.utf8.first, first > 0x20, first < 0x80 { return text }
        return text.contains(where: { !$0.isWhitespace }) ? text : nil
    }
}
