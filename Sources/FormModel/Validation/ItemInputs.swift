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

    /// `members[12].age` as (`members`, 12, `age`); nil for any other name. The index is at most
    /// six digits: more items than that are refused by their count long before.
    static func itemInput(_ name: String) -> (list: String, index: Int, rest: String)? {
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
