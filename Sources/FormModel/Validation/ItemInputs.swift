extension Submission {
    /// The submission with the inputs of its item lists gathered into items: a page sends an
    /// item's values under `LIST[INDEX].NAME` (`members[0].age`, `members[0].doses[1].given`,
    /// a duration's `members[0].stay.hours`), and each item becomes a submission of its own
    /// (``items``) under its own names. Items are taken in the order of their indices, whatever
    /// the order of the inputs, and numbered again from 0: a page whose script removed an item
    /// sends a gap. Inputs of lists the form does not have stay as they are (and are ignored).
    public func gatheringItems(of lists: [ItemList]) -> Submission {
        guard !lists.isEmpty else { return self }
        let byName = Dictionary(lists.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var gathered = Submission(items: items)
        // By list, by index: the item's inputs under their own names.
        var found: [String: [Int: Submission]] = [:]
        for (name, values) in fields {
            if let (list, index, rest) = Self.itemInput(name), byName[list] != nil {
                found[list, default: [:]][index, default: Submission()].fields[rest] = values
            } else {
                gathered.fields[name] = values
            }
        }
        for (name, sent) in files {
            if let (list, index, rest) = Self.itemInput(name), byName[list] != nil {
                found[list, default: [:]][index, default: Submission()].files[rest] = sent
            } else {
                gathered.files[name] = sent
            }
        }
        for (name, byIndex) in found {
            let inner = byName[name]?.lists ?? []
            gathered.items[name, default: []] += byIndex.keys.sorted().map { byIndex[$0]!.gatheringItems(of: inner) }
        }
        return gathered
    }

    /// The submission with each list holding at least as many items as `counts` gives by list
    /// path (`members`, `members[0].doses`), empty ones added at the end: a page's new items
    /// whose fields hold nothing send no inputs to count them by.
    public func holding(_ counts: [String: Int], of lists: [ItemList], parent: String? = nil) -> Submission {
        guard !counts.isEmpty else { return self }
        var held = self
        for list in lists {
            let path = parent.map { "\($0).\(list.name)" } ?? list.name
            var items = held.items[list.name] ?? []
            if items.count < min(counts[path] ?? 0, ItemList.maxItems) {
                items += Array(repeating: Submission(), count: min(counts[path] ?? 0, ItemList.maxItems) - items.count)
            }
            held.items[list.name] = items.enumerated().map { index, item in
                item.holding(counts, of: list.lists, parent: ItemList.itemPath(list.name, index, in: parent))
            }
        }
        return held
    }

    /// `members[12].age` as (`members`, 12, `age`); nil for any other name. The index is at most
    /// six digits: more items than that are refused by their count long before.
    public static func itemInput(_ name: String) -> (list: String, index: Int, rest: String)? {
        guard let open = name.utf8.firstIndex(of: UInt8(ascii: "[")), open != name.utf8.startIndex else { return nil }
        var index = 0
        var digits = 0
        var cursor = name.utf8.index(after: open)
        while cursor < name.utf8.endIndex, let digit = name.utf8[cursor].asciiDigit {
            guard digits < 6 else { return nil }
            index = index * 10 + digit
            digits += 1
            cursor = name.utf8.index(after: cursor)
        }
        guard digits > 0, cursor < name.utf8.endIndex, name.utf8[cursor] == UInt8(ascii: "]") else { return nil }
        let dot = name.utf8.index(after: cursor)
        guard dot < name.utf8.endIndex, name.utf8[dot] == UInt8(ascii: "."),
            name.utf8.index(after: dot) < name.utf8.endIndex
        else { return nil }
        return (String(name[..<open]), index, String(name[name.utf8.index(after: dot)...]))
    }
}

extension UInt8 {
    fileprivate var asciiDigit: Int? {
        (0x30...0x39).contains(self) ? Int(self - 0x30) : nil
    }
}

extension Submission {
    /// Every input by the name a page gives it: the fields as they are, each item's under
    /// `LIST[INDEX].NAME` (numbered in order) with its lists within; files apart.
    public var pageInputs: [String: [String]] {
        var inputs = fields
        for (list, items) in self.items {
            for (index, item) in items.enumerated() {
                for (name, values) in item.pageInputs { inputs["\(list)[\(index)].\(name)"] = values }
            }
        }
        return inputs
    }

    /// How many items each of `lists` holds, by the list's path (`members`,
    /// `members[0].doses`): every list of every item, those with none too.
    public func itemCounts(of lists: [ItemList], parent: String? = nil) -> [String: Int] {
        var counts: [String: Int] = [:]
        for list in lists {
            let items = self.items[list.name] ?? []
            counts[parent.map { "\($0).\(list.name)" } ?? list.name] = items.count
            for (index, item) in items.enumerated() {
                counts.merge(item.itemCounts(of: list.lists, parent: ItemList.itemPath(list.name, index, in: parent))) {
                    _, inner in inner
                }
            }
        }
        return counts
    }

    /// The items a new form starts with: each list's first count of new items (`min-count`, or
    /// what an XForm's instance holds, with the values it writes in them), theirs within.
    public static func starting(_ lists: [ItemList], clock: ClockReading? = nil) -> Submission {
        var start = Submission()
        for list in lists {
            let new = newItem(of: list, clock: clock)
            var items = Array(repeating: new, count: list.firstCount)
            for (index, written) in (list.startItems ?? []).prefix(items.count).enumerated() {
                for field in list.fields.flatMap({ [$0] + ($0.children ?? []) }) {
                    guard let value = written[field.name] else { continue }
                    var given = field
                    given.defaultValue = value
                    items[index].fields[field.name] = given.initialValues(at: clock)
                }
            }
            start.items[list.name] = items
        }
        return start
    }

    /// A new item: its fields' defaults (`today` and `now` read from `clock`), its lists'
    /// first items.
    public static func newItem(of list: ItemList, clock: ClockReading?) -> Submission {
        var item = starting(list.lists, clock: clock)
        for field in list.fields.flatMap({ [$0] + ($0.children ?? []) }) where field.defaultValue != nil {
            let values = field.initialValues(at: clock)
            if !values.isEmpty { item.fields[field.name] = values }
        }
        return item
    }

    /// Adds a new item (with its lists' starting items) at the end of the list at `path`
    /// (`members`, `members[0].doses`); false when the form has no list there, it is full, or
    /// people do not add items to it (``ItemList/addRemove``).
    public mutating func addItem(at path: String, lists: [ItemList], clock: ClockReading? = nil) -> Bool {
        var steps = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let name = steps.removeLast()
        return addItem(named: name, through: steps[...], lists: lists, clock: clock)
    }

    private mutating func addItem(
        named name: String, through steps: ArraySlice<String>, lists: [ItemList], clock: ClockReading?
    ) -> Bool {
        guard let step = steps.first else {
            guard let list = lists.first(where: { $0.name == name }), list.addRemove,
                (items[name]?.count ?? 0) < min(list.maxCount, ItemList.maxItems)
            else { return false }
            items[name, default: []].append(Self.newItem(of: list, clock: clock))
            return true
        }
        guard let (outer, index) = Self.itemStep(step), let list = lists.first(where: { $0.name == outer }),
            index < (items[outer]?.count ?? 0)
        else { return false }
        return items[outer]![index].addItem(named: name, through: steps.dropFirst(), lists: list.lists, clock: clock)
    }

    /// Removes the item at `path` (`members[1]`, `members[0].doses[2]`); false when there is none
    /// or people do not remove items from its list (``ItemList/addRemove``).
    public mutating func removeItem(at path: String, lists: [ItemList]) -> Bool {
        let steps = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let first = steps.first, let (name, index) = Self.itemStep(first), index < (items[name]?.count ?? 0),
            let list = lists.first(where: { $0.name == name })
        else { return false }
        if steps.count == 1 {
            guard list.addRemove else { return false }
            items[name]!.remove(at: index)
            return true
        }
        return items[name]![index].removeItem(at: steps.dropFirst().joined(separator: "."), lists: list.lists)
    }

    /// `members[2]` as (`members`, 2); nil for any other step (an index of one to six digits).
    static func itemStep(_ step: some StringProtocol) -> (list: String, index: Int)? {
        guard step.hasSuffix("]"), let open = step.firstIndex(of: "["), open != step.startIndex else { return nil }
        let digits = step[step.index(after: open)..<step.index(before: step.endIndex)]
        guard (1...6).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }), let index = Int(digits)
        else { return nil }
        return (String(step[..<open]), index)
    }
}

extension Submission {
    /// Calls `body` for every attachments field of the form and of each of its items, at every
    /// level, with the submission holding that field's inputs (the form's own, or the item's, as
    /// ``gatheringItems(of:)`` made it) and the field's input name on the page (`scan`,
    /// `members[1].photo`, numbered in order). ``ItemList/ruleKey(_:)`` of that name
    /// (`members[].photo`) is the same for every item of a list.
    public mutating func forEachAttachmentsInput(
        of schema: FormSchema, _ body: (inout Submission, _ field: Field, _ input: String) throws -> Void
    ) rethrows {
        for field in schema.fields(of: .attachments) { try body(&self, field, field.name) }
        try forEachItemAttachments(schema.itemLists, parent: nil, body)
    }

    private mutating func forEachItemAttachments(
        _ lists: [ItemList], parent: String?, _ body: (inout Submission, Field, String) throws -> Void
    ) rethrows {
        for list in lists {
            guard var items = self.items[list.name], !items.isEmpty else { continue }
            let fields = list.fields.flatMap { [$0] + ($0.children ?? []) }.filter { $0.kind == .attachments }
            for index in items.indices {
                let path = ItemList.itemPath(list.name, index, in: parent)
                for field in fields { try body(&items[index], field, "\(path).\(field.name)") }
                try items[index].forEachItemAttachments(list.lists, parent: path, body)
            }
            self.items[list.name] = items
        }
    }
}

extension FormSchema {
    /// Every attachments field of the form and of its item lists, at every level, with how
    /// many of it one object may hold: 1 for a form's own, the most items of its lists for an
    /// item's (`max-count` of each list it is in, multiplied, within ``ItemList/maxItemsInObject``).
    public var attachmentsFields: [(field: Field, times: Int)] {
        var found = fields(of: .attachments).map { ($0, 1) }
        func walk(_ lists: [ItemList], times: Int) {
            for list in lists {
                let (product, overflow) = times.multipliedReportingOverflow(by: min(list.maxCount, ItemList.maxItems))
                let within = overflow ? ItemList.maxItemsInObject : min(product, ItemList.maxItemsInObject)
                for field in list.fields.flatMap({ [$0] + ($0.children ?? []) }) where field.kind == .attachments {
                    found.append((field, within))
                }
                walk(list.lists, times: within)
            }
        }
        walk(itemLists, times: 1)
        return found
    }
}

extension Submission {
    /// The submission with every item that carries a stored item's id (`_id`) holding that
    /// item's stored files, at every level: a client that sends no files (the JSON API) keeps
    /// each item's with the item, wherever its list now puts it.
    public func holdingFiles(of stored: [String: FieldValue]) -> Submission {
        var byItem: [String: [String: [SubmittedFile]]] = [:]
        func collect(_ values: [String: FieldValue]) {
            for case .items(let items) in values.values {
                for item in items {
                    if let id = item.id {
                        for case (let name, .files(let files)) in item.values { byItem[id, default: [:]][name] = files }
                    }
                    collect(item.values)
                }
            }
        }
        collect(stored)
        guard !byItem.isEmpty else { return self }
        func hold(_ submission: inout Submission) {
            for name in submission.items.keys {
                for index in submission.items[name]!.indices {
                    if let id = FormValidator.itemID(submission.items[name]![index].first(FormValidator.itemIDName)),
                        let files = byItem[id]
                    {
                        submission.items[name]![index].files.merge(files) { sent, _ in sent }
                    }
                    hold(&submission.items[name]![index])
                }
            }
        }
        var held = self
        hold(&held)
        return held
    }
}
