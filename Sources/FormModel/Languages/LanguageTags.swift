import Foundation

/// Language tags (BCP 47: `de`, `de-CH`, `zh-Hant-TW`) as `Accept-Language` asks for them and as
/// forms name their languages, and the choice between them (`../shared/spec/languages.md`,
/// "Which language").
public enum LanguageTags {
    /// A tag in its usual case (`de-ch` → `de-CH`, `ZH-hant` → `zh-Hant`), or nil for text that
    /// is no tag: 1 to 8 letters, then subtags of 1 to 8 letters or digits, joined by `-` (or `_`).
    public static func canonical(_ text: String) -> String? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(
            omittingEmptySubsequences: false, whereSeparator: { $0 == "-" || $0 == "_" })
        guard let first = parts.first, (1...8).contains(first.count), first.allSatisfy(\.isASCIILetter) else {
            return nil
        }
        var tag = first.lowercased()
        for part in parts.dropFirst() {
            guard (1...8).contains(part.count), part.allSatisfy({ $0.isASCIILetter || $0.isASCIIDigit }) else {
                return nil
            }
            // Script subtags are title case, regions upper case, the rest lower case.
            if part.count == 4, part.allSatisfy(\.isASCIILetter) {
                tag += "-" + part.prefix(1).uppercased() + part.dropFirst().lowercased()
            } else if part.count == 2, part.allSatisfy(\.isASCIILetter) {
                tag += "-" + part.uppercased()
            } else {
                tag += "-" + part.lowercased()
            }
        }
        return tag
    }

    /// The language ranges of an `Accept-Language` header, most wanted first (by `q`, then in
    /// the order written); `*` and ranges with `q=0` are left out, as is anything unreadable.
    /// At most 20 ranges are read.
    public static func accepted(_ header: String?) -> [String] {
        guard let header else { return [] }
        var ranges: [(tag: String, q: Double, order: Int)] = []
        for (order, entry) in header.split(separator: ",").prefix(20).enumerated() {
            let parts = entry.split(separator: ";")
            guard let range = parts.first.flatMap({ canonical(String($0)) }) else { continue }
            var q = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
                if pair.count == 2, pair[0].lowercased() == "q" { q = Double(pair[1]) ?? 0 }
            }
            if q > 0 { ranges.append((range, q, order)) }
        }
        return ranges.sorted { $0.q != $1.q ? $0.q > $1.q : $0.order < $1.order }.map(\.tag)
    }

    /// RFC 4647's lookup: the first range, in order, that one of `available` matches once the
    /// range is cut back subtag by subtag (`de-CH-1996` → `de-CH` → `de`); nil when none does.
    /// Matching ignores case; the available tag is returned as given.
    public static func lookup(_ ranges: [String], in available: [String]) -> String? {
        guard !available.isEmpty else { return nil }
        let byTag = Dictionary(available.map { ($0.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        for range in ranges {
            var tag = range.lowercased()
            while true {
                if let found = byTag[tag] { return found }
                guard let cut = tag.lastIndex(of: "-") else { break }
                tag = String(tag[..<cut])
                // A single letter or digit left at the end goes with the cut (`zh-Hant-x` → `zh-Hant`).
                if let last = tag.lastIndex(of: "-"), tag.distance(from: last, to: tag.endIndex) == 2 {
                    tag = String(tag[..<last])
                }
            }
        }
        return nil
    }

    /// A language's name in its own language (`Deutsch`, `Français`), for a language switch; the
    /// tag itself when Foundation's CLDR data does not know it.
    public static func ownName(of tag: String) -> String {
        let locale = Locale(identifier: tag)
        guard let name = locale.localizedString(forIdentifier: tag), !name.isEmpty else { return tag }
        return name.prefix(1).uppercased() + name.dropFirst()
    }

    /// The tag of a language as an XForm names it: `English (en)` and `Français (fr)` by the tag
    /// in brackets, `fr`, `pt-BR` as tags, and an English name (`French`, `Swahili`) by the
    /// language CLDR calls so; nil for a name it cannot place (the language is then shown by its
    /// name only).
    public static func tag(ofLanguageNamed name: String) -> String? {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        if trimmed.hasSuffix(")"), let open = trimmed.lastIndex(of: "("),
            let tag = canonical(String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]))
        {
            return tag
        }
        if trimmed.count <= 3 || trimmed.contains("-"), let tag = canonical(trimmed),
            Locale(identifier: "en").localizedString(forLanguageCode: tag) != nil
        {
            return tag
        }
        return englishNames[trimmed.lowercased()]
    }

    /// Language names in English as CLDR gives them, to their ISO 639 codes (`french` → `fr`),
    /// the two-letter code where a language has one.
    private static let englishNames: [String: String] = {
        let english = Locale(identifier: "en")
        var names: [String: String] = [:]
        for code in Locale.LanguageCode.isoLanguageCodes.map(\.identifier) {
            guard let name = english.localizedString(forLanguageCode: code)?.lowercased() else { continue }
            // A two-letter code wins over a three-letter one for the same language.
            if let known = names[name], known.count <= code.count { continue }
            names[name] = code
        }
        return names
    }()
}

extension Character {
    fileprivate var isASCIILetter: Bool { isASCII && isLetter }
}
