/// The value of an annotation or of a record's property, as written in CSDL XML (attribute
/// and element notation read the same). Qualified names in it are already alias-resolved.
enum AnnotationValue: Sendable {
    /// No value at all: a Tag term (`<Annotation Term="Core.Computed"/>`) reads it as true.
    case absent
    case string(String)
    case bool(Bool)
    /// An `Int`, kept as written.
    case int(String)
    /// A `Decimal` or `Float`, kept as written.
    case decimal(String)
    /// `Date`, `DateTimeOffset`, `TimeOfDay`, `Duration`, `Guid` or `Binary`, kept as written.
    case literal(String)
    case enumMember([EnumValue])
    /// `Path`: a value taken from another property at run time.
    case path(String)
    case propertyPath(String)
    case navigationPropertyPath(String)
    /// `AnnotationPath`, term segments resolved: `@com.sap.vocabularies.UI.v1.FieldGroup#Q`.
    case annotationPath(String)
    case modelElementPath(String)
    case record(AnnotationRecord)
    case collection([AnnotationValue])
    case null
    /// A dynamic expression (`If`, `Apply`, `Eq`, ...), by its element name.
    case expression(String)
    /// A value written as elements for a term the mapping never reads: not built (`Term.valued`).
    case notRead

    /// A Boolean: `Bool`, or true for no value (a Tag). Nil for paths and anything else.
    var staticBool: Bool? {
        switch self {
        case .absent: true
        case .bool(let value): value
        default: nil
        }
    }

    /// Whether the value is computed at run time (a path or an expression).
    var isDynamic: Bool {
        switch self {
        case .path, .expression: true
        default: false
        }
    }

    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var record: AnnotationRecord? {
        if case .record(let record) = self { return record }
        return nil
    }

    var collection: [AnnotationValue]? {
        if case .collection(let items) = self { return items }
        return nil
    }

    /// The path of a `Path` or `PropertyPath`.
    var anyPath: String? {
        switch self {
        case .path(let path), .propertyPath(let path): path
        default: nil
        }
    }

    /// A number or string constant as text (`Int`, `Decimal`, `String`, date and time literals).
    var literalText: String? {
        switch self {
        case .string(let text), .int(let text), .decimal(let text), .literal(let text): text
        case .bool(let value): value ? "true" : "false"
        default: nil
        }
    }
}

/// One enumeration member: `com.sap.vocabularies.Common.v1.FieldControlType/Mandatory`.
struct EnumValue: Sendable, Hashable {
    /// The enumeration's full name; nil when the member was written without one (`None`).
    var type: String?
    var member: String
}

/// A `<Record>`: its type (resolved), its property values in order and its own annotations.
struct AnnotationRecord: Sendable {
    var type: String?
    var properties: [(name: String, value: AnnotationValue)] = []
    var annotations: [NestedAnnotation] = []

    /// The value of a property, if the record has it.
    subscript(_ name: String) -> AnnotationValue? {
        properties.first { $0.name == name }?.value
    }

    /// A nested annotation of a term (unqualified).
    func annotation(_ term: String) -> AnnotationValue? {
        annotations.first { $0.term == term && $0.qualifier == nil }?.value
    }
}

/// An annotation inside a record (`UI.Importance` on a `UI.DataField`, `Core.Description` on an allowed value).
struct NestedAnnotation: Sendable {
    var term: String
    var qualifier: String?
    var value: AnnotationValue
}

/// One annotation applied to a model element, with where it was written.
struct AnnotationEntry: Sendable {
    /// The term's full name (`com.sap.vocabularies.UI.v1.FieldGroup`).
    var term: String
    var qualifier: String?
    /// The canonical target: `Namespace.Type/Property`, `Namespace.Container/Set`, aliases resolved.
    var target: String
    var value: AnnotationValue
    /// Annotations of the annotation itself (`Validation.Exclusive` on a `Validation.Minimum`).
    var annotations: [NestedAnnotation]
    var file: String
    var line: Int
}

/// Term and qualifier: what identifies an annotation on one target.
struct AnnotationKey: Hashable, Sendable {
    var term: String
    var qualifier: String?

    // A target holds a handful of annotations, so the lengths and the last bytes of term and
    // qualifier tell them apart as well as hashing every byte, at a fraction of the cost.
    func hash(into hasher: inout Hasher) {
        hasher.combine(term.asciiTailKey)
        hasher.combine(qualifier?.asciiTailKey ?? 0)
    }
}

/// Every annotation of an import, indexed by target, later documents overriding earlier ones,
/// with a note of which ones the mapping read. Documents add their annotations as they are read,
/// metadata first, so the order of adding is the order of layering.
struct AnnotationIndex {
    private(set) var entries: [AnnotationEntry] = []
    private var state: [EntryState] = []
    /// Target → its table in `tables`.
    private var tableOfTarget: [String: Int] = [:]
    /// Per target: term and qualifier → the entry in effect.
    private var tables: [[AnnotationKey: Int]] = []
    /// Per target: its keys in the order first written, so "each UI.FieldGroup" keeps document order.
    private var keyOrders: [[AnnotationKey]] = []
    private var tableTargets: [String] = []
    /// The heads of targets with a member path (`Type` of `Type/Member`).
    private var memberOwners = Set<String>()

    private enum EntryState { case unread, read, overridden, unknownTarget }

    /// The annotations of one target, found once and then asked per term.
    struct Table { fileprivate let index: Int }

    /// The table of a target, made if the target has none yet, for adding its annotations.
    mutating func table(forAdding target: String) -> Table {
        if let known = tableOfTarget[target] { return Table(index: known) }
        let table = tables.count
        tableOfTarget[target] = table
        // Most targets carry a handful of annotations: room for them at once saves regrowing.
        tables.append(Dictionary(minimumCapacity: 6))
        var order: [AnnotationKey] = []
        order.reserveCapacity(6)
        keyOrders.append(order)
        tableTargets.append(target)
        if let slash = target.firstIndex(ofASCII: UInt8(ascii: "/")), !target.utf8[..<slash].contains(UInt8(ascii: "("))
        {
            memberOwners.insert(String(target[..<slash]))
        }
        return Table(index: table)
    }

    /// The target a table is for.
    func target(of table: Table) -> String { tableTargets[table.index] }

    /// Adds an annotation; one of the same target, term and qualifier added before is overridden.
    mutating func add(_ entry: AnnotationEntry) {
        add(to: table(forAdding: entry.target), entry)
    }

    /// Adds an annotation of the table's target.
    mutating func add(to table: Table, _ entry: AnnotationEntry) {
        let key = AnnotationKey(term: entry.term, qualifier: entry.qualifier)
        let slot = entries.count
        entries.append(entry)
        state.append(.unread)
        if let previous = tables[table.index].updateValue(slot, forKey: key) {
            state[previous] = .overridden
        } else {
            keyOrders[table.index].append(key)
        }
    }

    /// Checks every target against the model once all documents are read: `canonical` gives the
    /// target as the model names it, or nil when it names nothing there. Annotations of unknown
    /// targets are set aside (not in effect, not "unused"); returns the first annotation of each
    /// unknown target.
    mutating func settleTargets(_ canonical: (String) -> String?) -> [AnnotationEntry] {
        var unknown: [AnnotationEntry] = []
        // Each target is judged once; the renamed ones are remembered for the rebuild.
        var renamed: [String: String] = [:]
        for (table, target) in tableTargets.enumerated() {
            guard let name = canonical(target) else {
                for slot in tables[table].values { state[slot] = .unknownTarget }
                if let first = tables[table].values.min() { unknown.append(entries[first]) }
                continue
            }
            if name != target { renamed[target] = name }
        }
        if !renamed.isEmpty {
            // A target written without its container's namespace, or through an entity set:
            // index again under the name the model gives it.
            var rebuilt = AnnotationIndex()
            for (slot, var entry) in entries.enumerated() where state[slot] != .unknownTarget {
                if let name = renamed[entry.target] { entry.target = name }
                rebuilt.add(entry)
            }
            self = rebuilt
        }
        return unknown.sorted { ($0.file, $0.line) < ($1.file, $1.line) }
    }

    /// Whether any annotation targets a member (`Type/Member`) of the type.
    func annotatesMembers(of typeName: String) -> Bool {
        memberOwners.contains(typeName)
    }

    /// The annotations of a target, if it has any.
    func table(_ target: String) -> Table? { tableOfTarget[target].map(Table.init) }

    /// The annotation of a term in a target's table, marking it read.
    mutating func take(_ table: Table, _ term: String, qualifier: String? = nil) -> AnnotationEntry? {
        guard let slot = tables[table.index][AnnotationKey(term: term, qualifier: qualifier)] else { return nil }
        if state[slot] == .unread { state[slot] = .read }
        return entries[slot]
    }

    /// The annotation of a term in a target's table, leaving it unread: for a look at a property
    /// that may not become a field.
    func peek(_ table: Table, _ term: String) -> AnnotationEntry? {
        tables[table.index][AnnotationKey(term: term, qualifier: nil)].map { entries[$0] }
    }

    /// The annotation of a term on a target, marking it read.
    mutating func take(_ target: String, _ term: String, qualifier: String? = nil) -> AnnotationEntry? {
        table(target).flatMap { take($0, term, qualifier: qualifier) }
    }

    /// Every annotation of a term on a target, any qualifier, in document order, marking them read.
    mutating func takeAll(_ target: String, _ term: String) -> [AnnotationEntry] {
        guard let table = tableOfTarget[target] else { return [] }
        var found: [AnnotationEntry] = []
        for key in keyOrders[table] where key.term == term {
            guard let slot = tables[table][key] else { continue }
            if state[slot] == .unread { state[slot] = .read }
            found.append(entries[slot])
        }
        return found
    }

    /// Every annotation of a term on a target, any qualifier, in document order, leaving them
    /// unread: for the service binding, which must not change what the report calls unused.
    func peekAll(_ target: String, _ term: String) -> [AnnotationEntry] {
        guard let table = tableOfTarget[target] else { return [] }
        return keyOrders[table].compactMap { key in
            key.term == term ? tables[table][key].map { entries[$0] } : nil
        }
    }

    /// Calls `body` with each annotation in effect that the mapping never read, in document order.
    func forEachUnused(_ body: (AnnotationEntry) -> Void) {
        for slot in entries.indices where state[slot] == .unread { body(entries[slot]) }
    }
}
