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
    let declaresEdmTypes: Bool

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
        return type.hasASCIIPrefix("Edm.", andMore: true)
    }

    enum Outcome {
        /// The form and how it maps onto the service.
        case form(FormSchema, ServiceBinding)
        /// Why the entity set gives no form.
        case skipped(String)
    }

    /// A group as the annotations lay it out, before its properties are mapped.
    struct PendingGroup {
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

    var layouts: [String: TypeLayout] = [:]
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
    func position(of name: String, in layout: inout TypeLayout) -> Int? {
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
    /// - Parameter asItems: the set's entities are items of another's form (a composition): its
    ///   insert restrictions do not keep it from mapping (RAP creates them by association).
    func form(for set: EntitySetDecl, id: String, asItems: Bool = false) -> Outcome {
        let typeName = set.entityType
        guard let type = metadata.types[typeName], !type.isComplex else {
            return .skipped("Its entity type \(typeName) is not declared in the metadata.")
        }
        let setTarget = set.container + "/" + set.name
        let requiredOnInsert: Set<String>
        switch insertRestrictions(of: set, target: setTarget) {
        case .notInsertable(let why): if !asItems { return .skipped(why) } else { requiredOnInsert = [] }
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
}
