import FormModel

/// Where the value help of a field is asked: for a form's own field, the form and its service
/// binding; for an item's field (`_Booking[1].AirlineID`), the item's fields as a form's
/// (``FormSchema/itemForm(of:key:)``) and its composition's binding, with the item's values
/// under their own names. ``ServiceValueHelps`` asks in a scope as it asks for a form, and its
/// answers, named in the scope, are named back as the page names them (``global(_:)``).
struct ValueHelpScope: Sendable {
    /// The fields asked about: the form, or one item's as a form's.
    let schema: FormSchema
    /// The service and the binding of the entity the fields belong to.
    let target: ServiceTarget
    /// The item's input prefix (`_Booking[1].`); empty for the form's own fields.
    let prefix: String

    /// The scope of a page's input name and the field's name in it; nil when an item list on the
    /// way stands for no composition of the service, or the name is no field's.
    static func of(_ input: String, schema: FormSchema, target: ServiceTarget) -> (scope: Self, field: String)? {
        var lists = schema.itemLists
        var binding = target.binding
        var rest = input
        var prefix = ""
        var key = ""
        var found: ItemList?
        while let (name, index, after) = Submission.itemInput(rest) {
            guard let list = lists.first(where: { $0.name == name }), let composition = binding.compositions?[name]
            else { return nil }
            prefix += "\(name)[\(index)]."
            key += key.isEmpty ? name : "[].\(name)"
            found = list
            lists = list.lists
            binding = composition.binding
            rest = after
        }
        guard let found else { return (Self(schema: schema, target: target, prefix: ""), input) }
        guard !rest.contains("."), !rest.contains("[") else { return nil }
        return (
            Self(
                schema: schema.itemForm(of: found, key: key),
                target: ServiceTarget(client: target.client, binding: binding, kinds: [:]), prefix: prefix),
            rest
        )
    }

    /// The scopes of every item of the lists that stand for compositions, at every level, each
    /// with the item's values: those of `submission`'s items, numbered as the page numbers them.
    static func items(
        of submission: Submission, schema: FormSchema, target: ServiceTarget
    ) -> [(
        scope: Self, item: Submission
    )] {
        var found: [(Self, Submission)] = []
        func walk(_ lists: [ItemList], _ submission: Submission, binding: ServiceBinding, prefix: String, key: String) {
            for list in lists {
                guard let composition = binding.compositions?[list.name], let items = submission.items[list.name]
                else { continue }
                let listKey = key.isEmpty ? list.name : "\(key)[].\(list.name)"
                let form = schema.itemForm(of: list, key: listKey)
                let itemTarget = ServiceTarget(client: target.client, binding: composition.binding, kinds: [:])
                for (index, item) in items.enumerated() {
                    let path = "\(prefix)\(list.name)[\(index)]."
                    found.append((Self(schema: form, target: itemTarget, prefix: path), item))
                    walk(list.lists, item, binding: composition.binding, prefix: path, key: listKey)
                }
            }
        }
        walk(schema.itemLists, submission, binding: target.binding, prefix: "", key: "")
        return found
    }

    /// Every item list that stands for a composition of the service, at every level, with its
    /// rule key (`_Booking`, `_Booking[]._BookSupplement`) and its composition's binding.
    static func compositions(
        of schema: FormSchema, binding: ServiceBinding
    ) -> [(
        key: String, list: ItemList, binding: ServiceBinding
    )] {
        var found: [(String, ItemList, ServiceBinding)] = []
        func walk(_ lists: [ItemList], binding: ServiceBinding, key: String) {
            for list in lists {
                guard let composition = binding.compositions?[list.name] else { continue }
                let listKey = key.isEmpty ? list.name : "\(key)[].\(list.name)"
                found.append((listKey, list, composition.binding))
                walk(list.lists, binding: composition.binding, key: listKey)
            }
        }
        walk(schema.itemLists, binding: binding, key: "")
        return found
    }

    /// A page's strings under the scope's own names: an item's fields' (not those of its lists).
    func local(_ strings: [String: [String]]) -> [String: [String]] {
        guard !prefix.isEmpty else { return strings }
        var own: [String: [String]] = [:]
        for (name, values) in strings where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            if !rest.contains("[") { own[String(rest)] = values }
        }
        return own
    }

    /// Names in the scope as the page names them (`AirlineID` → `_Booking[1].AirlineID`).
    func global<Value>(_ values: [String: Value]) -> [String: Value] {
        guard !prefix.isEmpty else { return values }
        return Dictionary(uniqueKeysWithValues: values.map { (prefix + $0.key, $0.value) })
    }

    /// The fields of the scope that are read-only in create mode, by their names in it: a choice
    /// gives them nothing. The form's own are the prepared form's (`readOnly`).
    func readOnly(_ form: Set<String>) -> Set<String> {
        guard !prefix.isEmpty else { return form }
        return Set(schema.allFields.filter { FormMode.create.isReadOnly($0) }.map(\.name))
    }
}
