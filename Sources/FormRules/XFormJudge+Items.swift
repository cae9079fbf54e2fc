import FormModel
import FormXML
import Foundation

/// An XForm's repeats as the judge meets them (`../shared/spec/items.md`): each submission's
/// instance holds one copy of a repeat's template per item sent, in order, and every rule of a
/// node inside is judged once per item with that item's copy as context, so relative paths,
/// `current()` and `position(..)` read the item's own nodes.
extension XFormJudge {
    /// One repeat of the form, outer ones before the repeats within them.
    struct Repeat: Sendable {
        /// The repeat node's path as the rules write it (`/data/members`), and by local names.
        let nodePath: String
        /// Its parent's path as the rules write it (`/data`).
        let parentPath: String
        let path: [String]
        /// The item list's name (`members`).
        let list: String
        /// The repeat this one is within, by index among the form's repeats.
        let outer: Int?
        /// Where the repeat's parent is: by local names from the root, or from the outer repeat's
        /// node when within one.
        let parentSteps: [String]
        /// `jr:count`, by expression index, evaluated at the parent.
        let count: Int?
        /// The repeat node's `relevant`, by expression index: asked at the parent when the list
        /// has no items to ask it at.
        let relevant: Int?
    }

    /// One item of a repeat in a submission's instance: its copy of the template, and its path as
    /// its inputs are named (`members[1]`, `members[1].doses[0]`).
    struct Item {
        let node: XPathNode
        let path: String
    }

    /// Where a repeat's items stand in a submission's instance: the parent holding them, the
    /// path of the item holding the list (nil for a list of the form), the list's path.
    struct ListPlace {
        let parent: XPathNode
        let outer: String?
        let path: String
    }

    /// One node of a submission's instance with its step: a node outside repeats once, a node
    /// inside one once per item.
    struct Placed {
        let step: Step
        let node: XPathNode
        /// Its place in the verdict's maps: the node's path, behind its item's path when in one.
        let key: String
        /// The key of its group's node (of the list's parent for a repeat's node).
        let parentKey: String?
        /// The name its field's input has (`members[1].age`), when it is a field's.
        let field: String?
    }

    /// The form's repeats, outer first, from the nodes the importer marked.
    static func repeats(of rules: XFormRules, program index: (XFormExpression?) -> Int?) -> [Repeat] {
        var found: [Repeat] = []
        for node in rules.nodes where node.leftOut == nil {
            guard let repeatInfo = node.repeat else { continue }
            let path = localPath(node.path)
            let outer = found.lastIndex { node.path.hasPrefix($0.nodePath + "/") }
            let parent = Array(path.dropLast())
            found.append(
                Repeat(
                    nodePath: node.path,
                    parentPath: String(node.path[..<(node.path.lastIndex(of: "/") ?? node.path.endIndex)]),
                    path: path, list: repeatInfo.list, outer: outer,
                    parentSteps: outer.map { Array(parent.dropFirst(found[$0].path.count)) } ?? parent,
                    count: index(repeatInfo.count), relevant: index(node.bind?.relevant)))
        }
        return found
    }

    /// The innermost repeat a node path is in (or is), by index.
    static func scope(of nodePath: String, in repeats: [Repeat]) -> Int? {
        repeats.lastIndex { nodePath == $0.nodePath || nodePath.hasPrefix($0.nodePath + "/") }
    }

    /// Leaves one node per repeat in the template instance, its template: the `jr:template`
    /// node, else the first, without that attribute; every submission's items are copies of it.
    static func keepTemplates(of repeats: [Repeat], in template: XPathDocument) {
        for repeatInfo in repeats {
            var parent: XPathNode?
            if let outer = repeatInfo.outer {
                parent = template.node(at: repeats[outer].path)?.descendant(repeatInfo.parentSteps)
            } else {
                parent = template.node(at: repeatInfo.parentSteps)
            }
            let name = repeatInfo.path.last ?? ""
            let copies = parent?.children.filter { $0.name == name } ?? []
            guard let first = copies.first else { continue }
            let kept = copies.first { $0.hasAttribute("template", namespaceURI: XPathNamespaces.javaRosa) } ?? first
            for copy in copies where copy != kept { copy.remove() }
            kept.removeAttribute("template", namespaceURI: XPathNamespaces.javaRosa)
        }
    }

    /// Puts each list's items in the instance: the repeat's template copied once per item, in
    /// its place, which it leaves.
    /// - Parameter counts: the items of each list by its path (`members`, `members[0].doses`).
    func placeItems(in instance: XPathDocument, counts: [String: Int]) -> (items: [[Item]], lists: [[ListPlace]]) {
        var items = Array(repeating: [Item](), count: repeats.count)
        var lists = Array(repeating: [ListPlace](), count: repeats.count)
        for (index, repeatInfo) in repeats.enumerated() {
            let parents: [(node: XPathNode, outer: String?)]
            if let outer = repeatInfo.outer {
                parents = items[outer].compactMap { item in
                    item.node.descendant(repeatInfo.parentSteps).map { ($0, item.path) }
                }
            } else {
                parents = instance.node(at: repeatInfo.parentSteps).map { [($0, nil)] } ?? []
            }
            for (parent, outer) in parents {
                let path = outer.map { "\($0).\(repeatInfo.list)" } ?? repeatInfo.list
                lists[index].append(ListPlace(parent: parent, outer: outer, path: path))
                guard let template = parent.child(repeatInfo.path.last ?? "") else { continue }
                for item in 0..<min(counts[path] ?? 0, ItemList.maxItems) {
                    let copy = template.copy()
                    template.insert(copy)
                    items[index].append(Item(node: copy, path: ItemList.itemPath(repeatInfo.list, item, in: outer)))
                }
                template.remove()
            }
        }
        return (items, lists)
    }

    /// Every step's nodes in the instance, in the steps' order: a node inside a repeat once per
    /// item, in the items' order.
    func placed(in instance: XPathDocument, items: [[Item]]) -> [Placed] {
        var placed: [Placed] = []
        for step in steps {
            guard let scope = step.scope else {
                guard let node = instance.node(at: step.path) else { continue }
                placed.append(
                    Placed(
                        step: step, node: node, key: step.node.path, parentKey: step.parentPath, field: step.node.field)
                )
                continue
            }
            // A repeat's own node has its parent outside the item; any other node, within.
            let parentInItem = step.node.path != repeats[scope].nodePath
            for item in items[scope] {
                guard let node = item.node.descendant(step.relative) else { continue }
                let parentItem = parentInItem ? item.path : Self.outerItem(of: item.path)
                placed.append(
                    Placed(
                        step: step, node: node, key: Self.key(step.node.path, item: item.path),
                        parentKey: step.parentPath.map { Self.key($0, item: parentItem) },
                        field: step.node.field.map { "\(item.path).\($0)" }))
            }
        }
        return placed
    }

    /// A node's key in the verdict's maps: its path, behind its item's path when in one.
    static func key(_ nodePath: String, item: String?) -> String {
        item.map { "\($0)\u{0}\(nodePath)" } ?? nodePath
    }

    /// The item holding the list an item is in: `members[1]` for `members[1].doses[0]`.
    static func outerItem(of item: String) -> String? {
        item.lastIndex(of: ".").map { String(item[..<$0]) }
    }

    /// How many items each list whose rules give its count (`jr:count`) has for these answers,
    /// by list path: a number of 0 to ``ItemList/maxItems`` (not a number: 0).
    func fixedCounts(_ lists: [[ListPlace]], evaluate: (Int, XPathNode) -> XPathValue?) -> [String: Int] {
        var counts: [String: Int] = [:]
        for (index, repeatInfo) in repeats.enumerated() {
            guard let count = repeatInfo.count else { continue }
            for place in lists[index] {
                let number = evaluate(count, place.parent)?.numberValue ?? 0
                counts[place.path] = number.isFinite ? max(0, min(Int(number), ItemList.maxItems)) : 0
            }
        }
        return counts
    }

    /// Which lists apply for these answers, by path: those whose parent applies and that either
    /// have an item that applies or, without items, whose repeat's `relevant` holds at the parent.
    func relevantLists(
        _ lists: [[ListPlace]], items: [[Item]], relevant: [String: Bool],
        evaluate: (Int, XPathNode) -> XPathValue?
    ) -> Set<String> {
        var shown: Set<String> = []
        for (index, repeatInfo) in repeats.enumerated() {
            for place in lists[index] {
                guard relevant[Self.key(repeatInfo.parentPath, item: place.outer)] ?? true else { continue }
                let own = items[index].filter { Self.outerItem(of: $0.path) == place.outer }
                let applies =
                    own.isEmpty
                    ? repeatInfo.relevant.map { evaluate($0, place.parent)?.booleanValue ?? false } ?? true
                    : own.contains { relevant[Self.key(repeatInfo.nodePath, item: $0.path)] ?? true }
                if applies { shown.insert(place.path) }
            }
        }
        return shown
    }
}
