import FormModel

/// An object's items in entity JSON: a deep insert's body (the parent with each composition's
/// items under its navigation property, V2 and V4 alike) and the items an answer holds inline.
extension ODataJSON {
    /// The body of a deep insert: the parent's fields as ``body(_:binding:)`` writes them, and
    /// under each composition's navigation property the array of its items, each written by the
    /// items' own binding, their own lists within.
    package func deepBody(_ values: [String: FieldValue], binding: ServiceBinding) throws(ODataValueError) -> [UInt8] {
        Array(try deepObject(values, binding: binding).text.utf8)
    }

    private func deepObject(
        _ values: [String: FieldValue], binding: ServiceBinding
    ) throws(ODataValueError) -> JSONValue {
        var members: [String: JSONValue] = [:]
        for (field, value) in values {
            if case .items(let items) = value {
                guard let composition = binding.compositions?[field] else { continue }
                var written: [JSONValue] = []
                for item in items { written.append(try deepObject(item.values, binding: composition.binding)) }
                members[composition.navigation] = .array(written)
                continue
            }
            guard let property = binding.fields[field], !property.computed else { continue }
            if case .files = value { continue }
            members[property.name] = try json(value, for: property)
        }
        return .object(members)
    }

    /// The names under which an entity answer's objects and arrays are read: V2's wrappers and
    /// metadata, and every composition's navigation property, at any depth.
    package static func containers(of binding: ServiceBinding) -> Set<String> {
        var names = entityContainers
        for composition in (binding.compositions ?? [:]).values {
            names.insert(composition.navigation)
            names.formUnion(containers(of: composition.binding))
        }
        return names
    }

    /// The items an entity object holds inline, by list name: V4 `"_Booking": [ … ]`, V2
    /// `"to_Item": {"results": [ … ]}` (or a plain array); a deferred link or an absent member is
    /// no list.
    /// - Parameter kinds: the form's field kinds, an item's field named as rules name it
    ///   (`_Booking[].FlightDate`).
    func inlineItems(
        _ object: [String: JSONValue], binding: ServiceBinding, kinds: [String: FieldKind]
    ) throws(ServiceFailure) -> [String: [ODataEntity]] {
        var lists: [String: [ODataEntity]] = [:]
        for (name, composition) in binding.compositions ?? [:] {
            let rows: [JSONValue]
            switch object[composition.navigation] {
            case .array(let plain)?: rows = plain
            case .object(let wrapped)?:
                guard let results = wrapped["results"]?.array else { continue }
                rows = results
            default: continue
            }
            let prefix = name + "[]."
            var within: [String: FieldKind] = [:]
            for (key, kind) in kinds where key.hasPrefix(prefix) { within[String(key.dropFirst(prefix.count))] = kind }
            var items: [ODataEntity] = []
            for row in rows {
                guard let member = row.object else { throw .badAnswer("an item of the answer is not an object") }
                items.append(try entity(member, binding: composition.binding, kinds: within))
            }
            lists[name] = items
        }
        return lists
    }
}
