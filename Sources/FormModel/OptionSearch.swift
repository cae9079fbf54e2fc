import Foundation

/// Finds options of a long value list by what a person types: every word of the query must
/// start a word of the option's label, or appear in its value, ignoring case and accents.
/// Options whose label starts with the query come first; otherwise the list's own order holds.
public struct OptionSearch: Sendable {
    /// One match, with the heading of the group it is in.
    public struct Match: Sendable, Hashable, Codable {
        public var value: String
        public var label: String
        public var group: String?

        public init(value: String, label: String, group: String? = nil) {
            self.value = value
            self.label = label
            self.group = group
        }
    }

    /// A page of matches, and how many there are in all.
    public struct Page: Sendable, Hashable {
        public var matches: [Match]
        public var total: Int
        public var page: Int
        public var hasMore: Bool
    }

    /// Matches a page holds.
    public static let pageSize = 50

    private struct Entry {
        var match: Match
        var labelWords: [String]
        var label: String
        var value: String
    }

    private let entries: [Entry]

    /// Whether both were prepared once and shared (one storage), not folded twice.
    func sharesStorage(with other: OptionSearch) -> Bool {
        entries.withUnsafeBufferPointer { mine in
            other.entries.withUnsafeBufferPointer { theirs in mine.baseAddress == theirs.baseAddress }
        }
    }

    /// Prepares the options once (folded for comparison), so each query only compares.
    public init(_ groups: [OptionGroup]) {
        entries = groups.flatMap { group in
            group.options.map { option in
                let label = Self.fold(option.label)
                return Entry(
                    match: Match(value: option.value, label: option.label, group: group.label),
                    labelWords: label.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init),
                    label: label, value: Self.fold(option.value))
            }
        }
    }

    /// The options matching `query` (all of them for an empty query), page `page` (from 1);
    /// with `allowed`, only those among its values (the options a form's rules offer for the
    /// answers given: an XForm's filtered itemset), counted and paged as the only ones.
    public func search(_ query: String, page: Int = 1, among allowed: Set<String>? = nil) -> Page {
        let words = Self.fold(query).split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
        let whole = Self.fold(query.trimmingCharacters(in: .whitespaces))
        var first: [Match] = []
        var rest: [Match] = []
        for entry in entries where allowed?.contains(entry.match.value) ?? true {
            let matches = words.allSatisfy { word in
                entry.labelWords.contains { $0.hasPrefix(word) } || entry.value.contains(word)
            }
            guard matches else { continue }
            if !whole.isEmpty && entry.label.hasPrefix(whole) {
                first.append(entry.match)
            } else {
                rest.append(entry.match)
            }
        }
        let all = first + rest
        let page = max(1, page)
        let start = min((page - 1) * Self.pageSize, all.count)
        let end = min(start + Self.pageSize, all.count)
        return Page(matches: Array(all[start..<end]), total: all.count, page: page, hasMore: end < all.count)
    }

    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }
}
