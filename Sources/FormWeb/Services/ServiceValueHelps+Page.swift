import FormModel
import FormPages

/// What a page asks of a form's value helps: the labels of its chosen values, a long list's
/// search and Use this choice without JavaScript, and the fields a submission's choices fill,
/// for the form's own fields and its items' alike (each item in its composition's value helps,
/// ``ValueHelpScope``).
extension ServiceValueHelps {
    /// The labels of the chosen values of the service-fed lists, by input name and value, looked
    /// up at once (cached): the form's own fields' and its items' (`_Booking[0].AirlineID`, each
    /// in its composition's value help, filtered by its own item's values); a value the service
    /// does not answer for keeps no label.
    func labels(
        of strings: [String: [String]], schema: FormSchema, target: ServiceTarget?
    ) async -> [String: [String: String]] {
        guard let target else { return [:] }
        var asks: [Ask] = []
        let values = Self.choices(strings)
        for field in Self.fed(schema, target) {
            asks += (strings[field.name] ?? []).filter { !$0.isEmpty }.map {
                Ask(input: field.name, field: field.name, label: "", value: $0, formValues: values, target: target)
            }
        }
        // An item's inputs, each item's scope and values found once.
        var items: [String: (scope: ValueHelpScope, values: [String: FieldValue])?] = [:]
        for (input, chosen) in strings where input.contains("[") {
            guard let dot = input.lastIndex(of: ".") else { continue }
            let item = String(input[...dot])
            let field = String(input[input.index(after: dot)...])
            if items[item] == nil {
                items[item] = .some(
                    ValueHelpScope.of(input, schema: schema, target: target).map { found in
                        (found.scope, Self.choices(found.scope.local(strings)))
                    })
            }
            guard let (scope, own) = items[item] ?? nil, Self.feeds(field, scope.schema, scope.target) else {
                continue
            }
            asks += chosen.filter { !$0.isEmpty }.map {
                Ask(input: input, field: field, label: "", value: $0, formValues: own, target: scope.target)
            }
        }
        guard !asks.isEmpty else { return [:] }
        let rows = await lookups(asks)
        var labels: [String: [String: String]] = [:]
        for (ask, row) in zip(asks, rows) {
            if let label = row??.option.label { labels[ask.input, default: [:]][ask.value] = label }
        }
        return labels
    }

    /// What "Use this choice" under a long list's matches (without JavaScript) fills in: the
    /// values the chosen one gives other fields (an item's, of its own item), by input name,
    /// replacing theirs.
    /// - Parameter strings: the page's inputs by their names, items' included (`pageInputs`).
    func pick(
        _ field: String, strings: [String: [String]], schema: FormSchema, readOnly: [String], target: ServiceTarget?
    ) async -> [String: [String]] {
        guard let target, let (scope, own) = ValueHelpScope.of(field, schema: schema, target: target) else {
            return [:]
        }
        var fields = scope.local(strings)
        return scope.global(
            await fill(
                &fields, schema: scope.schema, readOnly: scope.readOnly(Set(readOnly)), target: scope.target,
                replacing: own))
    }

    /// Fills what the chosen values of a submission give (``fill(_:schema:readOnly:target:replacing:)``),
    /// the form's own fields and each item's, the items at once; returns the values filled by
    /// input name (`_Booking[0].CurrencyCode`).
    func fill(
        _ submission: inout Submission, schema: FormSchema, readOnly: Set<String>, target: ServiceTarget
    ) async -> [String: [String]] {
        var filled = await fill(&submission.fields, schema: schema, readOnly: readOnly, target: target)
        let items = ValueHelpScope.items(of: submission, schema: schema, target: target).filter { scope, _ in
            !Self.fed(scope.schema, scope.target).isEmpty
        }
        guard !items.isEmpty else { return filled }
        let found = await withTaskGroup(of: [String: [String]].self) { group in
            for (scope, item) in items {
                group.addTask {
                    var fields = item.fields
                    return scope.global(
                        await self.fill(
                            &fields, schema: scope.schema, readOnly: scope.readOnly([]), target: scope.target))
                }
            }
            var found: [String: [String]] = [:]
            for await values in group { found.merge(values) { first, _ in first } }
            return found
        }
        for (input, values) in found { submission.set(values, atInput: input) }
        filled.merge(found) { own, _ in own }
        return filled
    }

    /// A long list's search in the no-JavaScript page, when the service feeds the list (an
    /// item's, in its composition's value help): its first page of matches (none when the
    /// service did not answer); nil for a list of the form's own.
    /// - Parameter strings: the page's inputs by their names, items' included (`pageInputs`).
    func search(
        _ search: ListSearch, strings: [String: [String]], schema: FormSchema, readOnly: [String],
        target: ServiceTarget?
    ) async -> ListSearch {
        guard let target, let (scope, field) = ValueHelpScope.of(search.field, schema: schema, target: target),
            Self.feeds(field, scope.schema, scope.target)
        else { return search }
        var searched = search
        let values = Self.choices(scope.local(strings))
        let found = try? await page(field, query: search.query, page: 1, formValues: values, target: scope.target)
        let matches = (found?.options ?? []).map { OptionSearch.Match(value: $0.value, label: $0.label) }
        searched.found = ListSearchResult(
            query: search.query, matches: matches, total: found?.total ?? matches.count,
            gives: Self.gives(
                field, schema: scope.schema, readOnly: scope.readOnly(Set(readOnly)), target: scope.target
            )
            .map(\.displayName))
        return searched
    }
}
