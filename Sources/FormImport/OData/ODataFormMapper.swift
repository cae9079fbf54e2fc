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
        /// The form and how it maps onto the service.
        case form(FormSchema, ServiceBinding)
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
    struct TypeLayout {
        var properties: [PropertyDecl]
        var isKey: [Bool]
        /// Field name per property, in property order.
        var fieldNames: [String]
        var chain: [String]
        /// Property name → position, built on first use (a layout without annotations never needs it).
        var position: [String: Int]?
        /// Whether any annotation targets a member of the type.
        var membersAnnotated: Bool
        /// A draft-enabled type (`IsActiveEntity` in its key, as SAP and CAP write drafts): its
        /// draft bookkeeping properties are the service's, never fields.
        var draftEnabled = false
    }

    private var layouts: [String: TypeLayout] = [:]
    /// The primitive types of a value help's collection by property, per entity type (`ODataBinding`).
    var listTypesByType: [String: [String: String]] = [:]

    func layout(of typeName: String) -> TypeLayout {
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
            membersAnnotated: index.annotatesMembers(of: typeName), draftEnabled: keys.contains("IsActiveEntity"))
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

    /// The label of the group that holds the properties a create requires and the layout leaves out.
    static let requiredGroupLabel = "Also required"

    /// The form of one entity set, or why there is none, phase by phase: whether the set takes
    /// creates, the groups the annotations lay out, the fields a create requires that they leave
    /// out, units, update restrictions, the key information, a media file, the report, and the
    /// sections.
    func form(for set: EntitySetDecl, id: String) -> Outcome {
        let typeName = set.entityType
        guard let type = metadata.types[typeName], !type.isComplex else {
            return .skipped("Its entity type \(typeName) is not declared in the metadata.")
        }
        let setTarget = set.container + "/" + set.name
        let requiredOnInsert: Set<String>
        switch insertRestrictions(of: set, target: setTarget) {
        case .notInsertable(let why): return .skipped(why)
        case .insertable(let required): requiredOnInsert = required
        }

        let layout = layout(of: typeName)
        // The chain's tables, found once: each look-up by target hashes the whole type name.
        let tables = TypeTables(chain: layout.chain, tables: layout.chain.compactMap { index.table($0) })
        var draft = FormDraft(typeName: typeName, layout: layout, requiredOnInsert: requiredOnInsert)
        place(annotatedGroups(tables), in: &draft)
        placeUnits(in: &draft, from: 0)
        // After the units, so that a unit the layout placed beside its amount stays there.
        let unitsBefore = draft.units.count
        let added = addRequiredForCreate(in: &draft)
        placeUnits(in: &draft, from: unitsBefore)
        if !isUpdatable(set, target: setTarget) { makeCreateOnly(&draft) }
        let header = typeAnnotation(Term.headerInfo, tables)?.value.record
        chooseKeyInformation(title: header?["Title"]?.record?["Value"]?.anyPath, in: &draft)
        let media = mediaField(of: type, layout: layout, tables)
        reportDraft(draft, set: set, target: setTarget, formID: id, added: added)
        layouts[typeName] = draft.layout

        guard let sections = sections(of: &draft, media: media, set: set) else {
            return .skipped(draft.skipReason ?? "")
        }
        let object =
            label(header?["TypeName"]?.string, typeAnnotation(Term.label, tables)?.value.string, type.sap.label)
            ?? Words.fromIdentifier(shortTypeName(typeName))
        var schema = FormSchema(
            id: id, title: "New \(object)", object: object, sections: sections.sections, lists: sections.lists)
        // The positions of the properties that are fields, wherever the sections put them.
        var positions = draft.keyMembers + draft.groups.flatMap(\.members) + draft.accessory
        // Everything else is sound by construction (tests hold every form of the corpus to
        // `ruleViolations()`); values taken freely from annotations are checked here.
        if draft.freeValues || media != nil {
            switch settle(schema, set: set) {
            case .sound(let settled, let leftOut):
                schema = settled
                if !leftOut.isEmpty { positions.removeAll { leftOut.contains(draft.layout.fieldNames[$0]) } }
            case .unsound(let why):
                return .skipped(why)
            }
        }
        let bound = binding(
            for: set, form: schema, positions: positions, layout: draft.layout, setTable: index.table(setTarget))
        return .form(schema, bound)
    }

    // MARK: Phases of a form

    private enum InsertRestrictions {
        case insertable(requiredProperties: Set<String>)
        case notInsertable(String)
    }

    /// Whether the set takes creates (`sap:creatable`, `Capabilities.InsertRestrictions/Insertable`),
    /// and the properties an insert requires (`RequiredProperties`).
    private func insertRestrictions(of set: EntitySetDecl, target: String) -> InsertRestrictions {
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
    private struct TypeTables {
        let chain: [String]
        let tables: [AnnotationIndex.Table]
    }

    /// The annotation of a term on the type, else on the nearest base type that has one.
    private func typeAnnotation(
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
    private func annotatedGroups(_ tables: TypeTables) -> [PendingGroup] {
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
    private func place(_ pending: [PendingGroup], in draft: inout FormDraft) {
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
    private func addRequiredForCreate(in draft: inout FormDraft) -> [Int] {
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
    private func isRequiredForCreate(_ i: Int, _ draft: FormDraft) -> Bool {
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
    private func placeUnits(in draft: inout FormDraft, from start: Int) {
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
    private func isUpdatable(_ set: EntitySetDecl, target: String) -> Bool {
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
    private func makeCreateOnly(_ draft: inout FormDraft) {
        for i in draft.fields.indices where draft.editables[i] == .yes {
            draft.editables[i] = .createOnly
            draft.fields[i]!.editable = .createOnly
        }
    }

    /// The key information: the header's title, else the first editable string property, then
    /// the keys a user enters that the layout left out.
    private func chooseKeyInformation(title: String?, in draft: inout FormDraft) {
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
    private func chooseKeyFallback(in draft: inout FormDraft) {
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
    private func mediaField(of type: StructuredTypeDecl, layout: TypeLayout, _ tables: TypeTables) -> Field? {
        guard layout.chain.contains(where: { metadata.types[$0]?.hasStream == true }) else { return nil }
        var file = Field(
            name: uniqueName("file", taken: Set(layout.fieldNames)), kind: .attachments, label: "File",
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
    private func reportDraft(_ draft: FormDraft, set: EntitySetDecl, target: String, formID: String, added: [Int]) {
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

    /// The key, properties and accessory sections; nil (with `draft.skipReason`) when nothing
    /// can be entered or nothing can be required. A form needs a required field: without one,
    /// the first field a user enters is made required, with a warning.
    private func sections(
        of draft: inout FormDraft, media: Field?, set: EntitySetDecl
    ) -> (sections: [FormSection], lists: [OptionList])? {
        let properties = draft.layout.properties
        draft.groups.removeAll { $0.members.isEmpty }
        let all = draft.keyMembers + draft.groups.flatMap(\.members) + draft.accessory
        guard all.contains(where: { draft.editables[$0] != .no }) || media != nil else {
            draft.skipReason =
                "None of its properties can be entered: they are computed, hidden, read-only or of types forms cannot hold yet."
            return nil
        }
        if media == nil && !all.contains(where: { draft.requireds[$0] }) {
            // Not one whose field control is decided at run time: that one was left optional on purpose.
            guard
                let i = all.first(where: {
                    draft.isEnterable($0) && !draft.dynamicControl.contains(properties[$0].name)
                })
                    ?? all.first(where: { draft.isEnterable($0) })
            else {
                draft.skipReason =
                    "None of its fields can be required (only switches can be entered), and a form needs a required field."
                return nil
            }
            draft.fields[i]!.required = true
            let place = "\(set.name) (\(Self.shortName(draft.typeName)))"
            report.warn(
                .requiredAdded,
                "\(place): none of the form's fields is required, but a form needs a required field; \(draft.fields[i]!.name) (the first one to enter) is made required.",
                file: metadata.file, line: set.line)
        }
        if draft.keyMembers.isEmpty, !draft.groups.isEmpty {
            // A single-line field suits the key information best; else the first of the layout.
            var (g, m) = (0, 0)
            for candidate in draft.groups.indices {
                if let member = draft.groups[candidate].members.firstIndex(where: { Self.suitsKey(draft.kinds[$0]) }) {
                    (g, m) = (candidate, member)
                    break
                }
            }
            draft.keyMembers.append(draft.groups[g].members.remove(at: m))
            draft.groups.removeAll { $0.members.isEmpty }
        }

        var sections: [FormSection] = []
        var lists: [OptionList] = []
        var keyFields = draft.take(draft.keyMembers, lists: &lists)
        var accessoryFields = draft.take(draft.accessory, lists: &lists)
        if let media {
            if keyFields.isEmpty { keyFields.append(media) } else { accessoryFields.append(media) }
        }
        if !keyFields.isEmpty { sections.append(FormSection(kind: .key, groups: [FieldGroup(fields: keyFields)])) }
        if !draft.groups.isEmpty {
            var groups: [FieldGroup] = []
            for group in draft.groups {
                groups.append(FieldGroup(label: group.label, fields: draft.take(group.members, lists: &lists)))
            }
            sections.append(FormSection(kind: .properties, groups: groups))
        }
        if !accessoryFields.isEmpty {
            sections.append(FormSection(kind: .accessory, groups: [FieldGroup(fields: accessoryFields)]))
        }
        return (sections, lists)
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
        /// Where the fields go: the groups of the properties section (positions in order), the
        /// key information, the accessory area, and amounts with the property holding their unit.
        var groups: [(label: String?, members: [Int])] = []
        var keyMembers: [Int] = []
        var accessory: [Int] = []
        var units: [(amount: Int, unit: String, currency: Bool)] = []
        /// Whether annotations laid the groups out (else every property is in one group).
        var laidOut = false
        /// Why the set gives no form, when `sections` finds none.
        var skipReason: String?

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

        /// The group and place of a position in the properties section.
        func locate(_ i: Int) -> (Int, Int)? {
            for (g, group) in groups.enumerated() {
                if let m = group.members.firstIndex(of: i) { return (g, m) }
            }
            return nil
        }

        /// Moves a position from its group to the key information; false if no group holds it.
        mutating func takeOut(_ i: Int) -> Bool {
            guard let (g, m) = locate(i) else { return false }
            groups[g].members.remove(at: m)
            keyMembers.append(i)
            return true
        }

        /// Whether a user can enter the field at a position (a switch needs no entering).
        func isEnterable(_ i: Int) -> Bool { kinds[i] != .switch && editables[i] != .no }

        /// Moves the fields at the positions out, noting the option lists they name.
        mutating func take(_ members: [Int], lists: inout [OptionList]) -> [Field] {
            members.map { i in
                let field = fields[i].take()!
                if let list = field.list {
                    lists.append(
                        OptionList(
                            id: list, title: extrasOf[i]?.listTitle, groups: [], external: true,
                            location: field.location))
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
                    dataFieldLabel: label, fieldName: draft.layout.fieldNames[i],
                    draftAdministrative: draft.layout.draftEnabled && ODataFormMapper.isDraftAdministrative(name)),
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
    private func dataFields(_ items: [AnnotationValue]) -> [(name: String, label: String?)] {
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
    private func settle(_ schema: FormSchema, set: EntitySetDecl) -> Settled {
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

    private enum Settled {
        /// The form, and the fields left out of it.
        case sound(FormSchema, leftOut: [String])
        case unsound(String)
    }
}
