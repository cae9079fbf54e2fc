import FormModel

/// A form's layout from its facets, the names it gives, and the rules that settle whether it
/// is sound.
extension ODataFormMapper {
    func collectFacets(
        _ items: [AnnotationValue], parentLabel: String?, into groups: inout [PendingGroup], tables: TypeTables
    ) {
        for item in items {
            guard let record = item.record, record.annotation(Term.hidden)?.staticBool != true else { continue }
            // As written: a text key gives way to a field group's label below.
            let written = nonEmpty(record["Label"]?.string)
            let label = self.label(written)
            if let nested = record["Facets"]?.collection {
                collectFacets(nested, parentLabel: label ?? parentLabel, into: &groups, tables: tables)
                continue
            }
            // A target through a navigation property (`_Item/@UI.LineItem`) shows another entity.
            guard case .annotationPath(let path)? = record["Target"], path.hasPrefix("@") else { continue }
            let reference = path.dropFirst()
            let term = String(reference.prefix { $0 != "#" })
            let qualifier = reference.utf8.firstIndex(of: UInt8(ascii: "#")).map {
                String(reference[reference.index(after: $0)...])
            }
            if term == Term.fieldGroup, let entry = typeAnnotation(Term.fieldGroup, tables, qualifier: qualifier) {
                let fieldGroup = entry.value.record
                groups.append(
                    PendingGroup(
                        label: self.label(written, fieldGroup?["Label"]?.string) ?? parentLabel,
                        items: dataFields(fieldGroup?["Data"]?.collection ?? [])))
            } else if term == Term.identification,
                let entry = typeAnnotation(Term.identification, tables, qualifier: qualifier)
            {
                groups.append(
                    PendingGroup(label: label ?? parentLabel, items: dataFields(entry.value.collection ?? [])))
            }
        }
    }

    /// The properties `UI.DataField` records show, with their labels; actions, annotation
    /// references, navigation paths and statically hidden entries are not fields.
    func dataFields(_ items: [AnnotationValue]) -> [(name: String, label: String?)] {
        items.compactMap { item in
            guard let record = item.record else { return nil }
            if let type = record.type, type.hasPrefix(Vocabulary.ui + ".DataFieldFor") { return nil }
            if record.annotation(Term.hidden)?.staticBool == true { return nil }
            guard let path = record["Value"]?.anyPath, !path.isEmpty, !path.contains(ascii: UInt8(ascii: "/")) else {
                return nil
            }
            // As written: a text key gives way to the property's own label (`describe`).
            return (path, nonEmpty(record["Label"]?.string))
        }
    }

    func isString(_ type: String) -> Bool {
        type == "Edm.String"
            || (!isUndeclaredPrimitive(type) && metadata.typeDefinitions[type]?.underlyingType == "Edm.String")
    }

    // MARK: Names

    /// Field names for properties: the property name when it is a valid field name, else one
    /// made valid (and reported); unique in the form.
    func fieldNames(_ properties: [PropertyDecl], typeName: String) -> [String] {
        var result = properties.map(\.name)
        // Property names are unique in a type; only a name made valid can clash.
        guard result.contains(where: { !FormSchema.isValidName($0) || $0 == "_csrf" }) else { return result }
        var taken = Set(result)
        for (i, property) in properties.enumerated()
        where !FormSchema.isValidName(property.name) || property.name == "_csrf" {
            var cleaned = ImportNames.valid(property.name)
            if cleaned == "_csrf" { cleaned = "csrf_" }
            let name = ImportNames.unique(cleaned, taken: taken)
            taken.insert(name)
            result[i] = name
            report.warn(
                .renamedField,
                "\(shortTypeName(typeName))/\(property.name) is not a valid field name; its field is named \(name).",
                file: metadata.file, line: property.line)
        }
        return result
    }

    // MARK: Rules

    /// The schema with anything that breaks `ruleViolations()` left out (each with a warning);
    /// skipped when the form itself cannot be sound.
    func settle(_ schema: FormSchema, set: EntitySetDecl) -> Settled {
        var schema = schema
        var leftOut: [String] = []
        for _ in 0..<8 {
            let issues = schema.ruleViolations()
            guard let issue = issues.first else { return .sound(schema, leftOut: leftOut) }
            guard let subject = issue.subject, schema.field(named: subject) != nil else {
                return .unsound("Its form would break a rule of every form: \(issue.message)")
            }
            leftOut.append(subject)
            report.warn(
                .ruleViolation, "\(set.name): the field \(subject) is left out: \(issue.message)",
                file: metadata.file, line: issue.location?.line ?? set.line)
            schema.removeField(named: subject)
        }
        let left = schema.ruleViolations()
        return left.isEmpty
            ? .sound(schema, leftOut: leftOut)
            : .unsound("Its form would break rules of every form: \(left.map(\.message).joined(separator: " "))")
    }

    enum Settled {
        /// The form, and the fields left out of it.
        case sound(FormSchema, leftOut: [String])
        case unsound(String)
    }
}
