import FormModel
import FormXML
import Foundation

/// An XForm's item lists (its repeats) between the typed values and the judge: each item's
/// answers go into the instance under their input names (`members[1].age`), and the verdict's
/// values come back as the lists' items, in order, each keeping its id.
extension XFormRuleJudge {
    /// Each item's answers under their input names (an empty one too), and each list's count, by
    /// path, for the lists of `lists` in `values` (an item's, at `parent`).
    func itemAnswers(
        of lists: [ItemList], in values: [String: FieldValue], parent: String?, session: RuleSession,
        into submitted: inout [String: String], counts: inout [String: Int]
    ) {
        for list in lists {
            let path = parent.map { "\($0).\(list.name)" } ?? list.name
            guard case .items(let items) = values[list.name] else {
                counts[path] = 0
                continue
            }
            counts[path] = items.count
            for (index, item) in items.enumerated() {
                let itemPath = ItemList.itemPath(list.name, index, in: parent)
                for field in list.fields {
                    submitted["\(itemPath).\(field.name)"] =
                        item.values[field.name].map { lexical($0, of: field, session: session) } ?? ""
                }
                itemAnswers(
                    of: list.lists, in: item.values, parent: itemPath, session: session, into: &submitted,
                    counts: &counts)
            }
        }
    }

    /// The lists of `lists` as the verdict leaves them: the items its count gives (a list whose
    /// count the rules give has theirs; an item beyond those sent is new, without id), each with
    /// the values of its fields that apply; a list that does not apply is left out.
    func judgedItems(
        of lists: [ItemList], given: [String: FieldValue], parent: String?, verdict: XFormJudge.Verdict,
        session: RuleSession, into values: inout [String: FieldValue]
    ) {
        for list in lists {
            let path = parent.map { "\($0).\(list.name)" } ?? list.name
            guard verdict.relevant.contains(path) else { continue }
            let sent: [ItemValues]
            if case .items(let items) = given[list.name] { sent = items } else { sent = [] }
            let count = verdict.itemCounts[path] ?? sent.count
            values[list.name] = .items(
                (0..<count).map { index in
                    let itemPath = ItemList.itemPath(list.name, index, in: parent)
                    let item = index < sent.count ? sent[index] : ItemValues(values: [:])
                    var judged: [String: FieldValue] = [:]
                    for field in list.fields {
                        let name = "\(itemPath).\(field.name)"
                        guard verdict.relevant.contains(name),
                            let value = judgedValue(
                                given: item.values[field.name], judged: verdict.values[name], of: field,
                                session: session)
                        else { continue }
                        judged[field.name] = value
                    }
                    judgedItems(
                        of: list.lists, given: item.values, parent: itemPath, verdict: verdict, session: session,
                        into: &judged)
                    return ItemValues(id: item.id, values: judged)
                })
        }
    }

    /// A field's value as stored: the one typed when the rules kept it, else the rules' own read
    /// back as the field's kind (computed or read-only); nil for none or a note.
    func judgedValue(given: FieldValue?, judged: String?, of field: Field, session: RuleSession) -> FieldValue? {
        guard !field.presentation.displayOnly else { return nil }
        // A date of month or year precision is stored as ODK stores it (`2024-05-01`).
        if judged == given.map({ lexical($0, of: field, session: session) }), field.presentation.datePrecision == nil {
            return given
        }
        guard let judged else { return nil }
        return value(judged, of: field, session: session) ?? given
    }

    /// The field an input name stands for: a field of the form (`age`), or of an item
    /// (`members[1].age`, `members[1].doses[0].given`).
    func field(atInput name: String) -> Field? {
        field(named: name) ?? schema.field(atInput: name)
    }

    /// Where an issue stands in form order: its field's place, an item's after its list's place
    /// by item, then by its field's place in the item.
    func rank(of name: String) -> [Int] {
        if let place = order[name] { return [place] }
        var rank: [Int] = []
        var lists = itemLists
        var rest = name
        var top = true
        while let (list, index, after) = Submission.itemInput(rest) {
            if top { rank.append(order[list] ?? -1) }
            top = false
            guard let found = lists.first(where: { $0.name == list }) else { break }
            rank.append(index)
            let names = found.groups.flatMap { group in group.items.map { [$0.name] } ?? group.fields.map(\.name) }
            let own = after.prefix { $0 != "[" && $0 != "." }
            rank.append(names.firstIndex { $0 == own } ?? -1)
            lists = found.lists
            rest = after
        }
        // A list's own path (its count): at its place.
        return rank.isEmpty ? [order[String(name.prefix { $0 != "[" })] ?? -1] : rank
    }
}
