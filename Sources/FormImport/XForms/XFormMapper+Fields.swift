import FormModel
import Foundation

/// The fields: a kind for each question by the Controls table, field names from node names,
/// groups flattened in document order, the key information, and the schema's rules settled.
extension XFormMapper {
    /// Appearances the mapping reads, by control; any other is presentation only or not supported.
    private static let presentationAppearances: Set<String> = [
        "thousands-sep", "no-calendar", "quick", "quickcompact", "likert", "label", "list-nolabel", "field-list",
        "picker", "rating", "vertical", "no-ticks",
    ]
    private static let presentationPrefixes = ["columns", "horizontal", "compact"]
    private static let calendars: Set<String> = [
        "ethiopian", "coptic", "islamic", "bikram-sambat", "myanmar", "persian", "buddhist",
    ]

    /// The schema: every question in properties, in document order, labelled groups as groups
    /// (`Outer – Inner`), each repeat as an item list standing where its questions do, and the
    /// first text-like question outside repeats as the key information.
    func form(id: String, title: String) -> FormSchema {
        // Names are unique among the form's fields and lists, and within each item.
        var taken: [Int?: Set<String>] = [:]
        var entries: [Entry] = []
        var lists: [OptionList] = []
        for question in questions {
            for (level, repeatNode) in question.repeats.enumerated()
            where nodes[repeatNode].repeat?.list.isEmpty == true {
                let scope = level == 0 ? nil : question.repeats[level - 1]
                let list = fieldName(for: repeatNode, taken: &taken[scope, default: []])
                nodes[repeatNode].repeat?.list = list
            }
            let name = fieldName(for: question.node, taken: &taken[question.repeats.last, default: []])
            guard var field = field(for: question, name: name, lists: &lists) else { continue }
            field.location = location(of: question.element)
            nodes[question.node].field = name
            entries.append(Entry(field: field, groups: question.groups, repeats: question.repeats))
        }
        let key =
            entries.firstIndex { $0.repeats.isEmpty && $0.field.kind == .text && !$0.field.presentation.displayOnly }
            ?? entries.firstIndex { $0.repeats.isEmpty && !$0.field.presentation.displayOnly }
            ?? entries.firstIndex { $0.repeats.isEmpty }
        var sections: [FormSection] = []
        if let key {
            sections.append(FormSection(kind: .key, groups: [FieldGroup(fields: [entries.remove(at: key).field])]))
        }
        for repeatNode in repeats.keys.sorted() where nodes[repeatNode].repeat?.list.isEmpty == true {
            report.warn(
                .ruleViolation,
                "The repeat \(nodes[repeatNode].path) is left out: it has no question Fieldwork can show.",
                line: repeats[repeatNode]?.line ?? nodes[repeatNode].line)
            leaveOut(repeatNode)
        }
        let groups = self.groups(of: entries[...], depth: 0)
        if !groups.isEmpty { sections.append(FormSection(kind: .properties, groups: groups)) }
        return FormSchema(id: id, title: title, sections: sections, lists: lists)
    }

    /// A question's field, with its groups' labels and repeats (`Question`).
    struct Entry {
        var field: Field
        var groups: [String]
        var repeats: [Int]
    }

    /// The groups of `entries` at a depth of repeats (0: the form's own): consecutive fields
    /// under one label are a group; the fields of a repeat within, an item list there.
    private func groups(of entries: ArraySlice<Entry>, depth: Int) -> [FieldGroup] {
        var groups: [FieldGroup] = []
        var current: String??
        var index = entries.startIndex
        while index < entries.endIndex {
            let entry = entries[index]
            if entry.repeats.count > depth {
                let repeatNode = entry.repeats[depth]
                var end = index
                while end < entries.endIndex, entries[end].repeats.count > depth,
                    entries[end].repeats[depth] == repeatNode
                {
                    end += 1
                }
                // One labelled group holding every question of the item names one item ("Person").
                let own = entries[index..<end].filter { $0.repeats.count == depth + 1 }
                let object = own.first?.groups.first.flatMap { first in
                    own.allSatisfy { $0.groups.first == first } ? first : nil
                }
                // That group's label names the item, not a group within it.
                var inner = Array(entries[index..<end])
                if object != nil {
                    for i in inner.indices where inner[i].repeats.count == depth + 1 { inner[i].groups.removeFirst() }
                }
                groups.append(
                    FieldGroup(
                        items: itemList(
                            repeatNode, object: object, groups: self.groups(of: inner[...], depth: depth + 1))
                    ))
                current = nil
                index = end
                continue
            }
            let label = entry.groups.isEmpty ? nil : entry.groups.joined(separator: " – ")
            if let last = groups.indices.last, groups[last].items == nil, current == .some(label) {
                groups[last].fields.append(entry.field)
            } else {
                groups.append(FieldGroup(label: label, fields: [entry.field]))
                current = .some(label)
            }
            index += 1
        }
        return groups
    }

    /// A repeat's item list: named as its node, labelled as the body says, one item called
    /// `object` (else by the label), as many items as people add (500 at most), or as many as its
    /// `jr:count` gives.
    private func itemList(_ repeatNode: Int, object: String?, groups: [FieldGroup]) -> ItemList {
        let spec = repeats[repeatNode]
        let repeatInfo = nodes[repeatNode].repeat
        return ItemList(
            name: repeatInfo?.list ?? ImportNames.valid(nodeElements[repeatNode].localName),
            label: spec?.label ?? nodeElements[repeatNode].localName, object: object, maxCount: ItemList.maxItems,
            startCount: repeatInfo?.count == nil ? spec?.startCount : nil,
            startItems: repeatInfo?.count == nil ? startItems(repeatNode) : nil,
            addRemove: repeatInfo?.addRemove ?? true,
            groups: groups, location: SourceLocation(line: spec?.line ?? nodes[repeatNode].line))
    }

    /// The values the instance writes in the items it starts with (the repeat's nodes beside
    /// `jr:template`, or all of them without one), each by its field's name; nil when they hold
    /// none. A list within an item starts as its own template says.
    private func startItems(_ repeatNode: Int) -> [[String: String]]? {
        let element = nodeElements[repeatNode]
        let path = nodes[repeatNode].path
        guard let slash = path.lastIndex(of: "/"), let parent = pathIndex[String(path[..<slash])] else { return nil }
        var items: [[String: String]] = []
        for sibling in nodeElements[parent].children
        where sibling.localName == element.localName && sibling.namespaceURI == element.namespaceURI
            && sibling.attribute("template", in: XFormNamespace.javaRosa) == nil
        {
            var values: [String: String] = [:]
            for child in sibling.children where child.children.isEmpty {
                guard let index = pathIndex[path + "/" + child.localName], let field = nodes[index].field else {
                    continue
                }
                let text = XFormMapper.trimmed(child.text)
                if !text.isEmpty { values[field] = text }
            }
            items.append(values)
        }
        return items.contains { !$0.isEmpty } ? items : nil
    }

    func location(of element: XFormElement) -> SourceLocation {
        let at = document.source.position(of: element.ordinal)
        return SourceLocation(line: at?.line ?? element.line, column: at?.column ?? 0)
    }

    // MARK: Names

    /// A valid, unique field name from the node's name: characters other than letters, digits
    /// and `_` become `_`; a name taken by an earlier question gets its parent's name in front
    /// (`household_name`), then a number. Renames are reported.
    private func fieldName(for node: Int, taken: inout Set<String>) -> String {
        let steps = nodes[node].path.split(separator: "/").map { step in
            String(step.split(separator: ":").last ?? step)
        }
        let base = ImportNames.valid(steps.last ?? "field")
        var name = base
        if taken.contains(name), steps.count > 2 {
            name = ImportNames.valid(steps[steps.count - 2]) + "_" + base
        }
        name = ImportNames.unique(name, taken: taken)
        taken.insert(name)
        if name != steps.last {
            let why =
                base != steps.last
                ? "\(steps.last ?? "") is no valid field name" : "\(base) is the field of an earlier question"
            report.warn(
                .renamedField, "The question \(nodes[node].path) is the field \(name) (\(why)).", line: nodes[node].line
            )
        }
        return name
    }

    // MARK: Kinds

    /// The field of a question by the Controls table; nil for one left out.
    private func field(for question: Question, name: String, lists: inout [OptionList]) -> Field? {
        let node = nodes[question.node]
        let control = node.control ?? "input"
        let type = node.type ?? "string"
        let words = node.appearances
        let bind = node.bind
        let readonly = XFormBind.isTrue(bind?.readonly)
        let calculated = bind?.calculate != nil
        let written = XFormMapper.trimmed(nodeElements[question.node].text)
        let label = formatted(node.label)
        let hint = formatted(node.hint, guidance: true)
        var field = Field(
            name: name, kind: .text, label: label.plain, hint: hint.plain,
            required: XFormBind.isTrue(bind?.required), editable: readonly || calculated ? .no : .yes,
            defaultValue: written.isEmpty ? nil : written)
        field.presentation.labelFormat = label.format
        field.presentation.hintFormat = hint.format
        var used: Set<String> = []
        switch control {
        case "input":
            if readonly && !calculated {
                // A note: its label (and hint) shown as text; nothing entered, nothing stored.
                field.presentation.displayOnly = true
                field.required = false
                field.defaultValue = nil
                used = Set(words)
            } else {
                used = inputKind(&field, type: type, words: words, node: question.node)
            }
        case "select1", "select":
            used = selectKind(&field, multiple: control == "select", question: question, lists: &lists)
        case "range":
            field.kind = .slider
            let element = question.element
            let bounds = [element.attribute("start"), element.attribute("end")].compactMap {
                $0.flatMap { Decimal(string: $0.trimmingCharacters(in: .whitespaces)) }
            }
            if bounds.count == 2 {
                field.constraints.min = "\(min(bounds[0], bounds[1]))"
                field.constraints.max = "\(max(bounds[0], bounds[1]))"
            } else {
                field.kind = .number
                report.warn(
                    .mappingDropped,
                    "The range \(node.path) lacks a numeric start or end; it is a number field without bounds.",
                    line: element.line)
            }
            field.constraints.step = element.attribute("step")?.trimmingCharacters(in: .whitespaces)
            if type == "int" { field.constraints.scale = 0 }
        case "upload":
            field.kind = .attachments
            field.defaultValue = nil
            field.constraints.maxCount = 1
            let mediatype = question.element.attribute("mediatype")?.trimmingCharacters(in: .whitespaces) ?? ""
            if FormSchema.isMIMEPattern(mediatype) { field.constraints.accept = [mediatype] }
            for word in words where ["draw", "signature", "annotate", "new"].contains(word) {
                used.insert(word)
                report.tally(.appearanceIgnored, key: "upload " + word, line: question.element.line) { count in
                    "Appearance '\(word)' is not supported: a file is uploaded instead\(Self.times(count))."
                }
            }
        case "trigger":
            field.kind = .switch
            field.defaultValue = written == "OK" ? "true" : nil
        default:
            return nil
        }
        for word in words where !used.contains(word) {
            presentationOnly(
                word, line: question.element.line,
                known: Self.presentationAppearances.contains(word)
                    || Self.presentationPrefixes.contains { word.hasPrefix($0) })
        }
        return field
    }

    /// An input's kind by type and appearance; returns the appearances it read.
    private func inputKind(_ field: inout Field, type: String, words: [String], node: Int) -> Set<String> {
        var used: Set<String> = []
        switch type {
        case "int":
            field.kind = .number
            field.constraints.scale = 0
        case "decimal":
            field.kind = .number
        case "date":
            field.kind = .date
            used.formUnion(words.filter { $0 == "month-year" || $0 == "year" })
            if words.contains("year") { field.presentation.datePrecision = .year }
            if words.contains("month-year") { field.presentation.datePrecision = .month }
            for word in words where Self.calendars.contains(word) {
                used.insert(word)
                report.tally(.calendarUnsupported, key: word, line: nodes[node].line) { count in
                    "The \(word) calendar is not supported: \(Words.count(count, "date question")) \(count == 1 ? "takes a Gregorian date" : "take Gregorian dates")."
                }
            }
        case "time":
            field.kind = .time
        case "dateTime":
            field.kind = .datetime
        case "geopoint", "geotrace", "geoshape":
            field.kind = .text
            report.tally(.geoAsText, key: type, line: nodes[node].line) { count in
                "\(Words.count(count, "\(type) question")) \(count == 1 ? "is" : "are") entered as text in ODK's format (\(type == "geopoint" ? "lat lon [alt [acc]]" : "points lat lon [alt [acc]] separated by ;")): no map."
            }
        default:
            field.kind = .text
            if words.contains("multiline") {
                field.kind = .note
                used.insert("multiline")
            }
            if words.contains("numbers") {
                field.constraints.pattern = "[0-9]+"
                used.insert("numbers")
            }
            if words.contains("url") {
                field.constraints.textType = .url
                used.insert("url")
            }
            if type == "tel" { field.constraints.textType = .tel }
            if words.contains("masked") {
                used.insert("masked")
                field.presentation.masked = true
            }
        }
        return used
    }

    /// A select's kind by option count and appearance; returns the appearances it read.
    private func selectKind(
        _ field: inout Field, multiple: Bool, question: Question, lists: inout [OptionList]
    ) -> Set<String> {
        let node = nodes[question.node]
        let words = node.appearances
        var used: Set<String> = []
        let searchable = words.contains { $0 == "autocomplete" || $0 == "search" || $0.hasPrefix("search(") }
        if searchable {
            used.formUnion(words.filter { $0 == "autocomplete" || $0 == "search" || $0.hasPrefix("search(") })
        }
        if words.contains("minimal") { used.insert("minimal") }
        field.constraints.multiple = multiple
        if let itemset = node.itemset {
            field.kind = .valueList
            field.presentation.searchable = searchable
            let (options, external) = staticOptions(itemset, texts: &nodes[question.node].optionTexts)
            field.list = ImportNames.unique(field.name, taken: Set(lists.map(\.id)))
            lists.append(
                OptionList(
                    id: field.list!, groups: options.isEmpty ? [] : [OptionGroup(options: options)],
                    external: external || options.isEmpty))
            return used
        }
        var options: [Option] = []
        var seen = Set<String>()
        var optionTexts: [String: String] = [:]
        defer { if !optionTexts.isEmpty { nodes[question.node].optionTexts = optionTexts } }
        for item in question.element.children("item", in: XFormNamespace.xforms) {
            checkAttributes(item, known: [])
            let value = XFormMapper.trimmed(item.child("value", in: XFormNamespace.xforms)?.text ?? "")
            guard !value.isEmpty, seen.insert(value).inserted else { continue }
            let text = text(of: item.child("label", in: XFormNamespace.xforms))
            if let id = text?.itext { optionTexts[value] = id }
            options.append(Option(value: value, label: plain(text) ?? value))
        }
        if searchable || words.contains("minimal") || options.isEmpty {
            field.kind = .valueList
            field.presentation.searchable = searchable
        } else if multiple {
            field.kind = options.count <= FormSchema.maxChips ? .chips : .valueList
        } else {
            field.kind =
                options.count <= FormSchema.maxButtons
                ? .buttons : options.count <= FormSchema.maxChips ? .chips : .valueList
        }
        if options.isEmpty {
            field.list = ImportNames.unique(field.name, taken: Set(lists.map(\.id)))
            lists.append(OptionList(id: field.list!, groups: [], external: true))
        } else {
            field.options = [OptionGroup(options: options)]
        }
        return used
    }

    /// Every option an itemset can offer, read from its inline instance with any filter left
    /// out (the filter is applied when the page is shown and a submission judged); `external`
    /// when the instance is a file, or the options cannot be read before evaluation.
    /// - Parameter texts: gets the itext id of each option's label, by its value, when the
    ///   itemset's labels are translated (`jr:itext(itextId)`).
    func staticOptions(
        _ itemset: XFormItemset, texts: inout [String: String]?
    ) -> (options: [Option], external: Bool) {
        guard let id = itemset.instance, let instance = secondaryElements[id] else { return ([], true) }
        let text = itemset.nodeset.source.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let close = text.firstIndex(of: ")") else { return ([], true) }
        var steps: [String] = []
        var step = ""
        var depth = 0
        var quote: Character?
        for character in text[text.index(after: close)...] {
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "[" {
                depth += 1
            } else if character == "]" {
                depth -= 1
            } else if depth == 0 {
                if character == "/" {
                    if !step.isEmpty { steps.append(step) }
                    step = ""
                } else if !character.isWhitespace {
                    step.append(character)
                }
            }
        }
        if !step.isEmpty { steps.append(step) }
        let simple = { (name: String) in name.allSatisfy { $0.isLetter || $0.isNumber || "_-.".contains($0) } }
        guard !steps.isEmpty, steps.allSatisfy(simple), simple(itemset.value),
            itemset.label.map(simple) ?? true, itemset.labelItext.map(simple) ?? true
        else { return ([], true) }
        var items = [instance]
        for name in steps {
            items = items.flatMap { $0.children.filter { $0.localName == name } }
        }
        var options: [Option] = []
        var seen = Set<String>()
        var found: [String: String] = [:]
        defer { if !found.isEmpty { texts = found } }
        for item in items {
            let value = XFormMapper.trimmed(item.children.first { $0.localName == itemset.value }?.text ?? "")
            guard !value.isEmpty, seen.insert(value).inserted else { continue }
            var label: String?
            if let ref = itemset.labelItext {
                let id = XFormMapper.trimmed(item.children.first { $0.localName == ref }?.text ?? "")
                label = plain(XFormText(itext: id))
                if !id.isEmpty { found[value] = id }
            } else if let ref = itemset.label {
                label = item.children.first { $0.localName == ref }.map { XFormMapper.trimmed($0.text) }
            }
            options.append(Option(value: value, label: label.flatMap { $0.isEmpty ? nil : $0 } ?? value))
        }
        return (options, false)
    }
}
