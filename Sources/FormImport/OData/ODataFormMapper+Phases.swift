import FormModel

/// A form's phases: whether its set takes creates and what an insert requires, the annotated
/// groups placed, the fields required for create, units beside their amounts, updatability,
/// the key information chosen, the media field, and what the import report says of the draft.
extension ODataFormMapper {
    enum InsertRestrictions {
        case insertable(requiredProperties: Set<String>)
        case notInsertable(String)
    }

    /// Whether the set takes creates (`sap:creatable`, `Capabilities.InsertRestrictions/Insertable`),
    /// and the properties an insert requires (`RequiredProperties`).
    func insertRestrictions(of set: EntitySetDecl, target: String) -> InsertRestrictions {
        if isFalse(set.sap.creatable) { return .notInsertable("Not insertable: sap:creatable=\"false\".") }
        var required = Set<String>()
        if let restrictions = index.take(target, Term.insertRestrictions)?.value.record {
            if case .bool(false)? = restrictions["Insertable"] {
                return .notInsertable("Not insertable: Capabilities.InsertRestrictions/Insertable is false.")
            }
            for item in restrictions["RequiredProperties"]?.collection ?? [] {
                if let path = item.anyPath { required.insert(path) }
            }
        }
        return .insertable(requiredProperties: required)
    }

    /// The annotation tables of an entity type and its base types.
    struct TypeTables {
        let chain: [String]
        let tables: [AnnotationIndex.Table]
    }

    /// The annotation of a term on the type, else on the nearest base type that has one.
    func typeAnnotation(
        _ term: String, _ tables: TypeTables, qualifier: String? = nil
    ) -> AnnotationEntry? {
        for table in tables.tables {
            if let entry = index.take(table, term, qualifier: qualifier) { return entry }
        }
        return nil
    }

    /// The groups as the annotations lay them out. The header's field groups come first: Fiori
    /// elements makes them editable at the top of the object page in create mode. Without
    /// facets: the identification, then each field group; without those, every property.
    func annotatedGroups(_ tables: TypeTables) -> [PendingGroup] {
        var pending: [PendingGroup] = []
        if let header = typeAnnotation(Term.headerFacets, tables)?.value.collection {
            collectFacets(header, parentLabel: nil, into: &pending, tables: tables)
        }
        if let facets = typeAnnotation(Term.facets, tables)?.value.collection {
            collectFacets(facets, parentLabel: nil, into: &pending, tables: tables)
            return pending
        }
        if let identification = typeAnnotation(Term.identification, tables)?.value.collection {
            pending.append(PendingGroup(label: nil, items: dataFields(identification)))
        }
        var qualifiers = Set<String>()
        for target in tables.chain {
            for entry in index.takeAll(target, Term.fieldGroup) where qualifiers.insert(entry.qualifier ?? "").inserted
            {
                let record = entry.value.record
                pending.append(
                    PendingGroup(
                        label: label(record?["Label"]?.string) ?? entry.qualifier.map(Words.fromIdentifier),
                        items: dataFields(record?["Data"]?.collection ?? [])))
            }
        }
        if pending.isEmpty { pending.append(PendingGroup(label: nil, items: [], allProperties: true)) }
        return pending
    }

    /// Maps the properties the groups name, each in its first place; notes and attachments go
    /// to the accessory area, amounts note the property holding their unit.
    func place(_ pending: [PendingGroup], in draft: inout FormDraft) {
        draft.laidOut = !pending.contains { $0.allProperties }
        for group in pending {
            var members: [Int] = []
            let items: [(index: Int?, name: String, label: String?)] =
                group.allProperties
                ? draft.layout.properties.indices.map { ($0, "", nil) } : group.items.map { (nil, $0.name, $0.label) }
            for item in items {
                let position =
                    item.index.map { field(at: $0, label: nil, in: &draft) }
                    ?? field(item.name, label: item.label, in: &draft)
                guard let i = position, !draft.placed[i] else { continue }
                draft.placed[i] = true
                let extras = draft.extrasOf[i]!
                if extras.accessory { draft.accessory.append(i) } else { members.append(i) }
                if let unit = extras.unitProperty { draft.units.append((i, unit, extras.unitIsCurrency)) }
            }
            draft.groups.append((group.label, members))
        }
    }

    /// The properties a create requires (static `Common.FieldControl` Mandatory,
    /// `Capabilities.InsertRestrictions/RequiredProperties`) that the annotated layout leaves out:
    /// fields all the same, after its groups in a group of their own, so that a created object
    /// can be valid. Keys are left to the key information. Returns the positions added.
    func addRequiredForCreate(in draft: inout FormDraft) -> [Int] {
        guard draft.laidOut else { return [] }
        var added: [Int] = []
        var members: [Int] = []
        for i in draft.layout.properties.indices where !draft.placed[i] && !draft.layout.isKey[i] {
            guard isRequiredForCreate(i, draft), field(at: i, label: nil, in: &draft) != nil,
                draft.editables[i] != .no
            else { continue }
            draft.placed[i] = true
            added.append(i)
            let extras = draft.extrasOf[i]!
            if extras.accessory { draft.accessory.append(i) } else { members.append(i) }
            if let unit = extras.unitProperty { draft.units.append((i, unit, extras.unitIsCurrency)) }
        }
        if !members.isEmpty { draft.groups.append((Self.requiredGroupLabel, members)) }
        return added
    }

    /// Whether the service requires a property for a create, judged before it is mapped (its
    /// annotations are looked at, not marked read: most such properties are not fields).
    func isRequiredForCreate(_ i: Int, _ draft: FormDraft) -> Bool {
        let property = draft.layout.properties[i]
        if !draft.requiredOnInsert.isEmpty && draft.requiredOnInsert.contains(property.name) { return true }
        var targets: [String] = []
        if draft.layout.membersAnnotated { targets.append(draft.typeName + "/" + property.name) }
        if property.declaringType != draft.typeName, index.annotatesMembers(of: property.declaringType) {
            targets.append(property.declaringType + "/" + property.name)
        }
        for target in targets {
            guard let table = index.table(target) else { continue }
            if let entry = index.peek(table, Term.fieldControl) { return FieldControl(entry.value) == .mandatory }
        }
        return false
    }

    /// A unit kept in another property stays a field of its own, beside its amount, and the
    /// amount's hint says where the unit is given (for the amounts from `start` on).
    func placeUnits(in draft: inout FormDraft, from start: Int) {
        for (amount, unit, currency) in draft.units[start...] {
            guard let (g, m) = draft.locate(amount), let u = position(of: unit, in: &draft.layout) else { continue }
            if !draft.placed[u] {
                guard let u = field(unit, label: nil, in: &draft), !draft.extrasOf[u]!.accessory else { continue }
                draft.placed[u] = true
                draft.groups[g].members.insert(u, at: m + 1)
            } else if !draft.isField[u] {
                continue
            }
            let isCurrency = currency || draft.layout.properties[u].sap.semantics == "currency-code"
            let note = "In the \(isCurrency ? "currency" : "unit") given in \(draft.fields[u]!.label ?? unit)."
            if let hint = draft.fields[amount]!.hint?.trimmingASCIIWhitespace, !hint.isEmpty {
                draft.fields[amount]!.hint = (hint.hasSuffix(".") ? hint : hint + ".") + " " + note
            } else {
                draft.fields[amount]!.hint = note
            }
        }
    }

    /// Whether the set's objects can be updated (`sap:updatable="false"` on the set, or
    /// `Capabilities.UpdateRestrictions/Updatable` false, say they cannot).
    func isUpdatable(_ set: EntitySetDecl, target: String) -> Bool {
        var updatable = !isFalse(set.sap.updatable)
        if let restrictions = index.take(target, Term.updateRestrictions)?.value.record,
            case .bool(false)? = restrictions["Updatable"]
        {
            updatable = false
        }
        return updatable
    }

    /// What the form of a set that cannot be updated creates is final: every field a user
    /// enters is create-only.
    func makeCreateOnly(_ draft: inout FormDraft) {
        for i in draft.fields.indices where draft.editables[i] == .yes {
            draft.editables[i] = .createOnly
            draft.fields[i]!.editable = .createOnly
        }
    }

    /// The key information: the header's title, else the first editable string property, then
    /// the keys a user enters that the layout left out.
    func chooseKeyInformation(title: String?, in draft: inout FormDraft) {
        if let title, !title.contains(ascii: UInt8(ascii: "/")), let i = field(title, label: nil, in: &draft),
            draft.editables[i] != .no
        {
            if !draft.takeOut(i), !draft.placed[i], !draft.extrasOf[i]!.accessory {
                draft.placed[i] = true
                draft.keyMembers.append(i)
            }
        }
        if draft.keyMembers.isEmpty { chooseKeyFallback(in: &draft) }
        for i in draft.layout.properties.indices where draft.layout.isKey[i] {
            guard field(at: i, label: nil, in: &draft) != nil, !draft.placed[i], !draft.extrasOf[i]!.accessory,
                draft.editables[i] != .no
            else { continue }
            draft.placed[i] = true
            draft.keyMembers.append(i)
        }
    }

    /// Without a header title: the first editable string property in declaration order,
    /// wherever the layout put it; else the first one-line field of the layout, else its first field.
    func chooseKeyFallback(in draft: inout FormDraft) {
        let properties = draft.layout.properties
        let stringProperty = properties.indices.first { i in
            guard isString(properties[i].type), field(at: i, label: nil, in: &draft) != nil else { return false }
            return draft.kinds[i] == .text && draft.editables[i] != .no && !draft.extrasOf[i]!.accessory
        }
        let grouped = draft.groups.flatMap(\.members)
        if let i = stringProperty {
            if !draft.takeOut(i) {
                draft.placed[i] = true
                draft.keyMembers.append(i)
            }
        } else if let i = grouped.first(where: { Self.suitsKey(draft.kinds[$0]) && draft.editables[$0] != .no })
            ?? grouped.first(where: { draft.kinds[$0] != .switch && draft.editables[$0] != .no }) ?? grouped.first
        {
            _ = draft.takeOut(i)
        } else if !draft.accessory.isEmpty {
            draft.keyMembers.append(draft.accessory.removeFirst())
        }
    }

    /// A media entity is created by uploading its file: a required attachments field.
    func mediaField(of type: StructuredTypeDecl, layout: TypeLayout, _ tables: TypeTables) -> Field? {
        guard layout.chain.contains(where: { metadata.types[$0]?.hasStream == true }) else { return nil }
        var file = Field(
            name: ImportNames.unique("file", taken: Set(layout.fieldNames)), kind: .attachments, label: "File",
            required: true,
            constraints: Constraints(maxCount: 1), location: SourceLocation(line: type.line))
        let acceptable = (typeAnnotation(Term.acceptableMediaTypes, tables)?.value.collection ?? []).compactMap(
            \.string)
        file.constraints.accept = acceptedTypes(acceptable) { why in
            report.warn(
                .mappingDropped, "\(shortTypeName(type.name)) (its file): \(why); that part is left out.",
                file: metadata.file,
                line: type.line)
        }
        return file
    }

    /// What the report says about this form: properties it cannot hold, field controls and
    /// `UI.Hidden` decided at run time, layout paths that name nothing, fields a create requires.
    ///
    /// The text is built only when a warning is printed, from closures that capture plain values,
    /// never `self`: the report keeps them, and the report is the mapper's (a cycle would keep
    /// the whole model alive after the import).
    func reportDraft(_ draft: FormDraft, set: EntitySetDecl, target: String, formID: String, added: [Int]) {
        let placeParts = (set: set.name, type: Self.shortName(draft.typeName))
        var place: String { "\(placeParts.set) (\(placeParts.type))" }
        if !draft.unsupported.isEmpty {
            let unsupported = draft.unsupported
            report.tally(.unsupportedType, key: target, file: metadata.file, line: set.line, count: unsupported.count) {
                count in
                "\(place): \(Words.count(count, "property", plural: "properties")) cannot be a field yet and \(count == 1 ? "is" : "are") left out: \(Words.list(unsupported))."
            }
        }
        if !draft.dynamicControl.isEmpty {
            let dynamicControl = draft.dynamicControl
            report.tally(
                .dynamicFieldControl, key: target, file: metadata.file, line: set.line, count: dynamicControl.count
            ) { _ in
                "\(place): the field control of \(Words.list(dynamicControl)) is a path evaluated at run time; \(dynamicControl.count == 1 ? "it stays" : "they stay") optional and editable."
            }
        }
        if !draft.dynamicHidden.isEmpty {
            let dynamicHidden = draft.dynamicHidden
            report.tally(.dynamicHidden, key: target, file: metadata.file, line: set.line, count: dynamicHidden.count) {
                _ in
                "\(place): UI.Hidden of \(Words.list(dynamicHidden)) is a path evaluated at run time; \(dynamicHidden.count == 1 ? "it stays" : "they stay") shown."
            }
        }
        if !draft.unknownPaths.isEmpty {
            let unknownPaths = draft.unknownPaths
            report.tally(.unknownPath, key: target, file: metadata.file, line: set.line, count: unknownPaths.count) {
                _ in
                "\(place): the layout names \(Words.list(unknownPaths)), which \(unknownPaths.count == 1 ? "is not a property" : "are not properties") of \(placeParts.type); left out."
            }
        }
        if !added.isEmpty {
            let names = added.map { draft.layout.fieldNames[$0] }
            let group = Self.requiredGroupLabel
            report.tally(
                .requiredForCreate, key: formID, file: metadata.file, line: set.line, form: formID, count: names.count
            ) { _ in
                "\(place): the service requires \(Words.list(names)) to create one (Common.FieldControl Mandatory or Capabilities.InsertRestrictions/RequiredProperties), but the layout leaves \(names.count == 1 ? "it" : "them") out; \(names.count == 1 ? "it is" : "they are") added after its groups, under \"\(group)\". To place \(names.count == 1 ? "it" : "them") yourself, add \(names.count == 1 ? "it" : "them") to a UI.FieldGroup the facets show."
            }
        }
    }
}
