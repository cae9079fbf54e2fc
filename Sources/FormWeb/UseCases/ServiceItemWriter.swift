import FormModel
import FormService
import FormStore
import Foundation

/// An object's items written to its service one request each (`../shared/spec/items.md`,
/// "Connected to the service"): into a draft root's draft (a create's new draft, or the draft the
/// Edit action made), or into an entity that keeps no drafts (an edit's changed items). Removed
/// items are deleted, changed ones get their changed fields, new ones are created through their
/// parent's navigation property; the lists within an item follow it. Keeps where each item lives
/// (``links``) and where each was placed (``places``), so that a refusal's target finds its item.
struct ServiceItemWriter {
    let client: ODataClient
    /// Whether the items are a draft's (their keys made draft keys, `If-Match: *`: the draft is
    /// this operation's own) or an active entity's (each change with its item's ETag).
    let draft: Bool
    /// Where each item lives in the service, by its `_id`; updated as items are written.
    var links: [String: ServiceLink.Item]
    /// Every item written or kept, in page order.
    private(set) var places: [Place] = []
    /// What was done, as people say it ("Booking 2 added"), for a page that must say what was
    /// applied when a later request was refused.
    private(set) var applied: [String] = []
    /// The item a failure was about, by its path (`_Booking[1]`), when the failure came from a
    /// request for one item.
    private(set) var failedAt: String?
    /// Whether that item is one being removed: it has no cells on the page, so its messages go in
    /// the summary with its name.
    private var failedRemoving = false

    /// One item where the service has it.
    struct Place {
        /// Its input path (`_Booking[1]`, `_Booking[1]._BookSupplement[0]`).
        var path: String
        /// The navigation properties from the object to the item.
        var navigations: [String]
        var key: [String: FieldValue]
        var binding: ServiceBinding
    }

    init(client: ODataClient, draft: Bool, links: [String: ServiceLink.Item]) {
        self.client = client
        self.draft = draft
        self.links = links
    }

    private var timeZone: TimeZone { client.connection.timeZone }

    /// Writes the lists of `new` under their parent, which had the lists of `old`.
    /// - Parameters:
    ///   - parent: the parent's key (the object's, or an item's) as the service gave it.
    ///   - schema: for the words of ``applied``.
    mutating func write(
        old: [String: FieldValue], new: [String: FieldValue], parent: [String: FieldValue], binding: ServiceBinding,
        schema: FormSchema, prefix: String? = nil, navigations: [String] = []
    ) async throws(ServiceFailure) {
        let compositions = (binding.compositions ?? [:]).sorted { $0.key < $1.key }
        for (name, composition) in compositions {
            let before = Self.items(old[name])
            let after = Self.items(new[name])
            let kept = Set(after.compactMap(\.id))
            // Removed first: a new item may take a removed one's place (its semantic key).
            for (index, item) in before.enumerated() {
                guard let id = item.id, !kept.contains(id) else { continue }
                let path = ItemList.itemPath(name, index, in: prefix)
                try await remove(item, path: path, binding: composition.binding, schema: schema)
            }
            let was = Dictionary(before.compactMap { item in item.id.map { ($0, item) } }) { first, _ in first }
            for (index, item) in after.enumerated() {
                let path = ItemList.itemPath(name, index, in: prefix)
                let chain = navigations + [composition.navigation]
                let key: [String: FieldValue]
                // An item the service has: changed. One it has though the object's values do not
                // (added by an edit whose later request was refused) is sent whole.
                if let id = item.id, let link = links[id],
                    let known = ServiceKey.decode(link.key, binding: composition.binding, timeZone: timeZone)
                {
                    let previous = was[id] ?? ItemValues(id: id, values: [:])
                    key = known
                    try await change(
                        previous, to: item, key: known, link: link, path: path, binding: composition.binding,
                        schema: schema)
                    places.append(Place(path: path, navigations: chain, key: known, binding: composition.binding))
                    try await write(
                        old: previous.values, new: item.values, parent: key, binding: composition.binding,
                        schema: schema, prefix: path, navigations: chain)
                } else {
                    failedAt = path
                    let created = try await client.createItem(
                        ServiceObjects.sendable(item.values, binding: composition.binding), composition: composition,
                        parent: parent, parentBinding: binding, draft: draft)
                    failedAt = nil
                    key = created.key
                    if let id = item.id {
                        links[id] = ServiceLink.Item(
                            key: ServiceKey.encode(created.key, binding: composition.binding, timeZone: timeZone),
                            etag: created.etag)
                    }
                    applied.append("\(Self.name(path, schema)) added")
                    places.append(Place(path: path, navigations: chain, key: key, binding: composition.binding))
                    try await write(
                        old: [:], new: item.values, parent: key, binding: composition.binding, schema: schema,
                        prefix: path, navigations: chain)
                }
            }
        }
    }

    /// Sends an item's changed fields (an emptied value stays, as for the object's own fields).
    private mutating func change(
        _ previous: ItemValues, to item: ItemValues, key: [String: FieldValue], link: ServiceLink.Item, path: String,
        binding: ServiceBinding, schema: FormSchema
    ) async throws(ServiceFailure) {
        var changes: [String: FieldValue] = [:]
        for (name, property) in binding.fields where !property.computed {
            guard let value = item.values[name], value != previous.values[name] else { continue }
            changes[name] = value
        }
        let sendable = ServiceObjects.sendable(changes, binding: binding)
        guard !sendable.isEmpty else { return }
        failedAt = path
        let answer: ChangeAnswer
        if draft {
            answer = try await client.updateDraft(key: key, changes: sendable, etag: "*", binding: binding)
        } else {
            answer = try await client.update(key: key, changes: sendable, etag: link.etag, binding: binding)
        }
        failedAt = nil
        if let id = item.id { links[id]?.etag = answer.etag ?? link.etag }
        applied.append("\(Self.name(path, schema)) changed")
    }

    /// Deletes a removed item (its own items go with it in the service) and forgets it, with the
    /// items within.
    private mutating func remove(
        _ item: ItemValues, path: String, binding: ServiceBinding, schema: FormSchema
    ) async throws(ServiceFailure) {
        guard let id = item.id, let link = links[id],
            let key = ServiceKey.decode(link.key, binding: binding, timeZone: timeZone)
        else { return }
        failedAt = path
        failedRemoving = true
        do {
            try await client.deleteItem(key: key, etag: draft ? nil : link.etag, binding: binding, draft: draft)
        } catch .notFound {
            // Gone already.
        }
        failedAt = nil
        failedRemoving = false
        links[id] = nil
        for within in FieldValue.itemIDs(item.values) { links[within] = nil }
        applied.append("\(Self.name(path, schema)) removed")
    }

    /// An item as people name it ("Booking 2").
    private static func name(_ path: String, _ schema: FormSchema) -> String {
        schema.itemNames(of: path + ".x") ?? path
    }

    static func items(_ value: FieldValue?) -> [ItemValues] {
        if case .items(let items)? = value { return items }
        return []
    }

    /// The item a refusal's target names (`in/_Booking(BookingUUID=…,IsActiveEntity=false)/FlightDate`),
    /// as its field's input name (`_Booking[1].FlightDate`); nil when no item written or kept
    /// here has that key, or its binding no field for the property.
    func input(forTarget target: String) -> String? {
        guard let (steps, property) = ODataErrorBody.itemSteps(fromTarget: target) else { return nil }
        let navigations = steps.map(\.navigation)
        guard
            let place = places.first(where: { place in
                place.navigations == navigations
                    && Self.sameKey(ODataErrorBody.keyValues(steps.last!.predicate), place.key, place.binding)
            }), let field = place.binding.field(forProperty: property)
        else { return nil }
        return place.path + "." + field
    }

    /// Whether a predicate's values name this key: every key property the predicate names has
    /// the key's value (a single unnamed value stands for a single key property); the draft
    /// flag is left out, as the service may name the draft or the active item.
    private static func sameKey(
        _ written: [String: String], _ key: [String: FieldValue], _ binding: ServiceBinding
    ) -> Bool {
        guard !written.isEmpty else { return false }
        for property in binding.keys where property.name != "IsActiveEntity" {
            let name = written[property.name] != nil ? property.name : binding.keys.count == 1 ? "" : property.name
            guard let text = written[name] else { continue }
            guard let value = key[property.name], let type = EdmType(name: property.type),
                let edm = try? EdmValue(value, type: type, property: property.name, timeZone: .utc)
            else { return false }
            if edm.plainText.lowercased() != text.lowercased() { return false }
        }
        return true
    }
}

extension ServiceItemWriter {
    /// A failure with its messages placed: those of a request for one item under that item's
    /// cells (or, naming no field of it, in the summary with the item's name), those whose target
    /// names an item under its cell.
    func placing(_ failure: ServiceFailure, schema: FormSchema) -> ServiceFailure {
        guard case .refused(let status, let messages) = failure else { return failure }
        return .refused(
            status: status,
            messages: messages.map { message in
                var message = message
                if let failedAt {
                    if let field = message.field, !failedRemoving {
                        message.field = failedAt + "." + field
                    } else {
                        message.field = nil
                        // Naming no field of the item: in the summary, with the item's name, and
                        // never under a field of the object's own that has the property's name.
                        let removed = failedRemoving ? " (removed)" : ""
                        message.message = "\(Self.name(failedAt, schema))\(removed): \(message.message)"
                        message.target = nil
                    }
                } else if message.field == nil, let path = message.path, let input = input(forTarget: path) {
                    message.field = input
                }
                return message
            })
    }

    /// Where each item of `values` lives, read from the service's `entity` with its items inline:
    /// each item found by its key where `known` has one (the draft flag and draft id aside: a
    /// draft's items become active ones), else by its place in the list.
    static func links(
        _ values: [String: FieldValue], entity: ODataEntity, binding: ServiceBinding,
        known: [String: ServiceLink.Item] = [:], timeZone: TimeZone
    ) -> [String: ServiceLink.Item] {
        var links: [String: ServiceLink.Item] = [:]
        for (name, composition) in binding.compositions ?? [:] {
            let theirs = entity.items[name] ?? []
            var free = Array(theirs.indices)
            for (index, item) in items(values[name]).enumerated() {
                guard let id = item.id else { continue }
                var match: Int?
                if let link = known[id],
                    let key = ServiceKey.decode(link.key, binding: composition.binding, timeZone: timeZone)
                {
                    match = free.first { sameItem(theirs[$0].key, key, composition.binding, timeZone) }
                }
                if match == nil, free.contains(index) { match = index }
                guard let found = match else { continue }
                free.removeAll { $0 == found }
                links[id] = ServiceLink.Item(
                    key: ServiceKey.encode(theirs[found].key, binding: composition.binding, timeZone: timeZone),
                    etag: theirs[found].etag)
                links.merge(
                    Self.links(
                        item.values, entity: theirs[found], binding: composition.binding, known: known,
                        timeZone: timeZone)
                ) { _, new in new }
            }
        }
        return links
    }

    /// Whether two keys name the same item, a draft's and an active one alike.
    private static func sameItem(
        _ one: [String: FieldValue], _ other: [String: FieldValue], _ binding: ServiceBinding, _ timeZone: TimeZone
    ) -> Bool {
        let own = binding.keys.filter { $0.name != "IsActiveEntity" && $0.name != "DraftUUID" }
        guard !own.isEmpty else { return false }
        return own.allSatisfy { property in
            guard let type = EdmType(name: property.type), let a = one[property.name], let b = other[property.name],
                let left = try? EdmValue(a, type: type, property: property.name, timeZone: timeZone),
                let right = try? EdmValue(b, type: type, property: property.name, timeZone: timeZone)
            else { return false }
            return left.plainText.lowercased() == right.plainText.lowercased()
        }
    }
}

extension ServiceItemWriter {
    /// The object's lists as the service holds them (`entity` read with its items), and where
    /// each item lives: an item keeps its `_id` where a link names its key, one the service has
    /// that Fieldwork did not know (added in Fiori) gets a new one, one it no longer has goes. A
    /// list the answer did not hold stays as it was.
    static func refreshed(
        _ values: [String: FieldValue], entity: ODataEntity, binding: ServiceBinding,
        links: [String: ServiceLink.Item], timeZone: TimeZone
    ) -> (values: [String: FieldValue], links: [String: ServiceLink.Item]) {
        var values = values
        var kept: [String: ServiceLink.Item] = [:]
        for (name, composition) in binding.compositions ?? [:] {
            let ours = items(values[name])
            guard let theirs = entity.items[name] else {
                for id in FieldValue.itemIDs([name: .items(ours)]) { kept[id] = links[id] }
                continue
            }
            var refreshed: [ItemValues] = []
            for item in theirs {
                let known = ours.first { own in
                    guard let id = own.id, let link = links[id],
                        let key = ServiceKey.decode(link.key, binding: composition.binding, timeZone: timeZone)
                    else { return false }
                    return sameItem(key, item.key, composition.binding, timeZone)
                }
                let id = known?.id ?? UUID().uuidString.lowercased()
                var itemValues = known?.values ?? [:]
                for field in composition.binding.fields.keys { itemValues[field] = item.values[field] }
                let (within, withinLinks) = Self.refreshed(
                    itemValues, entity: item, binding: composition.binding, links: links, timeZone: timeZone)
                kept[id] = ServiceLink.Item(
                    key: ServiceKey.encode(item.key, binding: composition.binding, timeZone: timeZone),
                    etag: item.etag)
                kept.merge(withinLinks) { _, new in new }
                refreshed.append(ItemValues(id: id, values: within))
            }
            values[name] = .items(refreshed)
        }
        return (values, kept)
    }
}

extension ServiceItemWriter {
    /// Where the items of `values` live, by their paths (`_Booking[1]`, `_Booking[1]._X[0]`)
    /// rather than their ids: a kept draft's, for a form whose items get new ids when sent again.
    static func byPath(_ values: [String: FieldValue], links: [String: ServiceLink.Item]) -> [String: ServiceLink.Item]
    {
        var found: [String: ServiceLink.Item] = [:]
        eachItem(of: values) { path, id in found[path] = links[id] }
        return found
    }

    /// The places of ``byPath(_:links:)`` given to the items of `values` at those paths, by their ids.
    static func byID(_ values: [String: FieldValue], paths: [String: ServiceLink.Item]) -> [String: ServiceLink.Item] {
        var found: [String: ServiceLink.Item] = [:]
        eachItem(of: values) { path, id in found[id] = paths[path] }
        return found
    }

    /// Calls `body` with the path and id of every item of `values` that has an id, every level.
    private static func eachItem(
        of values: [String: FieldValue], parent: String? = nil, _ body: (_ path: String, _ id: String) -> Void
    ) {
        for (name, value) in values {
            for (index, item) in items(value).enumerated() {
                let path = ItemList.itemPath(name, index, in: parent)
                if let id = item.id { body(path, id) }
                eachItem(of: item.values, parent: path, body)
            }
        }
    }
}
