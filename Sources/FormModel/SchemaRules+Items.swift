/// The rules for item lists (`../shared/spec/items.md`): part of ``FormSchema/ruleViolations()``.
extension FormSchema {
    /// The rules one item list breaks, and those of its fields and of the lists within it.
    /// - Parameter level: 1 for a list of the form, 2 for one within its items…
    func checkItemList(
        _ list: ItemList, level: Int, add: (SchemaIssue.Code, String, String?, SourceLocation?) -> Void
    ) {
        let at = list.location
        if !FormSchema.isValidName(list.name) {
            add(
                .badName,
                "The item list name \"\(list.name)\" must start with a letter or _ and hold only letters, digits and _.",
                list.name, at)
        }
        if list.label.trimmingCharacters(in: .whitespaces).isEmpty {
            add(.emptyTitle, "Give the item list \"\(list.name)\" a label.", list.name, at)
        }
        if list.minCount < 0 || list.maxCount < 1 || list.maxCount > ItemList.maxItems {
            add(
                .badItemCount,
                "The item list \"\(list.name)\" must allow 1 to \(ItemList.maxItems) items (max-count) and need 0 or more (min-count).",
                list.name, at)
        } else if list.minCount > list.maxCount {
            add(
                .badItemCount,
                "The item list \"\(list.name)\" needs at least \(list.minCount) items but allows at most \(list.maxCount); make min-count at most max-count.",
                list.name, at)
        }
        if level > ItemList.maxDepth {
            add(
                .itemsTooDeep,
                "The item list \"\(list.name)\" is \(level) levels deep; item lists nest \(ItemList.maxDepth) levels at most.",
                list.name, at)
        }
        if list.fields.isEmpty {
            add(
                .emptyItems, "The item list \"\(list.name)\" holds no field; give its items at least one.", list.name,
                at)
        }
        // Names are an item's own: `members[0].name` and a form's `name` do not meet.
        var names = Set<String>()
        for field in list.fields {
            for field in [field] + (field.children ?? []) {
                checkField(
                    field, names: &names,
                    twice: "is used twice in the items of \"\(list.name)\"; names must be unique in an item", add: add)
                if field.prefill != nil {
                    add(
                        .prefillInItems,
                        "The field \"\(field.name)\" in the items of \"\(list.name)\" has prefill; prefill works only outside item lists.",
                        field.name, field.location)
                }
            }
            checkChildren(of: field, add: add)
        }
        for inner in list.lists {
            if !names.insert(inner.name).inserted {
                add(
                    .duplicateName,
                    "The name \"\(inner.name)\" is used twice in the items of \"\(list.name)\"; names must be unique in an item.",
                    inner.name, inner.location)
            }
            checkItemList(inner, level: level + 1, add: add)
        }
    }
}
