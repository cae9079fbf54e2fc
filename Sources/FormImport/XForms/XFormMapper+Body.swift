import FormModel
import Foundation

/// The body: controls in document order, groups (their labels flattened, `Outer – Inner`),
/// repeats (item lists, their questions an item's fields), and controls the mapping leaves out.
extension XFormMapper {
    /// Where a body element stands: the path relative refs start from, the labels of the
    /// labelled groups around it, and the group it is directly in (its path and label), which
    /// names a repeat that has no label of its own.
    struct BodyContext {
        var path: String?
        var groups: [String] = []
        var enclosing: (path: String, label: String?)?
        /// The repeats it is in, outermost first, by node index.
        var repeats: [Int] = []
    }

    /// What the body says of a repeat, for its item list.
    struct RepeatSpec {
        var label: String
        var line: Int
        /// The items the instance holds beside the template: how many a new form starts with.
        var startCount: Int
    }

    static let controls: Set<String> = [
        "input", "select1", "select", "range", "upload", "trigger", "secret", "textarea",
    ]

    func readBody() {
        guard let body = document.root.child("body", in: XFormNamespace.xhtml) else { return }
        checkAttributes(body, known: ["class"])
        readChildren(of: body, context: BodyContext())
    }

    private func readChildren(of parent: XFormElement, context: BodyContext) {
        for child in parent.children {
            switch (child.namespaceURI, child.localName) {
            case (XFormNamespace.xforms?, "group"): readGroup(child, context: context)
            case (XFormNamespace.xforms?, "repeat"): readRepeat(child, context: context)
            case (XFormNamespace.xforms?, let name) where Self.controls.contains(name):
                readControl(child, context: context)
            case (XFormNamespace.odk?, "rank"): readControl(child, context: context)
            case (XFormNamespace.xforms?, "label"), (XFormNamespace.xforms?, "hint"):
                // A group's own, read with it.
                continue
            case (XFormNamespace.xforms?, "setvalue"), (XFormNamespace.odk?, "setgeopoint"):
                continue
            default:
                unknownElement(child)
            }
        }
        readActions(in: parent, context: context.path)
    }

    /// The node an element's `ref` (or `bind`, or for a repeat `nodeset`) names; refuses one
    /// that names no node.
    private func node(of element: XFormElement, context: BodyContext, attribute: String = "ref") -> Int?? {
        if let ref = element.attribute(attribute) {
            guard let index = resolve(ref, context: context.path) else {
                refuseMissingNode(element, attribute: attribute, ref: ref)
                return .some(nil)
            }
            return index
        }
        if let id = element.attribute("bind") {
            guard let path = bindIDs[id], let index = pathIndex[path] else {
                refuseMissingNode(element, attribute: "bind", ref: id)
                return .some(nil)
            }
            return index
        }
        return nil
    }

    private func readGroup(_ group: XFormElement, context: BodyContext) {
        checkAttributes(group, known: ["ref", "appearance", "bind"])
        let found = node(of: group, context: context)
        if case .some(nil) = found { return }
        let index = found ?? nil
        let label = text(of: group.child("label", in: XFormNamespace.xforms))
        let shown = plain(label)
        if let label, label.itext != nil { headings.append(label) }
        var inner = context
        if let index {
            nodes[index].control = "group"
            nodes[index].label = label
            nodes[index].appearance = group.attribute("appearance")
            inner.path = nodes[index].path
            inner.enclosing = (nodes[index].path, shown)
        } else {
            inner.enclosing = nil
        }
        if let shown { inner.groups.append(shown) }
        for word in group.attribute("appearance")?.split(separator: " ").map(String.init) ?? [] {
            presentationOnly(word, line: group.line, known: word == "field-list")
        }
        readChildren(of: group, context: inner)
    }

    /// A repeat: an item list (its label the repeat's, else its group's), its questions an
    /// item's fields; `jr:count` gives its count from the answers, and with it or
    /// `jr:noAddRemove="true()"` people neither add nor remove items. One nested deeper than an
    /// item list may be is left out with its questions, with a warning.
    private func readRepeat(_ repeatElement: XFormElement, context: BodyContext) {
        checkAttributes(repeatElement, known: ["nodeset", "appearance", "jr:count", "jr:noAddRemove"])
        guard case .some(let index?) = node(of: repeatElement, context: context, attribute: "nodeset") else {
            if repeatElement.attribute("nodeset") == nil {
                refuseMissingNode(repeatElement, attribute: "nodeset", ref: nil)
            }
            return
        }
        let path = nodes[index].path
        let own = text(of: repeatElement.child("label", in: XFormNamespace.xforms))
        if let own, own.itext != nil { headings.append(own) }
        let label =
            plain(own)
            ?? (context.enclosing?.path == path ? context.enclosing?.label : nil)
            ?? nodeElements[index].localName
        guard context.repeats.count < ItemList.maxDepth else {
            for i in nodes.indices where nodes[i].path == path || nodes[i].path.hasPrefix(path + "/") {
                nodes[i].leftOut = .repeat
                nodes[i].field = nil
            }
            report.warn(
                .repeatUnsupported,
                "Repeat '\(label)' (\(path), \(Words.count(Self.controlCount(in: repeatElement), "question"))) is nested more than \(ItemList.maxDepth) levels deep and was left out: an item list holds lists \(ItemList.maxDepth) levels deep at most. Move its questions into the repeat around it, or make it a repeat of its own outside.",
                line: repeatElement.line)
            return
        }
        let count = repeatElement.attribute("count", in: XFormNamespace.javaRosa).map {
            expression($0, in: repeatElement, attribute: "jr:count")
        }
        let fixed = repeatElement.attribute("noAddRemove", in: XFormNamespace.javaRosa).map {
            $0.filter { !$0.isWhitespace } == "true()"
        }
        nodes[index].repeat = XFormRepeat(list: "", count: count, addRemove: count == nil && fixed != true)
        repeats[index] = RepeatSpec(label: label, line: repeatElement.line, startCount: startCount(of: index))
        for word in repeatElement.attribute("appearance")?.split(separator: " ").map(String.init) ?? [] {
            presentationOnly(word, line: repeatElement.line, known: word == "field-list")
        }
        var inner = context
        inner.path = path
        inner.groups = []
        inner.enclosing = nil
        inner.repeats.append(index)
        readChildren(of: repeatElement, context: inner)
    }

    /// How many items the primary instance holds for a repeat beside its `jr:template`: the
    /// copies of its node in its (first) parent.
    private func startCount(of index: Int) -> Int {
        let element = nodeElements[index]
        let path = nodes[index].path
        guard let slash = path.lastIndex(of: "/"), let parent = pathIndex[String(path[..<slash])] else { return 1 }
        return nodeElements[parent].children.count { child in
            child.localName == element.localName && child.namespaceURI == element.namespaceURI
                && child.attribute("template", in: XFormNamespace.javaRosa) == nil
        }
    }

    /// The controls inside an element, nested repeats and groups included.
    static func controlCount(in element: XFormElement) -> Int {
        element.children.reduce(0) { count, child in
            let isControl =
                (child.namespaceURI == XFormNamespace.xforms && controls.contains(child.localName))
                || child.isElement("rank", in: XFormNamespace.odk)
            return count + (isControl ? 1 : controlCount(in: child))
        }
    }

    private func readControl(_ control: XFormElement, context: BodyContext) {
        let name = control.namespaceURI == XFormNamespace.odk ? "odk:\(control.localName)" : control.localName
        checkAttributes(
            control,
            known: [
                "ref", "bind", "appearance", "mediatype", "start", "end", "step", "rows", "jr:constraintMsg",
                "accuracyThreshold", "autoplay",
            ])
        guard case .some(let index?) = node(of: control, context: context) else {
            if control.attribute("ref") == nil && control.attribute("bind") == nil {
                refuseMissingNode(control, attribute: "ref", ref: nil)
            }
            return
        }
        nodes[index].control = name
        nodes[index].appearance = control.attribute("appearance")
        nodes[index].label = text(of: control.child("label", in: XFormNamespace.xforms))
        nodes[index].hint = text(of: control.child("hint", in: XFormNamespace.xforms))
        for child in control.children where child.namespaceURI != XFormNamespace.xforms {
            unknownElement(child)
        }
        readActions(in: control, context: nodes[index].path)
        guard nodes[index].leftOut == nil else { return }

        let words = nodes[index].appearances
        let path = nodes[index].path
        let label = display(nodes[index].label).map { " ('\($0)')" } ?? ""
        let unsupported: String? =
            switch name {
            case "odk:rank", "secret", "textarea":
                "The \(name) question \(path)\(label) is not supported and was left out."
            default:
                if let external = words.first(where: { $0.hasPrefix("ex:") }) {
                    "The question \(path)\(label) is answered by an external app (appearance \(external)), which is not supported; it was left out."
                } else if words.contains("select-contact") {
                    "The question \(path)\(label) picks a contact (appearance select-contact), which is not supported; it was left out."
                } else {
                    nil
                }
            }
        if let unsupported {
            nodes[index].leftOut = .control
            let at = document.source.position(of: control.ordinal)
            report.warn(.controlUnsupported, unsupported, line: at?.line ?? control.line, column: at?.column ?? 0)
            return
        }
        if name == "select1" || name == "select" {
            nodes[index].itemset = control.child("itemset", in: XFormNamespace.xforms).flatMap(itemset)
        }
        questions.append(
            Question(node: index, element: control, groups: context.groups, repeats: context.repeats))
    }

    /// `<itemset nodeset="instance('id')/root/item[...]"><value ref="name"/><label ref="label"/>`.
    private func itemset(_ element: XFormElement) -> XFormItemset? {
        checkAttributes(element, known: ["nodeset"])
        guard let nodeset = element.attribute("nodeset") else {
            report.warn(
                .mappingDropped, "An <itemset> has no nodeset; its select offers no options.", line: element.line)
            return nil
        }
        let valueRef = element.child("value", in: XFormNamespace.xforms)?.attribute("ref") ?? "name"
        let labelRef = element.child("label", in: XFormNamespace.xforms)?.attribute("ref")
        var label = labelRef
        var labelItext: String?
        if let labelRef, let open = labelRef.firstIndex(of: "("), labelRef.hasSuffix(")"),
            labelRef[..<open].trimmingCharacters(in: .whitespaces).hasSuffix("itext")
        {
            labelItext = labelRef[labelRef.index(after: open)..<labelRef.index(before: labelRef.endIndex)]
                .trimmingCharacters(in: .whitespaces)
            label = nil
        }
        return XFormItemset(
            nodeset: expression(nodeset, in: element, attribute: "nodeset"), instance: Self.instanceID(in: nodeset),
            value: valueRef, label: label, labelItext: labelItext)
    }

    /// The id in a leading `instance('id')`.
    static func instanceID(in nodeset: String) -> String? {
        let text = nodeset.trimmingCharacters(in: .whitespaces)
        guard text.hasPrefix("instance"), let open = text.firstIndex(of: "("),
            let close = text[open...].firstIndex(of: ")")
        else { return nil }
        let argument = text[text.index(after: open)..<close].trimmingCharacters(in: .whitespaces)
        guard argument.count >= 2, let quote = argument.first, quote == "'" || quote == "\"", argument.last == quote
        else { return nil }
        return String(argument.dropFirst().dropLast())
    }

    /// Warns of an appearance that is presentation only (`known`: the mapping says so) or not
    /// supported, counted by appearance.
    func presentationOnly(_ word: String, line: Int, known: Bool) {
        report.tally(.appearanceIgnored, key: word, line: line) { count in
            known
                ? "Appearance '\(word)' is presentation only; the kind chosen stands\(Self.times(count))."
                : "Appearance '\(word)' is not supported and was ignored; the kind chosen stands\(Self.times(count))."
        }
    }
}
