/// Formatted text of an imported label or hint (ODK's Markdown subset and its `<span>` colours
/// and fonts, `docs/odk-markdown.md`), kept as structure and never as HTML: a page writes each
/// run's text escaped, inside the few elements the structure names. The field's plain `label`
/// and `hint` stay beside it, without the marks, for messages, summaries and screen readers.
///
/// Canonical JSON: an array of blocks, each `{"runs": [...]}` (a paragraph) or
/// `{"level": 2, "runs": [...]}` (a heading); a run `{"text": "…"}` with any of `"strong": true`,
/// `"em": true`, `"link": "https://…"`, `"color": "red"`, `"font": "serif"`. A line break is a
/// `\n` in a run's text.
public struct RichText: Sendable, Hashable, Codable {
    public var blocks: [Block]

    public init(blocks: [Block]) {
        self.blocks = blocks
    }

    /// A paragraph, or a heading with its level (1–6).
    public struct Block: Sendable, Hashable, Codable {
        /// The heading level; nil for a paragraph.
        public var level: Int?
        public var runs: [Run]

        public init(level: Int? = nil, runs: [Run]) {
            self.level = level
            self.runs = runs
        }
    }

    /// A piece of text in one style. Styles are flat (a run is strong, emphasised, a link, in a
    /// colour or a font, or any of these at once), so marks written across each other cannot
    /// nest wrongly.
    public struct Run: Sendable, Hashable, Codable {
        public var text: String
        public var strong: Bool
        public var emphasis: Bool
        /// The address of a link: `http`, `https`, `mailto` or `tel` only.
        public var link: String?
        /// One of ``RichText/colors``.
        public var color: String?
        /// One of ``RichText/fonts``.
        public var font: String?

        public init(
            _ text: String, strong: Bool = false, emphasis: Bool = false, link: String? = nil, color: String? = nil,
            font: String? = nil
        ) {
            self.text = text
            self.strong = strong
            self.emphasis = emphasis
            self.link = link
            self.color = color
            self.font = font
        }

        /// Whether another run has the same style, so that the two can be one.
        public func sameStyle(as other: Run) -> Bool {
            strong == other.strong && emphasis == other.emphasis && link == other.link && color == other.color
                && font == other.font
        }

        enum CodingKeys: String, CodingKey {
            case text, strong
            case emphasis = "em"
            case link, color, font
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                try c.decode(String.self, forKey: .text),
                strong: try c.decodeIfPresent(Bool.self, forKey: .strong) ?? false,
                emphasis: try c.decodeIfPresent(Bool.self, forKey: .emphasis) ?? false,
                link: try c.decodeIfPresent(String.self, forKey: .link),
                color: try c.decodeIfPresent(String.self, forKey: .color).flatMap {
                    RichText.colors.contains($0) ? $0 : nil
                },
                font: try c.decodeIfPresent(String.self, forKey: .font).flatMap {
                    RichText.fonts.contains($0) ? $0 : nil
                })
            if let link, !RichText.isAllowedLink(link) { self.link = nil }
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(text, forKey: .text)
            if strong { try c.encode(true, forKey: .strong) }
            if emphasis { try c.encode(true, forKey: .emphasis) }
            try c.encodeIfPresent(link, forKey: .link)
            try c.encodeIfPresent(color, forKey: .color)
            try c.encodeIfPresent(font, forKey: .font)
        }
    }

    public init(from decoder: any Decoder) throws {
        var blocks = try decoder.singleValueContainer().decode([Block].self)
        for index in blocks.indices where blocks[index].level.map({ !(1...6).contains($0) }) ?? false {
            blocks[index].level = nil
        }
        self.init(blocks: blocks)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(blocks)
    }

    /// The text without its marks: blocks a line each.
    public var plainText: String {
        blocks.map { $0.runs.map(\.text).joined() }.joined(separator: "\n")
    }

    /// Whether the text has any mark at all; one without is no more than its plain text.
    public var isFormatted: Bool {
        blocks.count > 1
            || blocks.contains { block in
                block.level != nil
                    || block.runs.contains {
                        $0.strong || $0.emphasis || $0.link != nil || $0.color != nil || $0.font != nil
                    }
            }
    }

    /// The colours a run may have: a page's palette, each readable on the page's background (an
    /// author's `color` is taken to the nearest of them, `docs/odk-markdown.md`).
    public static let colors: Set<String> = [
        "red", "orange", "brown", "green", "teal", "blue", "purple", "pink", "grey",
    ]

    /// The font families a run may have: the generic ones ODK's documentation recommends.
    public static let fonts: Set<String> = ["serif", "sans-serif", "monospace", "cursive"]

    /// Whether a link's address may be followed from a page: `http`, `https`, `mailto`, `tel`.
    public static func isAllowedLink(_ address: String) -> Bool {
        guard let colon = address.firstIndex(of: ":") else { return false }
        let scheme = address[..<colon].lowercased()
        return ["http", "https", "mailto", "tel"].contains(scheme)
            && !address.unicodeScalars.contains { $0.value < 0x21 || $0.value == 0x7F }
    }
}
