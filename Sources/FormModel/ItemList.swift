/// A list of items an object holds, filled in on the same form: a sales order's items, a
/// travel's bookings, a household's members (`../shared/spec/items.md`). An item is a small
/// object of its own: fields in groups, as a section holds them, and item lists of its own, three
/// levels deep at most.
///
/// In a schema an item list stands among its section's groups (``FieldGroup/items``), in the
/// place the spec gives it.
public struct ItemList: Sendable, Hashable {
    /// The list's name, as a field's: the key of its items in the object's values, and the start
    /// of its items' input names (`members[0].age`).
    public var name: String
    /// The list's heading ("Household members").
    public var label: String
    /// What one item is called ("Member"): "Member 2" heads the second, "Add member" adds one.
    public var object: String
    /// How many items an object must have (a new form starts with this many) and may have.
    public var minCount: Int
    public var maxCount: Int
    /// How many items a new form starts with when not `minCount` (an XForm's repeat: the
    /// items its instance holds beside the template).
    public var startCount: Int?
    /// The values the items a new form starts with hold, item by item, by field name (an XForm's
    /// instance: the items beside the template, as written); nil when they hold none.
    public var startItems: [[String: String]]?
    /// Whether people add and remove items: false when the form gives the count (an XForm's
    /// repeat with `jr:count`, whose rules give it per submission) or fixes it
    /// (`jr:noAddRemove`). The page then shows no Add or Remove.
    public var addRemove: Bool
    /// An item's fields and item lists, in groups, in order.
    public var groups: [FieldGroup]
    public var location: SourceLocation?

    /// At most this many items in one list, whatever a spec says.
    public static let maxItems = 500
    /// At most this many items in one object, all lists and levels together.
    public static let maxItemsInObject = 2000
    /// Item lists within items, this many levels at most (a list of the form is level 1).
    public static let maxDepth = 3
    /// A list's `max-count` when its spec gives none.
    public static let defaultMaxCount = 100

    public init(
        name: String, label: String, object: String? = nil, minCount: Int = 0,
        maxCount: Int = ItemList.defaultMaxCount, startCount: Int? = nil, startItems: [[String: String]]? = nil,
        addRemove: Bool = true, groups: [FieldGroup], location: SourceLocation? = nil
    ) {
        self.startItems = startItems
        self.name = name
        self.label = label
        self.object = object ?? label
        self.minCount = minCount
        self.maxCount = maxCount
        self.startCount = startCount
        self.addRemove = addRemove
        self.groups = groups
        self.location = location
    }

    /// The item's own fields (not those of its item lists), in order.
    public var fields: [Field] {
        groups.flatMap(\.fields)
    }

    /// The item lists within an item, in order.
    public var lists: [ItemList] {
        groups.compactMap(\.items)
    }

    /// How many items a new form starts with.
    public var firstCount: Int {
        startCount ?? minCount
    }

    /// Whether a new item, or one of a list within, starts with the clock's reading (a `today`
    /// or `now` default).
    public var startsWithClock: Bool {
        fields.contains { field in ([field] + (field.children ?? [])).contains(where: \.defaultsToClock) }
            || lists.contains(where: \.startsWithClock)
    }

    /// How many levels of item lists this one holds, itself included.
    public var depth: Int {
        1 + (lists.map(\.depth).max() ?? 0)
    }

    /// A form's rules name an item's field for every item at once: `members[].age` for
    /// `members[1].age` (``RuleJudge/computedTexts`` and the other sets by field); a form's own
    /// field keeps its name.
    public static func ruleKey(_ name: String) -> String {
        guard name.utf8.contains(UInt8(ascii: "[")) else { return name }
        var key = ""
        var inIndex = false
        for character in name {
            if character == "[" {
                inIndex = true
                key.append("[")
            } else if character == "]" {
                inIndex = false
                key.append("]")
            } else if !inIndex {
                key.append(character)
            }
        }
        return key
    }

    /// An item's input name prefix and issue path: `members[1]`, `members[1].children[0]`.
    public static func itemPath(_ list: String, _ index: Int, in parent: String? = nil) -> String {
        let own = "\(list)[\(index)]"
        return parent.map { "\($0).\(own)" } ?? own
    }
}

extension FormSchema {
    /// The form's own item lists (not those within items), in document order.
    public var itemLists: [ItemList] {
        sections.flatMap { $0.groups.compactMap(\.items) }
    }

    /// The items a field's path runs through, as people name them: "Member 2" for
    /// `members[1].age`, "Member 2, Dose 1" for `members[1].doses[0].given`; nil for a form's own
    /// field (or a path the form does not have).
    public func itemNames(of path: String) -> String? {
        var lists = itemLists
        var names: [String] = []
        for step in path.split(separator: ".") {
            guard let (name, index) = Submission.itemStep(step),
                let list = lists.first(where: { $0.name == name })
            else { break }
            names.append("\(list.object) \(index + 1)")
            lists = list.lists
        }
        return names.isEmpty ? nil : names.joined(separator: ", ")
    }

    /// The field an item's input name stands for (`members[1].age`, `members[1].doses[0].given`);
    /// nil for a form's own field's name or a name the form does not have.
    public func field(atInput name: String) -> Field? {
        var lists = itemLists
        var found: ItemList?
        var rest = name
        while let (list, _, after) = Submission.itemInput(rest) {
            guard let next = lists.first(where: { $0.name == list }) else { return nil }
            found = next
            lists = next.lists
            rest = after
        }
        guard let found, !rest.contains(".") else { return nil }
        return found.fields.flatMap { [$0] + ($0.children ?? []) }.first { $0.name == rest }
    }

    /// The item list of the form with a name, if any.
    public func itemList(named name: String) -> ItemList? {
        itemLists.first { $0.name == name }
    }
}

extension [FieldGroup] {
    /// The groups with `change` made to them and to the groups of every item list within, at
    /// every level; a list's groups left with neither fields nor a list within go.
    public func editingWithinItems(_ change: (inout [FieldGroup]) -> Void) -> [FieldGroup] {
        var groups = self
        change(&groups)
        for g in groups.indices {
            guard var list = groups[g].items else { continue }
            list.groups = list.groups.editingWithinItems(change)
            list.groups.removeAll { $0.fields.isEmpty && $0.items == nil }
            groups[g].items = list
        }
        return groups
    }
}

extension FormSchema {
    /// Calls `body` with every field of the form's item lists, at every level, switch children
    /// after their switch, and its rule key (`members[].age`, `members[].doses[].given`).
    public func forEachItemField(_ body: (Field, _ key: String) -> Void) {
        func walk(_ lists: [ItemList], parent: String) {
            for list in lists {
                let within = "\(parent)\(list.name)[]."
                for field in list.fields {
                    body(field, within + field.name)
                    for child in field.children ?? [] { body(child, within + child.name) }
                }
                walk(list.lists, parent: within)
            }
        }
        walk(itemLists, parent: "")
    }

    /// The fields of one item list as a form's own, to ask about as a form's: its groups without
    /// the lists within, the form's option lists, and the list filters of its fields under their
    /// own names (``listFilters`` keys an item's by its rule key, `members[].country`).
    /// - Parameter key: the list's rule key (`members`, `members[].doses`).
    public func itemForm(of list: ItemList, key: String) -> FormSchema {
        let groups = list.groups.filter { $0.items == nil }
        var form = FormSchema(
            id: id, title: list.label, object: list.object, submit: submit, regular: regular,
            sections: [FormSection(kind: .properties, groups: groups)], lists: lists)
        let within = key + "[]."
        for (name, filters) in listFilters where name.hasPrefix(within) {
            let own = name.dropFirst(within.count)
            if !own.contains(".") { form.listFilters[String(own)] = filters }
        }
        return form
    }
}

extension Submission {
    /// The strings under a page's input name, an item's (`members[1].age`) read in its item;
    /// nil when there are none.
    public func strings(atInput name: String) -> [String]? {
        guard let (list, index, rest) = Self.itemInput(name) else { return fields[name] }
        guard let items = items[list], index < items.count else { return nil }
        return items[index].strings(atInput: rest)
    }
}

extension Submission {
    /// Puts strings under a page's input name, an item's (`members[1].age`) into its item; a
    /// name of an item the submission does not have changes nothing.
    public mutating func set(_ values: [String], atInput name: String) {
        guard let (list, index, rest) = Self.itemInput(name) else {
            fields[name] = values
            return
        }
        guard let count = items[list]?.count, index < count else { return }
        items[list]![index].set(values, atInput: rest)
    }
}
