import FormModel
import Foundation
import Synchronization

/// The plans of a form version's items, one per item path (`members[1]`,
/// `members[1].doses[0]`): an item's cells are a form's cells whose input names start with its
/// path, so its values, errors and ids fall into place as any field's. Each is rendered from
/// `partials/item` the first time an item at that path is shown, then kept with the version's
/// view, as the view itself is built on its first request: no template runs for it again.
final class ItemPlans: Sendable {
    private let renderer: PageRenderer
    private let schema: FormSchema
    private let mode: FormMode
    /// The form's rules (an XForm's): an item's cells are named for the page's script too.
    private let rules: (any RuleJudge)?
    /// The form's time zone: a new item's `today` and `now` defaults read the clock there.
    let timeZone: TimeZone
    /// Where the form is sent: the Add button goes there with the new item's place as fragment.
    let action: String
    private let plans = Mutex<[String: RenderPlan]>([:])
    /// The new-item templates' markup by list path (`ItemListSlot`), for lists whose new items
    /// read no clock: the same for every request.
    private let templates = Mutex<[String: [UInt8]]>([:])
    /// At most this many item paths keep their plans: nested lists make paths many
    /// (`members[499].doses[499]`), and a browser chooses which it sends. A path beyond is
    /// rendered for its request and not kept.
    static let capacity = 4_000

    init(
        renderer: PageRenderer, schema: FormSchema, mode: FormMode, rules: (any RuleJudge)?, timeZone: TimeZone,
        action: String
    ) {
        self.renderer = renderer
        self.timeZone = timeZone
        self.schema = schema
        self.mode = mode
        self.rules = rules
        self.action = action
    }

    /// The plan of the item of `list` at `path`, the `number`th of its list (from 1).
    func plan(for list: ItemList, at path: String, number: Int) -> RenderPlan {
        if let plan = plans.withLock({ $0[path] }) { return plan }
        let plan: RenderPlan
        do {
            let registry = SlotRegistry()
            let context = ItemContext(
                list, path: path, number: number, plans: self, registry: registry, schema: schema, mode: mode,
                rules: rules)
            plan = RenderPlan(
                pieces: try registry.split(try renderer.renderPartial(context, template: "partials/item")),
                markup: renderer.markup)
        } catch {
            // The templates are checked when the server starts and by the tests: a bug.
            preconditionFailure("the item template does not render: \(error)")
        }
        plans.withLock { plans in
            if plans.count < Self.capacity { plans[path] = plan }
        }
        return plan
    }

    /// The template markup of the list at `path`: kept, else made by `make` and kept when `keeps`
    /// (within ``capacity`` paths).
    func template(at path: String, keeps: Bool, _ make: () -> [UInt8]) -> [UInt8] {
        if keeps, let known = templates.withLock({ $0[path] }) { return known }
        let made = make()
        if keeps { templates.withLock { if $0.count < Self.capacity { $0[path] = made } } }
        return made
    }

    /// The fields of an item at `path`, named as its inputs are (`members[1].age`).
    static func fields(of list: ItemList, at path: String) -> [FieldGroup] {
        list.groups.map { group in
            var group = group
            group.fields = group.fields.map { field in
                var field = field
                field.name = "\(path).\(field.name)"
                field.children = field.children?.map { child in
                    var child = child
                    child.name = "\(path).\(child.name)"
                    return child
                }
                return field
            }
            return group
        }
    }
}

/// The template context of one item (`partials/item`).
struct ItemContext: KeyPathContext {
    let id: String
    let legend: String
    let path: String
    /// Whether the item has Remove: not when the form gives its list's count.
    let canRemove: Bool
    let removeName: String
    let removeLabel: String
    /// Where Remove sends the form: back at the list's heading.
    let removeAction: String
    /// The hidden input of the item's id (a slot: empty for a new item).
    let idInput: String
    let groups: [Group]

    struct Group: KeyPathContext {
        let hasLabel: Bool
        let label: PageText
        let fields: [FieldViewModel]
        /// The slot of the item list standing here, or nothing.
        let lists: String

        static let templateKeys: [String: PartialKeyPath<Group> & Sendable] = [
            "hasLabel": \.hasLabel, "label": \.label, "fields": \.fields, "lists": \.lists,
        ]
    }

    static let templateKeys: [String: PartialKeyPath<ItemContext> & Sendable] = [
        "id": \.id, "legend": \.legend, "path": \.path, "canRemove": \.canRemove, "removeName": \.removeName,
        "removeLabel": \.removeLabel,
        "removeAction": \.removeAction, "idInput": \.idInput, "groups": \.groups,
    ]

    init(
        _ list: ItemList, path: String, number: Int, plans: ItemPlans, registry: SlotRegistry, schema: FormSchema,
        mode: FormMode, rules: (any RuleJudge)?
    ) {
        id = DOMID.item(path)
        legend = "\(list.object) \(number)"
        self.path = path
        canRemove = list.addRemove
        removeName = InputName.removeItem
        removeLabel = "Remove \(list.noun) \(number)"
        let listPath = String(path[..<(path.lastIndex(of: "[") ?? path.endIndex)])
        // The edit view's action is the object's path, which differs per request.
        let action = plans.action.isEmpty ? registry.sentinel(PageSlots.ObjectPath()) : plans.action
        removeAction = "\(action)#\(DOMID.items(listPath))-label"
        idInput = registry.sentinel(InputSlots.ItemID(field: "\(path).\(FormValidator.itemIDName)"))
        let cells = FieldViewModel.Builder(schema: schema, registry: registry, mode: mode, rules: rules)
        groups = ItemPlans.fields(of: list, at: path).map { group in
            let label = PageText.nonEmpty(group.label)
            return Group(
                hasLabel: label != nil, label: label ?? "", fields: group.fields.map { cells.cell(for: $0) },
                lists: group.items.map { registry.sentinel(ItemListSlot(list: $0, parent: path, plans: plans)) } ?? "")
        }
    }
}
