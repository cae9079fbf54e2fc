import Foundation

/// One item as judged and kept: its id and its typed values, by field name as an object's
/// (``ValidationResult/values``), the items of its own item lists among them (``FieldValue/items(_:)``).
public struct ItemValues: Sendable, Hashable {
    /// The item's stable id (a UUID) when it has one already; a new item gets one when stored
    /// (``FieldValue/assigningItemIDs(_:make:)``).
    public var id: String?
    public var values: [String: FieldValue]

    public init(id: String? = nil, values: [String: FieldValue]) {
        self.id = id
        self.values = values
    }
}

extension ItemList {
    /// One item's name in a sentence: "member", "URL" (a name in capitals stays so).
    public var noun: String {
        guard let first = object.first else { return object }
        let second = object.dropFirst().first
        return second?.isUppercase == true ? object : first.lowercased() + object.dropFirst()
    }

    /// Several items' name in a sentence: "members".
    public var pluralNoun: String { noun + "s" }
}

extension FormValidator {
    /// The input name of an item's id: `members[0]._id`.
    public static let itemIDName = "_id"

    /// Judges the items sent for one item list: each field of each item as a form's fields are
    /// judged, then the count. Issues name the item's path: `members[1].age`, and the list's
    /// own path for its count (`members`, `members[0].children`).
    /// - Parameters:
    ///   - parent: the path of the item holding the list; nil for a list of the form.
    ///   - budget: the items an object may still have (``ItemList/maxItemsInObject``), spent here.
    static func validateItems(
        _ list: ItemList, _ items: [Submission], in schema: FormSchema, parent: String?,
        context: ValidationContext, budget: inout Int
    ) -> (items: [ItemValues], issues: [FieldIssue]) {
        let listPath = parent.map { "\($0).\(list.name)" } ?? list.name
        var issues: [FieldIssue] = []
        if items.count < list.minCount {
            issues.append(
                FieldIssue(
                    field: listPath, code: .minCount,
                    message: "Add at least \(Words.count(list.minCount, list.noun, plural: list.pluralNoun))"))
        } else if items.count > list.maxCount {
            issues.append(
                FieldIssue(
                    field: listPath, code: .maxCount, message: "Remove \(list.pluralNoun): at most \(list.maxCount)"))
        }
        guard items.count <= budget, items.count <= ItemList.maxItems else {
            // Past the limits nothing of the list is judged: the count is the message.
            if !issues.contains(where: { $0.field == listPath }) {
                issues.append(
                    FieldIssue(
                        field: listPath, code: .tooMany,
                        message:
                            "Remove \(list.pluralNoun): an object holds at most \(ItemList.maxItemsInObject) items in all"
                    ))
            }
            return ([], issues)
        }
        budget -= items.count
        // An item's fields take no server values: the object's read-only values are its own.
        var itemContext = context
        itemContext.serverValues = [:]
        itemContext.serverFiles = [:]
        itemContext.noLongerOffered = [:]
        var judged: [ItemValues] = []
        for (index, item) in items.enumerated() {
            let path = ItemList.itemPath(list.name, index, in: parent)
            var values: [String: FieldValue] = [:]
            // A stored item sent back keeps its read-only values, as the object keeps its own.
            var fieldContext = itemContext
            if let id = itemID(item.first(itemIDName)), let stored = context.serverItems[id] {
                fieldContext.serverValues = stored
            }
            judge(
                list.groups, item, in: schema, path: path, context: context, fieldContext: fieldContext,
                budget: &budget, values: &values, issues: &issues)
            judged.append(ItemValues(id: itemID(item.first(itemIDName)), values: values))
        }
        return (judged, issues)
    }

    /// The fields and item lists of `groups` (a section's, or an item's at `path`), in order:
    /// values into `values`, issues (named by the item's path) into `issues`.
    /// - Parameter fieldContext: what the fields are judged with (an item's has no server values).
    static func judge(
        _ groups: [FieldGroup], _ submission: Submission, in schema: FormSchema, path: String?,
        context: ValidationContext, fieldContext: ValidationContext, budget: inout Int,
        values: inout [String: FieldValue], issues: inout [FieldIssue]
    ) {
        for group in groups {
            if let list = group.items {
                let found = validateItems(
                    list, submission.items[list.name] ?? [], in: schema, parent: path, context: context,
                    budget: &budget)
                values[list.name] = .items(found.items)
                issues += found.issues
                continue
            }
            for field in group.fields {
                judge(field, schema, submission, fieldContext, into: &values) { found in
                    guard let path else { return issues += found }
                    issues += found.map { FieldIssue(field: "\(path).\($0.field)", code: $0.code, message: $0.message) }
                }
            }
        }
    }

    /// A field and, while it is on, a switch's children: their values into `values`, their
    /// issues to `refused`.
    static func judge(
        _ field: Field, _ schema: FormSchema, _ submission: Submission, _ context: ValidationContext,
        into values: inout [String: FieldValue], refused: ([FieldIssue]) -> Void
    ) {
        func run(_ field: Field) {
            switch check(field, in: schema, submission, context) {
            case .empty: break
            case .value(let value): values[field.name] = value
            case .issues(let found): refused(found)
            }
        }
        run(field)
        if field.kind == .switch, values[field.name] == .bool(true) {
            for child in field.children ?? [] { run(child) }
        }
    }

    /// An item's id as sent, when it is a UUID (lowercase, as the server makes them); anything
    /// else makes the item a new one.
    static func itemID(_ sent: String?) -> String? {
        guard let sent, let uuid = UUID(uuidString: sent) else { return nil }
        return uuid.uuidString.lowercased()
    }
}

extension FieldValue {
    /// The values with every item (in every list, at every level) given its stable id: the one
    /// it was sent with when `known` holds it (an edit's stored items), else a new one. So a
    /// client never chooses a new item's id, and an edit tells its kept items from new ones.
    public static func assigningItemIDs(
        _ values: [String: FieldValue], known: Set<String> = [],
        make: () -> String = { UUID().uuidString.lowercased() }
    ) -> [String: FieldValue] {
        guard values.values.contains(where: { if case .items = $0 { true } else { false } }) else { return values }
        var assigned = values
        for (name, value) in values {
            guard case .items(let items) = value else { continue }
            assigned[name] = .items(
                items.map { item in
                    ItemValues(
                        id: item.id.flatMap { known.contains($0) ? $0 : nil } ?? make(),
                        values: assigningItemIDs(item.values, known: known, make: make))
                })
        }
        return assigned
    }

    /// Every stored item's values as its inputs hold them, by the item's id, at every level:
    /// what an edit's items keep for their read-only fields (``ValidationContext/serverItems``).
    public static func storedItemInputs(_ values: [String: FieldValue]) -> [String: [String: [String]]] {
        var stored: [String: [String: [String]]] = [:]
        for case .items(let items) in values.values {
            for item in items {
                if let id = item.id { stored[id] = InputStrings.of(item.values) }
                stored.merge(storedItemInputs(item.values)) { own, _ in own }
            }
        }
        return stored
    }

    /// The ids of every item among the values, at every level.
    public static func itemIDs(_ values: [String: FieldValue]) -> Set<String> {
        var ids = Set<String>()
        for case .items(let items) in values.values {
            for item in items {
                if let id = item.id { ids.insert(id) }
                ids.formUnion(itemIDs(item.values))
            }
        }
        return ids
    }
}
