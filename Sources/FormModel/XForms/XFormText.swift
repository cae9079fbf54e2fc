/// A text of an XForm (a label, a hint, a message): written in place, or the id of a translated
/// text (`jr:itext('id')`), looked up in the language a page is shown in.
public struct XFormText: Codable, Sendable, Hashable {
    /// The text written in place, with its `<output>`s; nil when it comes from itext.
    public var inline: [XFormSegment]?
    /// The itext id, when the text is translated.
    public var itext: String?

    public init(inline: [XFormSegment]? = nil, itext: String? = nil) {
        self.inline = inline
        self.itext = itext
    }

    /// A literal text of one segment.
    public static func literal(_ text: String) -> XFormText {
        XFormText(inline: [.text(text)])
    }

    /// The segments in a language (the default language's text when that language lacks it).
    public func segments(in translations: XFormTranslations, language: String? = nil) -> [XFormSegment]? {
        if let inline { return inline }
        return itext.flatMap { translations.text($0, language: language)?.text }
    }
}

/// A piece of a text: literal, or an `<output value="expr"/>` replaced by the expression's value
/// when the page is rendered.
public enum XFormSegment: Codable, Sendable, Hashable {
    case text(String)
    case output(XFormExpression)

    enum CodingKeys: String, CodingKey { case text, output }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if let output = try c.decodeIfPresent(XFormExpression.self, forKey: .output) {
            self = .output(output)
        } else {
            self = .text(try c.decode(String.self, forKey: .text))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .text(let text): try c.encode(text, forKey: .text)
        case .output(let expression): try c.encode(expression, forKey: .output)
        }
    }

    /// The segments as one text, each output shown as `placeholder`.
    public static func joined(_ segments: [XFormSegment], placeholder: String) -> String {
        segments.map { segment in
            switch segment {
            case .text(let text): text
            case .output: placeholder
            }
        }.joined()
    }
}

/// The itext table: every language's texts by id, and the default language.
public struct XFormTranslations: Codable, Sendable, Hashable {
    /// The languages in document order (`<translation lang>`).
    public var languages: [String]
    /// The translation marked `default="true()"`, else the first; nil without itext.
    public var defaultLanguage: String?
    /// Language → text id → text.
    public var texts: [String: [String: XFormItext]]

    public init(languages: [String] = [], defaultLanguage: String? = nil, texts: [String: [String: XFormItext]] = [:]) {
        self.languages = languages
        self.defaultLanguage = defaultLanguage
        self.texts = texts
    }

    /// The translations with `language` (one of ``languages``) as the default, the default
    /// before it next: every text asked for without a language comes in it, or where it lacks
    /// one in the form's default. Unchanged for a language the form does not have.
    public func preferring(_ language: String) -> XFormTranslations {
        guard languages.contains(language), language != defaultLanguage else { return self }
        var preferred = self
        let original = defaultLanguage.map { [$0] } ?? []
        preferred.defaultLanguage = language
        preferred.languages = [language] + original + languages.filter { $0 != language && !original.contains($0) }
        return preferred
    }

    /// The text with an id in a language (the default language when nil), falling back to the
    /// default language, then to the first language that has it.
    public func text(_ id: String, language: String? = nil) -> XFormItext? {
        if let language, let found = texts[language]?[id] { return found }
        if let defaultLanguage, let found = texts[defaultLanguage]?[id] { return found }
        for language in languages {
            if let found = texts[language]?[id] { return found }
        }
        return nil
    }
}

/// One itext entry in one language: its default form and its guidance (`form="guidance"`).
/// Media forms (`image`, `audio`, `video`, `big-image`) are left out on import.
public struct XFormItext: Codable, Sendable, Hashable {
    public var text: [XFormSegment]?
    public var guidance: [XFormSegment]?

    public init(text: [XFormSegment]? = nil, guidance: [XFormSegment]? = nil) {
        self.text = text
        self.guidance = guidance
    }
}
