import Foundation

/// A form: the create/edit view of one kind of object, as the native spec or an importer describes it.
///
/// Sections always come in the order key, properties, accessory; each holds groups of fields
/// (a group without a label is a plain run of cells). The schema converts to and from the
/// canonical JSON served at `GET /api/forms/{id}` (see `docs/schema.md`).
public struct FormSchema: Sendable, Hashable {
    /// The JSON and XML format identifier.
    public static let format = "urn:fieldwork:form:1"

    public var id: String
    public var title: String
    /// Singular name of the object created ("Issue").
    public var object: String?
    /// Label of the complete action in create mode.
    public var submit: String
    public var regular: RegularPresentation
    public var sections: [FormSection]
    public var lists: [OptionList]
    /// The other fields whose answers narrow a field's long list, by field: a service value
    /// help's `In` parameters. The list screen sends only these answers with its search. An
    /// item's field is keyed by its rule key (`_Booking[].ConnectionID`), the fields narrowing it
    /// by their names in its item. Set where a form is prepared for its service; never stored or
    /// written into the canonical JSON.
    public var listFilters: [String: Set<String>] = [:]

    public init(
        id: String, title: String, object: String? = nil, submit: String = "Create",
        regular: RegularPresentation = .formSheet, sections: [FormSection] = [], lists: [OptionList] = []
    ) {
        self.id = id
        self.title = title
        self.object = object
        self.submit = submit
        self.regular = regular
        self.sections = sections
        self.lists = lists
    }

    /// The section of a kind, if the form has one.
    public func section(_ kind: SectionKind) -> FormSection? {
        sections.first { $0.kind == kind }
    }

    /// Every field in document order, switch children right after their switch.
    public var allFields: [Field] {
        var fields: [Field] = []
        forEachField { fields.append($0) }
        return fields
    }

    /// The fields of a kind, in document order, switch children included: only those are
    /// copied (a request asks for its attachment fields; a `Field` is costly to copy).
    public func fields(of kind: FieldKind) -> [Field] {
        var fields: [Field] = []
        forEachField { if $0.kind == kind { fields.append($0) } }
        return fields
    }

    /// Calls `body` with every field in document order, switch children right after their
    /// switch, copying none.
    public func forEachField(_ body: (Field) -> Void) {
        for section in sections {
            for group in section.groups {
                for field in group.fields {
                    body(field)
                    for child in field.children ?? [] { body(child) }
                }
            }
        }
    }

    /// The top-level fields (not inside a switch), in document order.
    public var topLevelFields: [Field] {
        sections.flatMap { $0.groups.flatMap(\.fields) }
    }

    /// The field with a name, wherever it stands.
    public func field(named name: String) -> Field? {
        allFields.first { $0.name == name }
    }

    /// The list a `value-list` names, if any.
    public func list(id: String) -> OptionList? {
        lists.first { $0.id == id }
    }

    /// The title of the list a field names, when the list has one: it heads the list instead
    /// of the field's label.
    public func listTitle(for field: Field) -> String? {
        field.list.flatMap { list(id: $0)?.title }
    }

    /// The options a field offers: its inline options, or those of the list it names.
    public func optionGroups(for field: Field) -> [OptionGroup] {
        if let listID = field.list { return list(id: listID)?.groups ?? [] }
        return field.options ?? []
    }

    /// Value lists with more options than this are searched on the server, not sent whole in
    /// every page.
    public static let longListThreshold = 200

    /// Whether a field is a value list too long to put in the page whole.
    public func isLongList(_ field: Field) -> Bool {
        field.kind == .valueList
            && (options(for: field).count > Self.longListThreshold
                || field.list.flatMap { list(id: $0) }?.remote == true)
    }

    /// Marks the lists of these value-list fields as served by the form's OData service, where
    /// no options were uploaded for them: an uploaded list still wins. An item's field is named
    /// by its rule key (`_Booking[].AirlineID`).
    public mutating func markRemoteLists(forFields names: some Collection<String>) {
        let wanted = Set(names)
        var ids = Set(allFields.filter { wanted.contains($0.name) && $0.kind == .valueList }.compactMap(\.list))
        forEachItemField { field, key in
            if wanted.contains(key), field.kind == .valueList, let list = field.list { ids.insert(list) }
        }
        for index in lists.indices where ids.contains(lists[index].id) && lists[index].external {
            if lists[index].options.isEmpty { lists[index].remote = true }
        }
    }

    /// Leaves a top-level field out of the form (an importer's question or property that breaks a
    /// rule): its groups and sections go when it was their last field (the key section stays), and
    /// its list when no other field names it.
    public mutating func removeField(named name: String) {
        let list = field(named: name)?.list
        for s in sections.indices {
            for g in sections[s].groups.indices {
                sections[s].groups[g].fields.removeAll { $0.name == name }
            }
            sections[s].groups.removeAll { $0.fields.isEmpty && $0.items == nil }
        }
        sections.removeAll { $0.groups.isEmpty && $0.kind != .key }
        if let list, !allFields.contains(where: { $0.list == list }) { lists.removeAll { $0.id == list } }
    }

    /// All options of a field, flattened.
    public func options(for field: Field) -> [Option] {
        optionGroups(for: field).flatMap(\.options)
    }

    /// Whether the form contains a field of a kind (e.g. attachments, so it needs multipart),
    /// its item lists' fields included.
    public func contains(kind: FieldKind) -> Bool {
        var found = false
        forEachField { if $0.kind == kind { found = true } }
        func within(_ lists: [ItemList]) -> Bool {
            lists.contains { list in
                list.fields.contains { field in
                    field.kind == kind || (field.children ?? []).contains { $0.kind == kind }
                }
                    || within(list.lists)
            }
        }
        return found || within(itemLists)
    }

    /// The one rule for required marking, used by both the view and the server check.
    public var requiredMarking: RequiredMarking { RequiredMarking(schema: self) }
}

/// How the form is presented at regular width.
public enum RegularPresentation: String, Codable, Sendable, Hashable, CaseIterable {
    case formSheet = "form-sheet"
    case popover
}

/// The three areas of the create pattern, in display order.
public enum SectionKind: String, Codable, Sendable, Hashable, CaseIterable {
    case key
    case properties
    case accessory
}

/// One area of the form: key information, properties or the accessory area.
public struct FormSection: Codable, Sendable, Hashable {
    public var kind: SectionKind
    public var groups: [FieldGroup]

    public init(kind: SectionKind, groups: [FieldGroup]) {
        self.kind = kind
        self.groups = groups
    }

    enum CodingKeys: String, CodingKey {
        case kind = "section"
        case groups
    }
}

/// A group of cells; `label` is shown above it. A group without a label is a plain run of cells.
/// A group may instead be an item list (``items``): it then holds no fields of its own.
public struct FieldGroup: Sendable, Hashable {
    public var label: String?
    public var fields: [Field]
    /// The item list standing here among the section's groups, when this group is one.
    public var items: ItemList?

    public init(label: String? = nil, fields: [Field]) {
        self.label = label
        self.fields = fields
    }

    /// An item list in its place among a section's groups.
    public init(items: ItemList) {
        self.label = nil
        self.fields = []
        self.items = items
    }
}

/// Where a piece of a spec came from, for error messages.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int = 0) {
        self.line = line
        self.column = column
    }

    public var description: String { column > 0 ? "line \(line), column \(column)" : "line \(line)" }
}

/// The values each choice field of a form offers, gathered once (an edit view keeps them), to
/// find an object's stored choices that its fields no longer offer (a list's options were
/// replaced, or a new version dropped an option): an edit keeps them selectable, so saving an
/// object does not silently drop them.
public struct OfferedChoices: Sendable {
    /// By field name; an open list (no options yet) takes any value, so it has no entry.
    private let values: [String: Set<String>]

    public init(_ schema: FormSchema) {
        var values: [String: Set<String>] = [:]
        schema.forEachField { field in
            guard field.kind.hasOptions else { return }
            let offered = Set(schema.options(for: field).map(\.value))
            if !offered.isEmpty { values[field.name] = offered }
        }
        self.values = values
    }

    /// None: for views that never show a stored object.
    public init() { values = [:] }

    /// The stored values of choice fields that their fields no longer offer, by field name.
    public func missing(in stored: [String: [String]]) -> [String: [String]] {
        var kept: [String: [String]] = [:]
        for (name, offered) in values {
            let missing = (stored[name] ?? []).filter { !$0.isEmpty && !offered.contains($0) }
            if !missing.isEmpty { kept[name] = missing }
        }
        return kept
    }
}
