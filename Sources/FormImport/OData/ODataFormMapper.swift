import FormModel

/// Turns the entity sets of an OData model into forms, one per creatable entity set
/// (docs/odata.md, "Forms" and "Fields"). Never fails: a piece that cannot be mapped is left out with a
/// warning, and an entity set that gives no sound form is skipped with the reason.
final class ODataFormMapper {
    let model: ODataModel
    let metadata: CSDLDocument
    // Unchecked: every access is a leaf call on one thread, never overlapping another, and the
    // dynamic check on each annotation look-up costs more than the look-up.
    @exclusivity(unchecked) var index: AnnotationIndex
    @exclusivity(unchecked) var report: ODataReport
    /// Whether the metadata declares a type in the `Edm` namespace (no valid document does):
    /// else a property of an `Edm.` type needs no look-up among the declared types.
    private let declaresEdmTypes: Bool

    init(model: ODataModel, index: AnnotationIndex, report: ODataReport) {
        self.model = model
        self.metadata = model.metadata
        self.index = index
        self.report = report
        let metadata = model.metadata
        declaresEdmTypes =
            metadata.types.keys.contains { $0.hasPrefix("Edm.") }
            || metadata.enums.keys.contains { $0.hasPrefix("Edm.") }
            || metadata.typeDefinitions.keys.contains { $0.hasPrefix("Edm.") }
    }

    /// Whether a type name is a primitive type that names no declared type.
    func isUndeclaredPrimitive(_ type: String) -> Bool {
        guard !declaresEdmTypes else { return false }
        var type = type
        return type.withUTF8 {
            $0.count > 4 && $0[0] == UInt8(ascii: "E") && $0[1] == UInt8(ascii: "d") && $0[2] == UInt8(ascii: "m")
                && $0[3] == UInt8(ascii: ".")
        }
    }

    enum Outcome {
        case form(FormSchema)
        /// Why the entity set gives no form.
        case skipped(String)
    }

    /// A group as the annotations lay it out, before its properties are mapped.
    private struct PendingGroup {
        var label: String?
        /// Property names with the `Label` of the `UI.DataField` that placed them.
        var items: [(name: String, label: String?)]
        /// Without annotations: every property, by position.
        var allProperties = false
    }

    /// What the mapper knows of one entity type, worked out once for every set of that type.
    private struct TypeLayout {
        var properties: [PropertyDecl]
        var isKey: [Bool]
        /// Field name per property, in property order.
        var fieldNames: [String]
        var chain: [String]
        /// Property name → position, built on first use (a layout without annotations never needs it).
        var position: [String: Int]?
        /// Whether any annotation targets a member of the type.
        var membersAnnotated: Bool
    }

    private var layouts: [String: TypeLayout] = [:]

    private func layout(of typeName: String) -> TypeLayout {
        if let known = layouts[typeName] { return known }
        var properties = model.properties(of: typeName)
        // A type that declares a property twice is not valid CSDL; its fields would share a name
        // (the fuzzer found it). The first declaration is kept.
        var names = Set<String>()
        if properties.contains(where: { !names.insert($0.name).inserted }) {
            names = []
            properties = properties.filter { property in
                if names.insert(property.name).inserted { return true }
                report.warn(
                    .mappingDropped,
                    "\(shortTypeName(typeName))/\(property.name) is declared twice; the second declaration is left out.",
                    file: metadata.file, line: property.line)
                return false
            }
        }
        let keys = model.keys(of: typeName)
        let layout = TypeLayout(
            properties: properties, isKey: properties.map { keys.contains($0.name) },
            fieldNames: fieldNames(properties, typeName: typeName), chain: model.typeChainNames(typeName),
            membersAnnotated: index.annotatesMembers(of: typeName))
        layouts[typeName] = layout
        return layout
    }

    /// The position of a property by name.
    private func position(of name: String, in layout: inout TypeLayout) -> Int? {
        if layout.position == nil {
            var position: [String: Int] = [:]
            for (i, property) in layout.properties.enumerated() where position[property.name] == nil {
                position[property.name] = i
            }
            layout.position = position
        }
        return layout.position![name]
    }

    /// Kinds that make a key information cell: one line a user types or picks, not a switch,
    /// a set of buttons or chips, a note or files.
    static func suitsKey(_ kind: FieldKind) -> Bool {
        switch kind {
        case .text, .number, .date, .time, .datetime, .duration, .valueList: true
        case .note, .buttons, .chips, .switch, .slider, .attachments: false
        }
    }

    /// The form of one entity set, or why there is none.
    func form(for set: EntitySetDecl, id: String) -> Outcome {
        let typeName = set.entityType
        guard let type = metadata.types[typeName], !type.isComplex else {
            return .skipped("Its entity type \(typeName) is not declared in the metadata.")
        }
        let setTarget = set.container + "/" + set.name
        if isFalse(set.sap.creatable) { return .skipped("Not insertable: sap:creatable=\"false\".") }
        var requiredOnInsert = Set<String>()
        if let restrictions = index.take(setTarget, Term.insertRestrictions)?.value.record {
            if case .bool(false)? = restrictions["Insertable"] {
                return .skipped("Not insertable: Capabilities.InsertRestrictions/Insertable is false.")
            }
            for item in restrictions["RequiredProperties"]?.collection ?? [] {
                if let path = item.anyPath { requiredOnInsert.insert(path) }
            }
        }

        let layout = layout(of: typeName)
        let properties = layout.properties
        let chain = layout.chain
        // The chain's tables, found once: each look-up by target hashes the whole type name.
        let chainTables = chain.compactMap { index.table($0) }
        func typeAnnotation(_ term: String, qualifier: String? = nil) -> AnnotationEntry? {
            for table in chainTables {
                if let entry = index.take(table, term, qualifier: qualifier) { return entry }
            }
            return nil
        }

        // The groups, as the annotations lay them out. The header's field groups come first:
        // Fiori elements makes them editable at the top of the object page in create mode.
        var pending: [PendingGroup] = []
        if let header = typeAnnotation(Term.headerFacets)?.value.collection {
            collectFacets(header, parentLabel: nil, into: &pending, typeAnnotation: typeAnnotation)
        }
        if let facets = typeAnnotation(Term.facets)?.value.collection {
            collectFacets(facets, parentLabel: nil, into: &pending, typeAnnotation: typeAnnotation)
        } else {
            if let identification = typeAnnotation(Term.identification)?.value.collection {
                pending.append(PendingGroup(label: nil, items: dataFields(identification)))
            }
            var qualifiers = Set<String>()
            for target in chain {
                for entry in index.takeAll(target, Term.fieldGroup)
                where qualifiers.insert(entry.qualifier ?? "").inserted {
                    let record = entry.value.record
                    pending.append(
                        PendingGroup(
                            label: label(record?["Label"]?.string) ?? entry.qualifier.map(Words.fromIdentifier),
                            items: dataFields(record?["Data"]?.collection ?? [])))
                }
            }
            if pending.isEmpty {
                pending.append(PendingGroup(label: nil, items: [], allProperties: true))
            }
        }

        var draft = FormDraft(typeName: typeName, layout: layout, requiredOnInsert: requiredOnInsert)
        var groups: [(label: String?, members: [Int])] = []
        var accessory: [Int] = []
        var units: [(amount: Int, unit: String, currency: Bool)] = []
        for group in pending {
            var members: [Int] = []
            let items: [(index: Int?, name: String, label: String?)] =
                group.allProperties
                ? properties.indices.map { ($0, "", nil) } : group.items.map { (nil, $0.name, $0.label) }
            for item in items {
                let position =
                    item.index.map { field(at: $0, label: nil, in: &draft) }
                    ?? field(item.name, label: item.label, in: &draft)
                guard let i = position, !draft.placed[i] else { continue }
                draft.placed[i] = true
                let extras = draft.extrasOf[i]!
                if extras.accessory { accessory.append(i) } else { members.append(i) }
                if let unit = extras.unitProperty { units.append((i, unit, extras.unitIsCurrency)) }
            }
            groups.append((group.label, members))
        }
        func locate(_ i: Int) -> (Int, Int)? {
            for (g, group) in groups.enumerated() {
                if let m = group.members.firstIndex(of: i) { return (g, m) }
            }
            return nil
        }

        // A unit kept in another property stays a field of its own, beside its amount.
        for (amount, unit, currency) in units {
            guard let (g, m) = locate(amount), let u = position(of: unit, in: &draft.layout) else { continue }
            if !draft.placed[u] {
                guard let u = field(unit, label: nil, in: &draft), !draft.extrasOf[u]!.accessory else { continue }
                draft.placed[u] = true
                groups[g].members.insert(u, at: m + 1)
            } else if !draft.isField[u] {
                continue
            }
            let isCurrency = currency || properties[u].sap.semantics == "currency-code"
            let note = "In the \(isCurrency ? "currency" : "unit") given in \(draft.fields[u]!.label ?? unit)."
            if let hint = draft.fields[amount]!.hint?.trimmingASCIIWhitespace, !hint.isEmpty {
                draft.fields[amount]!.hint = (hint.hasSuffix(".") ? hint : hint + ".") + " " + note
            } else {
                draft.fields[amount]!.hint = note
            }
        }

        // A set whose objects cannot be updated (`sap:updatable="false"` on the set, or
        // `Capabilities.UpdateRestrictions/Updatable` false): what the form creates is final, so
        // every field it lets a user enter is create-only.
        var updatable = !isFalse(set.sap.updatable)
        if let restrictions = index.take(setTarget, Term.updateRestrictions)?.value.record,
            case .bool(false)? = restrictions["Updatable"]
        {
            updatable = false
        }
        if !updatable {
            for i in draft.fields.indices where draft.editables[i] == .yes {
                draft.editables[i] = .createOnly
                draft.fields[i]!.editable = .createOnly
            }
        }

        // The key information: the header's title, else the first editable string property,
        // then the keys a user enters and the properties an insert requires when the layout left them out.
        let header = typeAnnotation(Term.headerInfo)?.value.record
        var keyMembers: [Int] = []
        func takeOut(_ i: Int) -> Bool {
            guard let (g, m) = locate(i) else { return false }
            groups[g].members.remove(at: m)
            keyMembers.append(i)
            return true
        }
        if let title = header?["Title"]?.record?["Value"]?.anyPath, !title.contains(ascii: UInt8(ascii: "/")),
            let i = field(title, label: nil, in: &draft), draft.editables[i] != .no
        {
            if !takeOut(i), !draft.placed[i], !draft.extrasOf[i]!.accessory {
                draft.placed[i] = true
                keyMembers.append(i)
            }
        }
        if keyMembers.isEmpty {
            // The first editable string property, in declaration order, wherever the layout put it.
            let stringProperty = properties.indices.first { i in
                guard isString(properties[i].type), field(at: i, label: nil, in: &draft) != nil else { return false }
                return draft.kinds[i] == .text && draft.editables[i] != .no && !draft.extrasOf[i]!.accessory
            }
            let grouped = groups.flatMap(\.members)
            if let i = stringProperty {
                if !takeOut(i) {
                    draft.placed[i] = true
                    keyMembers.append(i)
                }
            } else if let i = grouped.first(where: { Self.suitsKey(draft.kinds[$0]) && draft.editables[$0] != .no })
                ?? grouped.first(where: { draft.kinds[$0] != .switch && draft.editables[$0] != .no }) ?? grouped.first
            {
                _ = takeOut(i)
            } else if !accessory.isEmpty {
                keyMembers.append(accessory.removeFirst())
            }
        }
        for (i, property) in properties.enumerated()
        where layout.isKey[i] || (!requiredOnInsert.isEmpty && requiredOnInsert.contains(property.name)) {
            guard field(at: i, label: nil, in: &draft) != nil, !draft.placed[i], !draft.extrasOf[i]!.accessory,
                draft.editables[i] != .no
            else { continue }
            draft.placed[i] = true
            keyMembers.append(i)
        }

        // A media entity is created by uploading its file.
        var media: Field?
        if chain.contains(where: { metadata.types[$0]?.hasStream == true }) {
            var file = Field(
                name: uniqueName("file", taken: Set(layout.fieldNames)), kind: .attachments, label: "File",
                required: true,
                constraints: Constraints(maxCount: 1), location: SourceLocation(line: type.line))
            let acceptable = (typeAnnotation(Term.acceptableMediaTypes)?.value.collection ?? []).compactMap(\.string)
            file.constraints.accept = acceptedTypes(acceptable) { why in
                report.warn(
                    .mappingDropped, "\(shortTypeName(type.name)) (its file): \(why); that part is left out.",
                    file: metadata.file,
                    line: type.line)
            }
            media = file
        }

        // What the report says about this form (the text only when there is something to say).
        // Built only when a warning needs it, and capturing plain values, never `self`: the
        // report keeps these closures, and the report is the mapper's (a cycle would keep the
        // whole model alive after the import).
        let placeParts = (set: set.name, type: Self.shortName(typeName))
        var place: String { "\(placeParts.set) (\(placeParts.type))" }
        if !draft.unsupported.isEmpty {
            let unsupported = draft.unsupported
            report.tally(
                .unsupportedType, key: setTarget, file: metadata.file, line: set.line, count: unsupported.count
            ) { count in
                "\(place): \(Words.count(count, "property", plural: "properties")) cannot be a field yet and \(count == 1 ? "is" : "are") left out: \(Words.list(unsupported))."
            }
        }
        if !draft.dynamicControl.isEmpty {
            let dynamicControl = draft.dynamicControl
            report.tally(
                .dynamicFieldControl, key: setTarget, file: metadata.file, line: set.line, count: dynamicControl.count
            ) { _ in
                "\(place): the field control of \(Words.list(dynamicControl)) is a path evaluated at run time; \(dynamicControl.count == 1 ? "it stays" : "they stay") optional and editable."
            }
        }
        if !draft.dynamicHidden.isEmpty {
            let dynamicHidden = draft.dynamicHidden
            report.tally(
                .dynamicHidden, key: setTarget, file: metadata.file, line: set.line, count: dynamicHidden.count
            ) { _ in
                "\(place): UI.Hidden of \(Words.list(dynamicHidden)) is a path evaluated at run time; \(dynamicHidden.count == 1 ? "it stays" : "they stay") shown."
            }
        }
        if !draft.unknownPaths.isEmpty {
            let unknownPaths = draft.unknownPaths
            report.tally(.unknownPath, key: setTarget, file: metadata.file, line: set.line, count: unknownPaths.count) {
                _ in
                "\(place): the layout names \(Words.list(unknownPaths)), which \(unknownPaths.count == 1 ? "is not a property" : "are not properties") of \(placeParts.type); left out."
            }
        }

        layouts[typeName] = draft.layout

        // Sections.
        groups.removeAll { $0.members.isEmpty }
        let all = keyMembers + groups.flatMap(\.members) + accessory
        guard all.contains(where: { draft.editables[$0] != .no }) || media != nil else {
            return .skipped(
                "None of its properties can be entered: they are computed, hidden, read-only or of types forms cannot hold yet."
            )
        }
        if media == nil && !all.contains(where: { draft.requireds[$0] }) {
            // Not one whose field control is decided at run time: that one was left optional on purpose.
            guard
                let i = all.first(where: {
                    draft.isEnterable($0) && !draft.dynamicControl.contains(properties[$0].name)
                })
                    ?? all.first(where: { draft.isEnterable($0) })
            else {
                return .skipped(
                    "None of its fields can be required (only switches can be entered), and a form needs a required field."
                )
            }
            draft.fields[i]!.required = true
            report.warn(
                .requiredAdded,
                "\(place): no property is required, but a form needs a required field; \(draft.fields[i]!.name) (the first one to enter) is made required.",
                file: metadata.file, line: set.line)
        }
        if keyMembers.isEmpty, !groups.isEmpty {
            // A single-line field suits the key information best; else the first of the layout.
            var (g, m) = (0, 0)
            for candidate in groups.indices {
                if let member = groups[candidate].members.firstIndex(where: { Self.suitsKey(draft.kinds[$0]) }) {
                    (g, m) = (candidate, member)
                    break
                }
            }
            keyMembers.append(groups[g].members.remove(at: m))
            groups.removeAll { $0.members.isEmpty }
        }

        var sections: [FormSection] = []
        var lists: [OptionList] = []
        var keyFields = draft.take(keyMembers, lists: &lists)
        var accessoryFields = draft.take(accessory, lists: &lists)
        if let media {
            if keyFields.isEmpty { keyFields.append(media) } else { accessoryFields.append(media) }
        }
        if !keyFields.isEmpty { sections.append(FormSection(kind: .key, groups: [FieldGroup(fields: keyFields)])) }
        if !groups.isEmpty {
            sections.append(
                FormSection(
                    kind: .properties,
                    groups: groups.map { FieldGroup(label: $0.label, fields: draft.take($0.members, lists: &lists)) }))
        }
        if !accessoryFields.isEmpty {
            sections.append(FormSection(kind: .accessory, groups: [FieldGroup(fields: accessoryFields)]))
        }

        let object =
            label(header?["TypeName"]?.string) ?? label(typeAnnotation(Term.label)?.value.string) ?? label(
                type.sap.label)
            ?? Words.fromIdentifier(shortTypeName(typeName))
        let schema = FormSchema(id: id, title: "New \(object)", object: object, sections: sections, lists: lists)
        // Everything else is sound by construction (tests hold every form of the corpus to
        // `ruleViolations()`); values taken freely from annotations are checked here.
        #if DEBUG
        return settle(schema, set: set)
        #else
        return draft.freeValues || media != nil ? settle(schema, set: set) : .form(schema)
        #endif
    }

    /// One form's fields while they are mapped, by property position. Kept in a struct passed
    /// `inout` rather than in local variables of `form(for:id:)` that nested functions capture:
    /// a captured variable is checked for exclusive access at run time on every use.
    private struct FormDraft {
        let typeName: String
        var layout: TypeLayout
        /// `Capabilities.InsertRestrictions/RequiredProperties`.
        let requiredOnInsert: Set<String>
        /// Fields, held by property position until the sections are put together.
        var fields: [Field?]
        // What the form's checks read of each field, kept apart so they never copy a Field.
        var kinds: [FieldKind]
        var editables: [Editability]
        var requireds: [Bool]
        var extrasOf: [MappedExtras?]
        var mappedYet: [Bool]
        /// Whether `fields` holds a field at a position (asked without touching the large Field).
        var isField: [Bool]
        /// Whether a field has its place in the form yet.
        var placed: [Bool]
        var unsupported: [String] = []
        var unknownPaths: [String] = []
        var dynamicControl: [String] = []
        var dynamicHidden: [String] = []
        /// Whether a field took values written freely in the annotations (`MappedExtras.freeValues`).
        var freeValues = false

        init(typeName: String, layout: TypeLayout, requiredOnInsert: Set<String>) {
            self.typeName = typeName
            self.layout = layout
            self.requiredOnInsert = requiredOnInsert
            let count = layout.properties.count
            fields = Array(repeating: nil, count: count)
            kinds = Array(repeating: .text, count: count)
            editables = Array(repeating: .no, count: count)
            requireds = Array(repeating: false, count: count)
            extrasOf = Array(repeating: nil, count: count)
            mappedYet = Array(repeating: false, count: count)
            isField = Array(repeating: false, count: count)
            placed = Array(repeating: false, count: count)
        }

        /// Whether a user can enter the field at a position (a switch needs no entering).
        func isEnterable(_ i: Int) -> Bool { kinds[i] != .switch && editables[i] != .no }

        /// Moves the fields at the positions out, noting the option lists they name.
        mutating func take(_ members: [Int], lists: inout [OptionList]) -> [Field] {
            members.map { i in
                let field = fields[i].take()!
                if let list = field.list {
                    lists.append(OptionList(id: list, groups: [], external: true, location: field.location))
                }
                return field
            }
        }
    }

    /// The position of a property that is a field, mapping it on first use.
    private func field(_ name: String, label: String?, in draft: inout FormDraft) -> Int? {
        guard let i = position(of: name, in: &draft.layout) else {
            if !draft.unknownPaths.contains(name) { draft.unknownPaths.append(name) }
            return nil
        }
        return field(at: i, label: label, in: &draft)
    }

    /// The position of a property that is a field, by position, mapping it on first use.
    private func field(at i: Int, label: String?, in draft: inout FormDraft) -> Int? {
        if !draft.mappedYet[i] {
            draft.mappedYet[i] = true
            let property = draft.layout.properties[i]
            let name = property.name
            // The field is made in its place: a Field is large, and copying it costs.
            let result = mapProperty(
                PropertyContext(
                    property: property, entityType: draft.typeName,
                    entityTypeMembersAnnotated: draft.layout.membersAnnotated,
                    isKey: draft.layout.isKey[i],
                    requiredOnInsert: !draft.requiredOnInsert.isEmpty && draft.requiredOnInsert.contains(name),
                    dataFieldLabel: label, fieldName: draft.layout.fieldNames[i]),
                into: &draft.fields[i])
            switch result {
            case .unsupported(let why):
                draft.unsupported.append("\(name) (\(why))")
            case .field(let extras):
                draft.isField[i] = true
                draft.kinds[i] = extras.kind
                draft.editables[i] = extras.editable
                draft.requireds[i] = extras.required
                draft.extrasOf[i] = extras
                if extras.freeValues { draft.freeValues = true }
                if extras.dynamicFieldControl { draft.dynamicControl.append(name) }
                if extras.dynamicHidden { draft.dynamicHidden.append(name) }
            case .notAField:
                break
            }
        }
        return draft.isField[i] ? i : nil
    }

    // MARK: Layout

    private func collectFacets(
        _ items: [AnnotationValue], parentLabel: String?, into groups: inout [PendingGroup],
        typeAnnotation: (String, String?) -> AnnotationEntry?
    ) {
        for item in items {
            guard let record = item.record, record.annotation(Term.hidden)?.staticBool != true else { continue }
            let label = self.label(record["Label"]?.string)
            if let nested = record["Facets"]?.collection {
                collectFacets(nested, parentLabel: label ?? parentLabel, into: &groups, typeAnnotation: typeAnnotation)
                continue
            }
            // A target through a navigation property (`_Item/@UI.LineItem`) shows another entity.
            guard case .annotationPath(let path)? = record["Target"], path.hasPrefix("@") else { continue }
            let reference = path.dropFirst()
            let term = String(reference.prefix { $0 != "#" })
            let qualifier = reference.utf8.firstIndex(of: UInt8(ascii: "#")).map {
                String(reference[reference.index(after: $0)...])
            }
            if term == Term.fieldGroup, let entry = typeAnnotation(Term.fieldGroup, qualifier) {
                let fieldGroup = entry.value.record
                groups.append(
                    PendingGroup(
                        label: label ?? self.label(fieldGroup?["Label"]?.string) ?? parentLabel,
                        items: dataFields(fieldGroup?["Data"]?.collection ?? [])))
            } else if term == Term.identification, let entry = typeAnnotation(Term.identification, qualifier) {
                groups.append(
                    PendingGroup(label: label ?? parentLabel, items: dataFields(entry.value.collection ?? [])))
            }
        }
    }

    /// The properties `UI.DataField` records show, with their labels; actions, annotation
    /// references, navigation paths and statically hidden entries are not fields.
    private func dataFields(_ items: [AnnotationValue]) -> [(name: String, label: String?)] {
        items.compactMap { item in
            guard let record = item.record else { return nil }
            if let type = record.type, type.hasPrefix(Vocabulary.ui + ".DataFieldFor") { return nil }
            if record.annotation(Term.hidden)?.staticBool == true { return nil }
            guard let path = record["Value"]?.anyPath, !path.isEmpty, !path.contains(ascii: UInt8(ascii: "/")) else {
                return nil
            }
            return (path, label(record["Label"]?.string))
        }
    }

    private func isString(_ type: String) -> Bool {
        type == "Edm.String"
            || (!isUndeclaredPrimitive(type) && metadata.typeDefinitions[type]?.underlyingType == "Edm.String")
    }

    // MARK: Names

    /// Field names for properties: the property name when it is a valid field name, else one
    /// made valid (and reported); unique in the form.
    private func fieldNames(_ properties: [PropertyDecl], typeName: String) -> [String] {
        var result = properties.map(\.name)
        // Property names are unique in a type; only a name made valid can clash.
        guard result.contains(where: { !ODataFormMapper.isPlainName($0) || $0 == "_csrf" }) else { return result }
        var taken = Set(result)
        for (i, property) in properties.enumerated()
        where !ODataFormMapper.isPlainName(property.name) || property.name == "_csrf" {
            var cleaned = String(
                String.UnicodeScalarView(
                    property.name.unicodeScalars.map {
                        $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) ? $0 : "_"
                    }))
            if cleaned.first.map({ !$0.isLetter && $0 != "_" }) ?? true { cleaned = "_" + cleaned }
            if cleaned == "_csrf" { cleaned = "csrf_" }
            let name = uniqueName(cleaned, taken: taken)
            taken.insert(name)
            result[i] = name
            report.warn(
                .renamedField,
                "\(shortTypeName(typeName))/\(property.name) is not a valid field name; its field is named \(name).",
                file: metadata.file, line: property.line)
        }
        return result
    }

    /// `FormSchema.isValidName`, decided on the bytes: `[A-Za-z_][A-Za-z0-9_]*`.
    static func isPlainName(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { bytes in
            guard let first = bytes.first,
                first == UInt8(ascii: "_") || (first | 0x20 >= UInt8(ascii: "a") && first | 0x20 <= UInt8(ascii: "z"))
            else { return false }
            return bytes.allSatisfy {
                $0 == UInt8(ascii: "_") || ($0 | 0x20 >= UInt8(ascii: "a") && $0 | 0x20 <= UInt8(ascii: "z"))
                    || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
            }
        }
    }

    private func uniqueName(_ base: String, taken: Set<String>) -> String {
        guard taken.contains(base) else { return base }
        var n = 2
        while taken.contains("\(base)_\(n)") { n += 1 }
        return "\(base)_\(n)"
    }

    // MARK: Rules

    /// The schema with anything that breaks `ruleViolations()` left out (each with a warning);
    /// skipped when the form itself cannot be sound.
    private func settle(_ schema: FormSchema, set: EntitySetDecl) -> Outcome {
        var schema = schema
        for _ in 0..<8 {
            let issues = schema.ruleViolations()
            guard let issue = issues.first else { return .form(schema) }
            guard let subject = issue.subject, schema.field(named: subject) != nil else {
                return .skipped("Its form would break a rule of every form: \(issue.message)")
            }
            report.warn(
                .ruleViolation, "\(set.name): the field \(subject) is left out: \(issue.message)",
                file: metadata.file, line: issue.location?.line ?? set.line)
            for s in schema.sections.indices {
                for g in schema.sections[s].groups.indices {
                    schema.sections[s].groups[g].fields.removeAll { $0.name == subject }
                }
                schema.sections[s].groups.removeAll { $0.fields.isEmpty }
            }
            schema.sections.removeAll { $0.groups.isEmpty && $0.kind != .key }
            schema.lists.removeAll { $0.id == subject }
        }
        let left = schema.ruleViolations()
        return left.isEmpty
            ? .form(schema)
            : .skipped("Its form would break rules of every form: \(left.map(\.message).joined(separator: " "))")
    }
}
