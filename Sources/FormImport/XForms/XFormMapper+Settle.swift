import FormModel
import Foundation

/// The schema settled against the rules of every form (`FormSchema.ruleViolations()`): what an
/// XForm breaks is dropped with a warning rather than refused, down to an item's field.
extension XFormMapper {
    /// The schema with what breaks a rule of every form settled, each with a warning: a default
    /// the field refuses is dropped; any other broken rule leaves the field out (an item's too),
    /// and an item list left without fields goes with its repeat. That the form has no required
    /// question is no fault here (the rule is for native specs).
    func settle(_ schema: FormSchema) -> FormSchema {
        var schema = schema
        let defaults: Set<SchemaIssue.Code> = [.defaultRefused, .unknownDefault, .badDefault, .defaultOutOfRange]
        for _ in 0..<64 {
            let issues = schema.ruleViolations().filter { $0.code != .noRequiredField }
            guard let issue = issues.first, let subject = issue.subject else { return schema }
            if issue.code == .emptyItems,
                let repeatNode = nodes.indices.first(where: { nodes[$0].repeat?.list == subject })
            {
                report.warn(
                    .ruleViolation,
                    "The repeat \(nodes[repeatNode].path) is left out: it has no question Fieldwork can show.",
                    line: issue.location?.line ?? 0)
                schema.sections = schema.sections.map { section in
                    var section = section
                    section.groups = section.groups.editingWithinItems { groups in
                        groups.removeAll { $0.items?.name == subject && $0.items?.location == issue.location }
                    }
                    return section
                }
                leaveOut(repeatNode)
                continue
            }
            let question = questions.first { question in
                nodes[question.node].field == subject && location(of: question.element) == issue.location
            }
            guard let question else { return schema }
            let path = nodes[question.node].path
            let remove = !defaults.contains(issue.code)
            report.warn(
                .ruleViolation,
                remove
                    ? "The question \(path) is left out: \(issue.message)"
                    : "The default of \(path) is left out: \(issue.message)",
                line: issue.location?.line ?? 0)
            schema.sections = schema.sections.map { section in
                var section = section
                section.groups = section.groups.editingWithinItems { groups in
                    for g in groups.indices {
                        if remove {
                            groups[g].fields.removeAll { $0.name == subject && $0.location == issue.location }
                        } else {
                            for f in groups[g].fields.indices
                            where groups[g].fields[f].name == subject && groups[g].fields[f].location == issue.location
                            {
                                groups[g].fields[f].defaultValue = nil
                            }
                        }
                    }
                }
                section.groups.removeAll { $0.fields.isEmpty && $0.items == nil }
                return section
            }
            schema.sections.removeAll { $0.groups.isEmpty && $0.kind != .key }
            if remove {
                nodes[question.node].field = nil
                nodes[question.node].leftOut = .control
                let (fields, lists) = (schema.allFields, schema.itemLists)
                schema.lists.removeAll { list in
                    !fields.contains { $0.list == list.id } && !lists.contains { Self.uses($0, list: list.id) }
                }
            }
        }
        return schema
    }

    /// Whether a field of a list's items (or of lists within) takes its options from `list`.
    private static func uses(_ items: ItemList, list: String) -> Bool {
        items.fields.contains { $0.list == list } || items.lists.contains { uses($0, list: list) }
    }

    /// Leaves a repeat out with every node inside.
    func leaveOut(_ repeatNode: Int) {
        let path = nodes[repeatNode].path
        for i in nodes.indices where nodes[i].path == path || nodes[i].path.hasPrefix(path + "/") {
            nodes[i].leftOut = .repeat
            nodes[i].field = nil
            nodes[i].repeat = nil
        }
    }
}
