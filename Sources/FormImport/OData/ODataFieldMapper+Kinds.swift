import BoundedPatterns
import FormModel
import Foundation

/// A property's kind: the control it becomes, the rules of a text or a number, the options a
/// choice offers, and files.
extension ODataFormMapper {
    /// The control a type gives, and for a number its range; false for a type forms cannot hold.
    func chooseControl(
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
    func constrainText(
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
    func constrainNumber(
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
    func offerOptions(
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
    func enumOptions(_ enumType: EnumTypeDecl) -> [Option] {
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
    func takeFiles(
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
}
