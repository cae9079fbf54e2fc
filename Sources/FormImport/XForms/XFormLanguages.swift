import FormModel

/// An imported XForm in each of its itext languages (`../shared/spec/languages.md`, "The form's
/// texts"): the languages with their tags, and the schema with its fields' labels, hints and
/// options in one of them. A text the language lacks stays in the default language.
public enum XFormLanguages {
    /// One of a form's languages: its name in the form (`English (en)`, `French`, `default`) and
    /// its tag when the name can be placed (``LanguageTags/tag(ofLanguageNamed:)``).
    public struct Language: Sendable, Hashable {
        public var name: String
        public var tag: String?

        public init(name: String, tag: String?) {
            self.name = name
            self.tag = tag
        }
    }

    /// The form's languages, its default first; empty for a form without translations.
    public static func languages(of rules: XFormRules) -> [Language] {
        let translations = rules.translations
        var names = translations.languages
        if let first = translations.defaultLanguage, let index = names.firstIndex(of: first) {
            names.remove(at: index)
            names.insert(first, at: 0)
        }
        return names.map { Language(name: $0, tag: LanguageTags.tag(ofLanguageNamed: $0)) }
    }

    /// The schema with its fields' texts in `language` (an itext language's name): each label
    /// and hint given through itext, with ODK's formatting read as at import, each option label
    /// the form translates, in the form's own fields and its items' alike, and the headings of
    /// its groups and item lists given through itext.
    public static func schema(_ schema: FormSchema, rules: XFormRules, language: String) -> FormSchema {
        guard language != rules.translations.defaultLanguage, rules.translations.languages.contains(language) else {
            return schema
        }
        // Each field's node, by the item list it is in (its innermost repeat) and its name.
        let repeats = rules.nodes.filter { $0.repeat != nil }.sorted { $0.path.count > $1.path.count }
        var nodes: [String: XFormNode] = [:]
        for node in rules.nodes where node.leftOut == nil {
            guard let field = node.field else { continue }
            let list = repeats.first { node.path.hasPrefix($0.path + "/") }?.repeat?.list ?? ""
            nodes["\(list)/\(field)"] = node
        }
        let reader = XFormTextReader(translations: rules.translations, language: language)
        // Group and list headings by their words in the default language (a heading of nested
        // groups is theirs joined, `Outer – Inner`).
        let original = XFormTextReader(translations: rules.translations)
        var headings: [String: String] = [:]
        for text in rules.headings ?? [] {
            if let from = original.plain(text), let to = reader.plain(text) { headings[from] = to }
        }
        func heading(_ text: String) -> String {
            text.components(separatedBy: " – ").map { headings[$0] ?? $0 }.joined(separator: " – ")
        }
        var translated = schema
        var listTexts: [String: [String: String]] = [:]
        func translate(_ groups: [FieldGroup], list: String) -> [FieldGroup] {
            groups.map { group in
                var group = group
                group.fields = group.fields.map { field in
                    var field = field
                    guard let node = nodes["\(list)/\(field.name)"] else { return field }
                    if node.label?.itext != nil, case let label = reader.formatted(node.label), let plain = label.plain
                    {
                        field.label = plain
                        field.presentation.labelFormat = label.format
                    }
                    if node.hint?.itext != nil, case let hint = reader.formatted(node.hint, guidance: true),
                        let plain = hint.plain
                    {
                        field.hint = plain
                        field.presentation.hintFormat = hint.format
                    }
                    if let texts = node.optionTexts {
                        field.options = field.options.map { relabel($0, texts, reader) }
                        if let id = field.list { listTexts[id] = texts }
                    }
                    return field
                }
                group.label = group.label.map(heading)
                if var items = group.items {
                    items.groups = translate(items.groups, list: items.name)
                    items.label = heading(items.label)
                    items.object = heading(items.object)
                    group.items = items
                }
                return group
            }
        }
        for index in translated.sections.indices {
            translated.sections[index].groups = translate(translated.sections[index].groups, list: "")
        }
        for index in translated.lists.indices {
            guard let texts = listTexts[translated.lists[index].id] else { continue }
            translated.lists[index].groups = relabel(translated.lists[index].groups, texts, reader)
        }
        return translated
    }

    /// Option groups with each option the form translates labelled in the reader's language.
    private static func relabel(
        _ groups: [OptionGroup], _ texts: [String: String], _ reader: XFormTextReader
    )
        -> [OptionGroup]
    {
        groups.map { group in
            var group = group
            group.options = group.options.map { option in
                var option = option
                if let id = texts[option.value], let label = reader.plain(XFormText(itext: id)) { option.label = label }
                return option
            }
            return group
        }
    }
}
