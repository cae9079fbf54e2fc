import FormModel
import Foundation

/// An item list in a form's page: its heading with the count, each item from its plan, and
/// Add, which sends the form back with one more item (without JavaScript; ``InputName/addItem``).
/// Beside Add, a `<template>` of a new item at the index ``templateIndex``, its defaults filled
/// in, which the page's script (`Public/js/items.js`) clones, numbered, to add an item without a
/// page load.
struct ItemListSlot: Slot {
    let list: ItemList
    /// The path of the item holding the list; nil for a list of the form.
    let parent: String?
    let plans: ItemPlans

    /// The index of the template's item: one no list reaches (``ItemList/maxItems``), which
    /// the script replaces in the template's markup (`members[999999]` → `members[3]`).
    static let templateIndex = 999_999

    var path: String { parent.map { "\($0).\(list.name)" } ?? list.name }

    func write(_ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer) {
        let path = path
        let count = state.itemCounts[path] ?? 0
        let newItem = ItemList.itemPath(list.name, count, in: parent)
        let first = list.fields.first.map { DOMID.field("\(newItem).\($0.name)") } ?? DOMID.item(newItem)
        markup.itemList.write(to: &buffer) { part, buffer in
            switch part {
            case .id: HTML.writeEscaped(DOMID.items(path), to: &buffer)
            case .value: HTML.writeEscaped(path, to: &buffer)
            case .hidden: if state.hidden.contains(path) { markup.hidden.write(to: &buffer) }
            case .text: HTML.writeEscaped(list.label, to: &buffer)
            case .count: buffer.writeString(String(count))
            case .items:
                for index in 0..<count {
                    plans.plan(for: list, at: ItemList.itemPath(list.name, index, in: parent), number: index + 1)
                        .write(state, to: &buffer)
                }
            case .actions:
                // A list whose count the rules give changes it by the script too, without Add.
                writeTemplate(state, markup, to: &buffer)
                guard list.addRemove else { break }
                markup.itemAdd.write(to: &buffer) { part, buffer in
                    switch part {
                    case .name: HTML.writeEscaped(InputName.addItem, to: &buffer)
                    case .value: HTML.writeEscaped(path, to: &buffer)
                    // Back at the new item's first field.
                    case .href:
                        HTML.writeEscaped(
                            "\(plans.action.isEmpty ? state.objectPath : plans.action)#\(first)", to: &buffer)
                    case .label: HTML.writeEscaped("Add \(list.noun)", to: &buffer)
                    default: break
                    }
                }
            default: break
            }
        }
    }

    /// The new item's `<template>`: its plan at ``templateIndex`` with the values a new item starts
    /// with (its defaults, `today` and `now` read now), and what the script numbers it by. Nothing
    /// of a request but the clock shows in it: made once per list path when no default reads it.
    private func writeTemplate(_ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer) {
        let itemPath = ItemList.itemPath(list.name, Self.templateIndex, in: parent)
        // An edit view's buttons go to the object's own path.
        let bytes = plans.template(at: path, keeps: !list.startsWithClock && !plans.action.isEmpty) {
            var fresh = RenderState(values: [:], csrfToken: "")
            fresh.objectPath = state.objectPath
            let start = Submission.newItem(of: list, clock: ClockReading(now: Date(), timeZone: plans.timeZone))
            for (name, values) in start.pageInputs { fresh.values["\(itemPath).\(name)"] = values }
            fresh.itemCounts = start.itemCounts(of: list.lists, parent: itemPath)
            var made = PageBuffer(capacity: 4096)
            markup.itemTemplate.write(to: &made) { part, buffer in
                switch part {
                case .label: HTML.writeEscaped(list.label, to: &buffer)
                case .text: HTML.writeEscaped(list.object, to: &buffer)
                case .name: HTML.writeEscaped(list.noun, to: &buffer)
                case .count: buffer.writeString(String(min(list.maxCount, ItemList.maxItems)))
                case .items:
                    plans.plan(for: list, at: itemPath, number: Self.templateIndex + 1).write(fresh, to: &buffer)
                default: break
                }
            }
            return made.bytes
        }
        buffer.writeBytes(bytes)
    }

    static func == (a: ItemListSlot, b: ItemListSlot) -> Bool {
        a.path == b.path && a.plans === b.plans
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(path)
        hasher.combine(ObjectIdentifier(plans))
    }
}
