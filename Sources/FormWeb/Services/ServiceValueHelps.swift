import FormModel
import FormPages
import FormService
import Foundation
import Synchronization

/// Value helps read from a form's OData service (`../shared/spec/odata-service.md`, "Value
/// helps"): a page of options for the list screen and the no-JavaScript search, the whole of a
/// fixed-value list, the fields a chosen row fills, and the check of each submitted value, which
/// the server makes before it accepts an object. Answers are kept
/// for ``lifetime``: a list screen paging back and forth, or a create shown again, asks the
/// service once.
final class ServiceValueHelps: Sendable {
    /// How long an answer is kept.
    static let lifetime: Duration = .seconds(60)
    /// Options a page.
    static let pageSize = 50
    /// Answers kept at most; past it the oldest half goes.
    static let capacity = 2000

    private struct Entry: Sendable {
        var expires: ContinuousClock.Instant
        var page: OptionPage? = nil
        var found: ValueHelpRow?? = nil
        var fixed: OptionPage? = nil
    }

    private let entries = Mutex<[String: Entry]>([:])

    init() {}

    /// One page (1-based) of the options of `field` matching `query`, filtered by what the form holds.
    func page(
        _ field: String, query: String, page: Int, formValues: [String: FieldValue], target: ServiceTarget
    ) async throws(ServiceFailure) -> OptionPage {
        let formValues = Self.filters(of: field, in: formValues, target: target)
        let key =
            "p|\(target.client.connection.rootText)|\(target.binding.entitySet)|\(field)|\(page)|\(query)|\(Self.describe(formValues))"
        if let hit = cached(key)?.page { return hit }
        let found = try await target.client.options(
            for: field, binding: target.binding, search: query.isEmpty ? nil : query, formValues: formValues,
            top: Self.pageSize, skip: (page - 1) * Self.pageSize)
        keep(key, Entry(expires: .now + Self.lifetime, page: found))
        return found
    }

    /// The row of a submitted value in the service (its option and what it gives other
    /// fields), or nil when it has none.
    func lookup(
        _ value: String, field: String, formValues: [String: FieldValue], target: ServiceTarget
    ) async throws(ServiceFailure) -> ValueHelpRow? {
        let key = Self.lookupKey(value, field: field, formValues: formValues, target: target)
        if let hit = cached(key)?.found { return hit }
        let found = try await target.client.lookup(
            .choice(value), for: field, binding: target.binding,
            formValues: Self.filters(of: field, in: formValues, target: target))
        keep(key, Entry(expires: .now + Self.lifetime, found: .some(found)))
        return found
    }

    private static func lookupKey(
        _ value: String, field: String, formValues: [String: FieldValue], target: ServiceTarget
    ) -> String {
        let filters = filters(of: field, in: formValues, target: target)
        return
            "l|\(target.client.connection.rootText)|\(target.binding.entitySet)|\(field)|\(value)|\(describe(filters))"
    }

    /// The whole list of a fixed-value help up to one more than a list shown whole may hold,
    /// with its total when counted; nil when the service did not answer.
    func fixedOptions(_ field: String, formValues: [String: FieldValue], target: ServiceTarget) async -> OptionPage? {
        let formValues = Self.filters(of: field, in: formValues, target: target)
        let key =
            "f|\(target.client.connection.rootText)|\(target.binding.entitySet)|\(field)|\(Self.describe(formValues))"
        if let hit = cached(key)?.fixed { return hit }
        guard
            let found = try? await target.client.fixedOptions(
                for: field, binding: target.binding, formValues: formValues, limit: FormSchema.longListThreshold + 1)
        else { return nil }
        keep(key, Entry(expires: .now + Self.lifetime, fixed: found))
        return found
    }

    /// Puts the service's whole list into each fixed-value list (`ValueListWithFixedValues`)
    /// that stands alone, as Fiori elements shows it, a dropdown: one neither filtered by other
    /// fields nor giving them values, that the service answered for, with at most
    /// ``FormSchema/longListThreshold`` options. Such a field is an ordinary choice, checked
    /// against that list; any other stays a long list. An item's fields are asked in their
    /// composition's value helps. Returns whether the schema has such lists, whose options are
    /// then good for ``lifetime``.
    func putFixedLists(into schema: inout FormSchema, target: ServiceTarget) async -> Bool {
        func standing(_ form: FormSchema, _ target: ServiceTarget) -> [(field: Field, target: ServiceTarget)] {
            Self.fed(form, target).filter { field in
                guard let help = target.binding.valueHelps[field.name], help.fixedValues else { return false }
                return !help.parameters.contains {
                    $0.field != nil && $0.field != field.name && $0.kind != .displayOnly
                }
            }.map { ($0, target) }
        }
        var fields = standing(schema, target)
        for (key, list, binding) in ValueHelpScope.compositions(of: schema, binding: target.binding) {
            fields += standing(
                schema.itemForm(of: list, key: key), ServiceTarget(client: target.client, binding: binding, kinds: [:]))
        }
        guard !fields.isEmpty else { return false }
        let lists = await withTaskGroup(of: (Int, OptionPage?).self) { group in
            for (index, (field, target)) in fields.enumerated() {
                group.addTask { (index, await self.fixedOptions(field.name, formValues: [:], target: target)) }
            }
            var lists: [Int: OptionPage] = [:]
            for await (index, page) in group { lists[index] = page }
            return lists
        }
        for (index, (field, _)) in fields.enumerated() {
            // Whole: all the service counted (a service may page below what was asked for).
            guard let page = lists[index], case let options = page.options, !options.isEmpty,
                options.count <= FormSchema.longListThreshold, (page.total ?? options.count) == options.count,
                let list = schema.lists.firstIndex(where: { $0.id == field.list })
            else { continue }
            schema.lists[list].groups = [OptionGroup(options: options)]
            schema.lists[list].remote = false
        }
        return true
    }

    /// Fills the fields a chosen value gives (its value help's `Out` and `InOut` parameters of
    /// other fields) that are empty, as Fiori elements does when a row is chosen, from the row
    /// the service has for it; read-only fields and fields of other forms are left alone. Returns
    /// the values filled, by field name. A value the service has no row for fills nothing (its
    /// check refuses it); the row found also answers the check once the fields are filled.
    /// - Parameter replacing: the one list whose row replaces the other fields' values (a
    ///   choice made on purpose, without JavaScript), not only fills the empty ones.
    func fill(
        _ fields: inout [String: [String]], schema: FormSchema, readOnly: Set<String> = [], target: ServiceTarget,
        replacing: String? = nil
    ) async -> [String: [String]] {
        let given = fields
        let empty = { (name: String) in (given[name] ?? []).allSatisfy(\.isEmpty) }
        var asks: [(field: String, value: String)] = []
        for field in Self.fed(schema, target) where replacing == nil || replacing == field.name {
            guard let strings = fields[field.name], strings.count == 1, let value = strings.first, !value.isEmpty
            else { continue }
            let gives = Self.gives(field.name, schema: schema, readOnly: readOnly, target: target)
            if gives.contains(where: { replacing != nil || empty($0.name) }) { asks.append((field.name, value)) }
        }
        guard !asks.isEmpty else { return [:] }
        // A choice made on purpose is looked up without the values it replaces.
        let replaced = replacing.map { Set(Self.gives($0, schema: schema, target: target).map(\.name)) } ?? []
        let values = Self.choices(fields.filter { !replaced.contains($0.key) })
        let found = await lookups(asks, formValues: values, target: target)
        let rows = zip(asks, found).compactMap { ask, row in row.flatMap { $0 }.map { (ask: ask, row: $0) } }
            .sorted { $0.ask.field < $1.ask.field }
        var filled: [String: [String]] = [:]
        for (ask, row) in rows {
            for field in Self.gives(ask.field, schema: schema, readOnly: readOnly, target: target)
            where (replacing != nil || empty(field.name)) && filled[field.name] == nil {
                if let value = row.fills[field.name] { filled[field.name] = [value] }
            }
        }
        for (name, strings) in filled { fields[name] = strings }
        // The row meets the filters its own values make: the check after the fill asks nothing
        // again (unless a value it was to replace stayed, which it was not looked up with).
        let now = Self.choices(fields)
        for (ask, row) in rows where replaced.allSatisfy({ filled[$0] != nil }) {
            keep(
                Self.lookupKey(ask.value, field: ask.field, formValues: now, target: target),
                Entry(expires: .now + Self.lifetime, found: .some(row)))
        }
        return filled
    }

    /// One value to look up: the input it came from (`CurrencyCode`, `_Booking[1].AirlineID`),
    /// its field, the values beside it (the object's, or its item's) and where it is asked.
    struct Ask {
        var input: String
        var field: String
        /// The field's label, for the messages.
        var label: String
        var value: String
        var formValues: [String: FieldValue]
        var target: ServiceTarget
    }

    /// Checks every value of the form's service-fed lists in the service, its items' too (each
    /// in its composition's value help, filtered by its own item's values); a value it does not
    /// have, or cannot be asked about, becomes an issue under its field.
    func check(_ result: inout ValidationResult, schema: FormSchema, target: ServiceTarget) async {
        // Every value to look up, asked at once: a service that hangs costs one time limit, not
        // one per field.
        var asks: [Ask] = []
        Self.collect(&asks, values: result.values, fields: Self.fed(schema, target), prefix: nil, target: target)
        Self.collectItems(
            &asks, values: result.values, lists: schema.itemLists, schema: schema, prefix: nil, target: target)
        guard !asks.isEmpty else { return }
        let rows = await lookups(asks)
        let answers = rows.map { row in row.map { $0 != nil } }
        var refused = Set<String>()
        let before = result.issues.count
        for (ask, found) in zip(asks, answers) where !refused.contains(ask.input) {
            switch found {
            case true?:
                continue
            case false?:
                result.issues.append(
                    FieldIssue(
                        field: ask.input, code: .notAnOption,
                        message:
                            "Choose \(ask.label) from the list: \(ask.value) is not one of its options."))
            case nil:
                result.issues.append(
                    FieldIssue(
                        field: ask.input, code: .unchecked,
                        message:
                            "\(ask.label) could not be checked because the service did not answer. Send the form again to try again."
                    ))
            }
            refused.insert(ask.input)
        }
        // Issues in form order, as validation gives them; an item's after the form's own fields.
        guard result.issues.count > before else { return }
        var order: [String: Int] = [:]
        schema.forEachField { field in
            if order[field.name] == nil { order[field.name] = order.count }
        }
        for ask in asks where order[ask.input] == nil { order[ask.input] = order.count }
        result.issues.sort { (order[$0.field] ?? Int.max) < (order[$1.field] ?? Int.max) }
    }

    private static func collect(
        _ asks: inout [Ask], values: [String: FieldValue], fields: [Field], prefix: String?, target: ServiceTarget
    ) {
        for field in fields {
            let input = prefix.map { "\($0).\(field.name)" } ?? field.name
            switch values[field.name] {
            case .choice(let value):
                asks.append(
                    Ask(
                        input: input, field: field.name, label: field.displayName, value: value, formValues: values,
                        target: target))
            case .choices(let chosen):
                asks += chosen.map {
                    Ask(
                        input: input, field: field.name, label: field.displayName, value: $0, formValues: values,
                        target: target)
                }
            default: continue
            }
        }
    }

    /// The asks of every item of the lists that stand for compositions, every level.
    private static func collectItems(
        _ asks: inout [Ask], values: [String: FieldValue], lists: [ItemList], schema: FormSchema, prefix: String?,
        target: ServiceTarget
    ) {
        for list in lists {
            guard let composition = target.binding.compositions?[list.name],
                case .items(let items)? = values[list.name]
            else { continue }
            let itemTarget = ServiceTarget(client: target.client, binding: composition.binding, kinds: [:])
            let fed = list.fields.filter { feeds($0, schema, itemTarget) }
            for (index, item) in items.enumerated() {
                let path = ItemList.itemPath(list.name, index, in: prefix)
                collect(&asks, values: item.values, fields: fed, prefix: path, target: itemTarget)
                collectItems(
                    &asks, values: item.values, lists: list.lists, schema: schema, prefix: path, target: itemTarget)
            }
        }
    }

    /// The rows of several values at once, in order: each from the cache when it is there, the
    /// others asked together (a service that hangs costs one time limit, not one per value); nil
    /// where the service did not answer. Answers from the cache start no task: a create whose
    /// values were all looked up in the last minute waits for nothing.
    private func lookups(
        _ asks: [(field: String, value: String)], formValues: [String: FieldValue], target: ServiceTarget
    ) async -> [ValueHelpRow??] {
        await lookups(
            asks.map {
                Ask(
                    input: $0.field, field: $0.field, label: $0.field, value: $0.value, formValues: formValues,
                    target: target)
            })
    }

    func lookups(_ asks: [Ask]) async -> [ValueHelpRow??] {
        var rows = [ValueHelpRow??](repeating: nil, count: asks.count)
        var missing: [Int] = []
        for (index, ask) in asks.enumerated() {
            let key = Self.lookupKey(ask.value, field: ask.field, formValues: ask.formValues, target: ask.target)
            if let hit = cached(key)?.found { rows[index] = .some(hit) } else { missing.append(index) }
        }
        guard !missing.isEmpty else { return rows }
        let asked = await withTaskGroup(of: (Int, ValueHelpRow??).self) { group in
            for index in missing {
                let ask = asks[index]
                group.addTask {
                    do {
                        return (
                            index,
                            .some(
                                try await self.lookup(
                                    ask.value, field: ask.field, formValues: ask.formValues, target: ask.target))
                        )
                    } catch {
                        return (index, nil)
                    }
                }
            }
            var asked: [(Int, ValueHelpRow??)] = []
            for await answer in group { asked.append(answer) }
            return asked
        }
        for (index, row) in asked { rows[index] = row }
        return rows
    }

    private func cached(_ key: String) -> Entry? {
        entries.withLock { entries in
            guard let entry = entries[key] else { return nil }
            guard entry.expires > .now else {
                entries[key] = nil
                return nil
            }
            return entry
        }
    }

    private func keep(_ key: String, _ entry: Entry) {
        entries.withLock { entries in
            if entries.count >= Self.capacity {
                let now = ContinuousClock.now
                entries = entries.filter { $0.value.expires > now }
                if entries.count >= Self.capacity {
                    for old in entries.sorted(by: { $0.value.expires < $1.value.expires }).prefix(Self.capacity / 2) {
                        entries[old.key] = nil
                    }
                }
            }
            entries[key] = entry
        }
    }

    /// The fields of the form a choice in a field's value help gives values to (its `Out` and
    /// `InOut` parameters of other fields), in form order; read-only ones are not given anything.
    static func gives(
        _ field: String, schema: FormSchema, readOnly: Set<String> = [], target: ServiceTarget
    ) -> [Field] {
        let names = parameterFields(of: field, [.out, .inOut], binding: target.binding)
        guard !names.isEmpty else { return [] }
        var given: [Field] = []
        schema.forEachField { other in
            if other.name != field, names.contains(other.name), !readOnly.contains(other.name) { given.append(other) }
        }
        return given
    }

    /// What a row gives the form's fields (``gives(_:schema:readOnly:target:)``), by field name.
    static func fills(
        _ fills: [String: String], of field: String, schema: FormSchema, readOnly: Set<String>, target: ServiceTarget
    ) -> [String: String] {
        let given = Set(gives(field, schema: schema, readOnly: readOnly, target: target).map(\.name))
        return fills.filter { given.contains($0.key) }
    }

    /// Whether the service feeds a field's list: a value help in the binding, and a list the form
    /// marked remote (uploaded options win over the service).
    static func feeds(_ name: String, _ schema: FormSchema, _ target: ServiceTarget) -> Bool {
        schema.field(named: name).map { feeds($0, schema, target) } ?? false
    }

    /// The fields whose lists the service feeds, in form order.
    static func fed(_ schema: FormSchema, _ target: ServiceTarget) -> [Field] {
        // Only the fields fed are copied (a `Field` is costly to copy; this runs on every create).
        var fed: [Field] = []
        schema.forEachField { if feeds($0, schema, target) { fed.append($0) } }
        return fed
    }

    private static func feeds(_ field: Field, _ schema: FormSchema, _ target: ServiceTarget) -> Bool {
        guard target.binding.valueHelps[field.name] != nil, let listID = field.list else { return false }
        return schema.list(id: listID)?.remote == true
    }

    /// The values of the other fields that filter a field's value help (its `In` and `InOut`
    /// parameters): the only ones that change its answers.
    static func filters(
        of field: String, in values: [String: FieldValue], target: ServiceTarget
    ) -> [String: FieldValue] {
        let names = filterNames(of: field, binding: target.binding)
        return values.filter { names.contains($0.key) }
    }

    /// The other fields whose values filter a field's value help (its `In` and `InOut` parameters).
    static func filterNames(of field: String, binding: ServiceBinding) -> Set<String> {
        parameterFields(of: field, [.in, .inOut], binding: binding)
    }

    /// The other fields a field's value help names in its parameters of these kinds.
    private static func parameterFields(
        of field: String, _ kinds: Set<ValueHelp.Parameter.Kind>, binding: ServiceBinding
    ) -> Set<String> {
        Set(
            (binding.valueHelps[field]?.parameters ?? []).filter { kinds.contains($0.kind) && $0.field != field }
                .compactMap(\.field))
    }

    /// A page's strings as the values that filter lists: each field's first, when not empty (a
    /// select left at "Select" sends an empty one, which filters nothing).
    static func choices(_ strings: [String: [String]]) -> [String: FieldValue] {
        strings.compactMapValues { $0.first.flatMap { $0.isEmpty ? nil : FieldValue.choice($0) } }
    }

    /// The form's values as a stable text, for a cache key.
    private static func describe(_ values: [String: FieldValue]) -> String {
        values.keys.sorted().map { "\($0)=\(String(describing: values[$0]!))" }.joined(separator: "&")
    }
}
