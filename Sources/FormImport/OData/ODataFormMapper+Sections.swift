import FormModel

/// A form's sections: its key information, groups and accessory area as the create pattern
/// lays them out, from the type's annotations or its properties.
extension ODataFormMapper {
    /// The key, properties and accessory sections; nil (with `draft.skipReason`) when nothing
    /// can be entered or nothing can be required. A form needs a required field: without one,
    /// the first field a user enters is made required, with a warning.
    func sections(
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
    struct FormDraft {
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
    func field(_ name: String, label: String?, in draft: inout FormDraft) -> Int? {
        guard let i = position(of: name, in: &draft.layout) else {
            if !draft.unknownPaths.contains(name) { draft.unknownPaths.append(name) }
            return nil
        }
        return field(at: i, label: label, in: &draft)
    }

    /// The position of a property that is a field, by position, mapping it on first use.
    func field(at i: Int, label: String?, in draft: inout FormDraft) -> Int? {
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
}
