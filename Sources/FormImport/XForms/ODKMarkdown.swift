import FormModel
import Foundation
import Ink

/// ODK's formatting of labels and hints (`docs/odk-markdown.md`): its Markdown subset (`#`
/// headings, `**`/`__` strong, `*`/`_` emphasis, `[text](url)` links, `\` escapes) and its few
/// HTML tags (`<span style="color…; font-family…">`, `<b>`, `<i>`, `<br>`, `<p>`), read into a
/// ``RichText``. Everything else shows as the author wrote it: no HTML of the form reaches a page.
///
/// The text is made safe first (every `<`, `>`, `&` and `"` an entity, every Markdown mark ODK
/// does not have neutralised), ODK's own rules for emphasis and escapes are applied as Collect
/// and Enketo write them (Ink's emphasis differs: `A_B_C`), and Ink reads what is left
/// (paragraphs, headings, line breaks, links, each link's address allowed or dropped by a
/// modifier). Its HTML, made only of elements Ink writes and marks of ours, is then read into
/// blocks and runs.
enum ODKMarkdown {
    /// The text read, or nil when it holds nothing ODK reads as a mark (nearly every label). A
    /// text read may still have no format (``RichText/isFormatted``): an escaped mark, a link to
    /// an address not allowed; its ``RichText/plainText`` is then its words.
    static func read(_ text: String) -> RichText? {
        // A label is a few lines; one longer than this is shown as written, so that no text makes
        // the reading (regular expressions over the text, Ink) take long.
        guard text.utf8.count <= maxLength, text.contains(where: { "*_#[<\\".contains($0) }) else { return nil }
        let reading = Reading()
        let prepared = reading.prepare(text)
        let html = reading.parser().html(from: prepared)
        return reading.richText(html)
    }

    /// The longest text read, in UTF-8 bytes.
    static let maxLength = 8_000

    /// A mark of ours in the text Ink reads: private-use characters, which Ink passes as text.
    fileprivate static let open: Character = "\u{E100}"
    fileprivate static let close: Character = "\u{E101}"

    /// One text's reading: the spans' and links' styles its marks refer to by number.
    fileprivate final class Reading {
        var spans: [(color: String?, font: String?)] = []
        var links: [String] = []

        private func mark(_ code: String) -> String { "\(ODKMarkdown.open)\(code)\(ODKMarkdown.close)" }

        // MARK: Before Ink

        func prepare(_ source: String) -> String {
            var text = source.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            text.unicodeScalars.removeAll { (0xE000...0xF8FF).contains($0.value) }
            text = tags(text)
            text = XFormInstanceWriter.escape(text, attribute: false).replacingOccurrences(of: "\"", with: "&quot;")
            // ODK's escapes: \\ \* \_ \#; any other backslash stays one (Collect: `\a` is `\a`).
            text = text.replacingOccurrences(of: "\\\\", with: "&#92;").replacingOccurrences(of: "\\*", with: "&#42;")
                .replacingOccurrences(of: "\\_", with: "&#95;").replacingOccurrences(of: "\\#", with: "&#35;")
                .replacingOccurrences(of: "\\", with: "&#92;")
            text = emphasis(text)
            text = neutralised(text)
            return text
        }

        /// The HTML tags ODK forms use as marks: a `<span>` with a colour or font (Collect keeps
        /// those two, as ODK's documentation says), `<b>`/`<strong>`, `<i>`/`<em>`, `<br>`,
        /// `<p>`/`<div>` (paragraphs); any other tag is left as text, to show as written.
        private func tags(_ source: String) -> String {
            var text = source
            while let found = Self.span.firstMatch(in: text) {
                let style = Self.style(found[1])
                spans.append(style)
                text.replaceSubrange(
                    found.range, with: mark("C\(spans.count - 1)") + found[2] + mark("c"))
            }
            text = Self.lineBreak.replacing(in: text, with: "\n")
            text = Self.paragraph.replacing(in: text, with: "\n\n")
            text = Self.strongTag.replacing(in: text) { $0[1].isEmpty ? self.mark("S") : self.mark("s") }
            text = Self.emphasisTag.replacing(in: text) { $0[1].isEmpty ? self.mark("E") : self.mark("e") }
            return text
        }

        /// ODK's emphasis, by Collect's and Enketo's rules: `__x__` and `**x**` strong, `_x_`
        /// (not inside a word) and `*x*` emphasis, never across a line; a mark left over is text.
        private func emphasis(_ source: String) -> String {
            var text = source
            for pattern in [Self.strongUnderscores, Self.strongStars] {
                text = pattern.replacing(in: text) { self.mark("S") + $0[1] + self.mark("s") }
            }
            text = Self.emphasisUnderscore.replacing(in: text) { $0[1] + self.mark("E") + $0[2] + self.mark("e") }
            text = Self.emphasisStar.replacing(in: text) { self.mark("E") + $0[1] + self.mark("e") }
            return text.replacingOccurrences(of: "_", with: "&#95;").replacingOccurrences(of: "*", with: "&#42;")
        }

        /// Every Markdown mark ODK does not have, made text: code, strikethrough, tables, images,
        /// lists, rules, blockquotes (already `&gt;`), link definitions, indented code; a heading
        /// without its space gets one (`#1 priority` is a heading in Collect); more than six `#`
        /// are text.
        private func neutralised(_ source: String) -> String {
            var text = source.replacingOccurrences(of: "~", with: "&#126;").replacingOccurrences(of: "`", with: "&#96;")
                .replacingOccurrences(of: "|", with: "&#124;").replacingOccurrences(of: "![", with: "&#33;[")
            var lines: [String] = []
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                var line = String(line.drop { $0 == " " || $0 == "\t" })
                if let first = line.first {
                    if first == "-" || first == "+" || first == "=" {
                        line = "&#\(first.asciiValue!);" + line.dropFirst()
                    } else if first == "[", line.contains("]:") {
                        line = "&#91;" + line.dropFirst()
                    } else if first.isNumber, let found = Self.ordered.firstMatch(in: line) {
                        line.replaceSubrange(found.range, with: found[1] + (found[2] == "." ? "&#46;" : "&#41;"))
                    } else if first == "#" {
                        let hashes = line.prefix { $0 == "#" }.count
                        if hashes > 6 {
                            line = "&#35;" + line.dropFirst()
                        } else if line.dropFirst(hashes).first.map({ $0 != " " }) ?? false {
                            line = String(line.prefix(hashes)) + " " + line.dropFirst(hashes)
                        }
                    }
                }
                lines.append(line)
            }
            text = lines.joined(separator: "\n")
            // One line break is a break (Enketo, Web Forms); a blank line a new paragraph; a
            // heading starts its own block.
            return Self.singleNewline.replacing(in: text, with: "  \n")
        }

        // MARK: Ink

        func parser() -> MarkdownParser {
            var parser = MarkdownParser()
            parser.addModifier(
                Modifier(target: .links) { [self] input in
                    let inner = Self.inner(input.html)
                    let written = input.markdown
                    guard written.hasSuffix(")"), let start = written.range(of: "](", options: .backwards) else {
                        return inner
                    }
                    let address = Self.decoded(
                        String(written[start.upperBound..<written.index(before: written.endIndex)])
                    )
                    .trimmingCharacters(in: .whitespaces)
                    guard RichText.isAllowedLink(address) else { return inner }
                    links.append(address)
                    return mark("L\(links.count - 1)") + inner + mark("l")
                })
            // What the prepared text cannot hold, should Ink still find it: its own words as text.
            for target in [Modifier.Target.html, .codeBlocks, .inlineCode, .lists, .blockquotes, .tables, .images] {
                parser.addModifier(
                    Modifier(target: target) { input in
                        XFormInstanceWriter.escape(String(input.markdown), attribute: false)
                    })
            }
            parser.addModifier(Modifier(target: .horizontalLines) { _ in "" })
            return parser
        }

        // MARK: After Ink

        /// Ink's HTML read into blocks and runs: only the elements Ink writes for the prepared
        /// text (`p`, `h1`–`h6`, `br`), its entities, and our marks.
        func richText(_ html: String) -> RichText {
            var blocks: [RichText.Block] = []
            var current: RichText.Block?
            var style = RichText.Run("")
            var strong = 0
            var emphasis = 0
            var spanStack: [(color: String?, font: String?)] = []
            var text = ""

            func flush() {
                guard !text.isEmpty else { return }
                if current == nil { current = RichText.Block(runs: []) }
                var run = style
                run.text = Self.decoded(text)
                if let last = current!.runs.last, last.sameStyle(as: run) {
                    current!.runs[current!.runs.count - 1].text += run.text
                } else {
                    current!.runs.append(run)
                }
                text = ""
            }
            func endBlock() {
                flush()
                if var block = current {
                    block.runs = Self.trimmed(block.runs)
                    if !block.runs.isEmpty { blocks.append(block) }
                }
                current = nil
            }
            func restyle() {
                style.strong = strong > 0
                style.emphasis = emphasis > 0
                style.color = spanStack.last { $0.color != nil }?.color
                style.font = spanStack.last { $0.font != nil }?.font
            }

            var index = html.startIndex
            while index < html.endIndex {
                let character = html[index]
                if character == "<", let end = html[index...].firstIndex(of: ">") {
                    let tag = html[html.index(after: index)..<end].lowercased()
                    let name = tag.split(separator: " ").first.map(String.init) ?? ""
                    switch name {
                    case "p": endBlock()
                    case "/p", "/h1", "/h2", "/h3", "/h4", "/h5", "/h6": endBlock()
                    case "h1", "h2", "h3", "h4", "h5", "h6":
                        endBlock()
                        current = RichText.Block(level: Int(String(name.last!)), runs: [])
                    case "br", "br/": text += "\n"
                    default: break
                    }
                    index = html.index(after: end)
                    continue
                }
                if character == ODKMarkdown.open, let end = html[index...].firstIndex(of: ODKMarkdown.close) {
                    flush()
                    let code = html[html.index(after: index)..<end]
                    switch code.first {
                    case "S": strong += 1
                    case "s": strong = max(0, strong - 1)
                    case "E": emphasis += 1
                    case "e": emphasis = max(0, emphasis - 1)
                    case "C":
                        spanStack.append(
                            Int(code.dropFirst()).flatMap { spans.indices.contains($0) ? spans[$0] : nil } ?? (nil, nil)
                        )
                    case "c": _ = spanStack.popLast()
                    case "L":
                        style.link = Int(code.dropFirst()).flatMap { links.indices.contains($0) ? links[$0] : nil }
                    case "l": style.link = nil
                    default: break
                    }
                    restyle()
                    index = html.index(after: end)
                    continue
                }
                // Ink's own line ends between and inside blocks are spaces at most.
                text.append(character == "\n" ? " " : character)
                index = html.index(after: index)
            }
            endBlock()
            return RichText(blocks: blocks)
        }

        /// A block's runs without the spaces at its ends or around its breaks.
        static func trimmed(_ runs: [RichText.Run]) -> [RichText.Run] {
            var runs = runs.map { run in
                var run = run
                while run.text.contains(" \n") { run.text = run.text.replacingOccurrences(of: " \n", with: "\n") }
                while run.text.contains("\n ") { run.text = run.text.replacingOccurrences(of: "\n ", with: "\n") }
                return run
            }
            while let first = runs.first, first.text.allSatisfy(\.isWhitespace) { runs.removeFirst() }
            while let last = runs.last, last.text.allSatisfy(\.isWhitespace) { runs.removeLast() }
            if !runs.isEmpty {
                runs[0].text = String(runs[0].text.drop { $0.isWhitespace })
                while runs[runs.count - 1].text.last?.isWhitespace == true { runs[runs.count - 1].text.removeLast() }
            }
            return runs
        }

        // MARK: Pieces

        /// The inside of Ink's `<a href="…">…</a>`.
        static func inner(_ html: String) -> String {
            guard let start = html.firstIndex(of: ">"), let end = html.range(of: "</a>", options: .backwards) else {
                return html
            }
            return String(html[html.index(after: start)..<end.lowerBound])
        }

        /// Text with the entities the prepared text and Ink write made characters again, as an XML
        /// parser reads references.
        static func decoded(_ text: String) -> String {
            text.contains("&") ? XFormSource.decode(Array(text.utf8)) : text
        }

        /// A span's `style` read as Collect reads it: its `color` and `font-family`, each taken to
        /// the page's palette and generic fonts; anything else dropped.
        static func style(_ attributes: String) -> (color: String?, font: String?) {
            guard let found = styleAttribute.firstMatch(in: attributes) else { return (nil, nil) }
            var color: String?
            var font: String?
            for declaration in found[2].split(separator: ";") {
                let pair = declaration.split(separator: ":", maxSplits: 1)
                guard pair.count == 2 else { continue }
                let value = pair[1].trimmingCharacters(in: .whitespaces)
                switch pair[0].trimmingCharacters(in: .whitespaces).lowercased() {
                case "color": color = RichTextPalette.color(value)
                case "font-family": font = RichTextPalette.font(value)
                default: continue
                }
            }
            return (color, font)
        }

        // MARK: Patterns

        static let span = Pattern(#"<\s?span([^/\n>]*)>((?:(?!</)[^\n])+?)</\s?span\s?>"#)
        static let styleAttribute = Pattern(#"style\s*=\s*(["'])([^"']*)\1"#)
        static let lineBreak = Pattern(#"<\s?br\s*/?\s?>"#)
        static let paragraph = Pattern(#"</?\s?(?:p|div)(?:\s[^<>\n]*)?>"#)
        static let strongTag = Pattern(#"<\s?(/?)\s?(?:b|strong)\s?>"#)
        static let emphasisTag = Pattern(#"<\s?(/?)\s?(?:i|em)\s?>"#)
        static let strongUnderscores = Pattern(#"__([^\n]+?)__"#)
        static let strongStars = Pattern(#"\*\*([^\n]+?)\*\*"#)
        static let emphasisUnderscore = Pattern(#"(^|[^\p{L}\p{N}_])_([^\s_][^_\n]*)_(?![\p{L}\p{N}_])"#)
        static let emphasisStar = Pattern(#"\*([^\s*][^*\n]*)\*"#)
        static let ordered = Pattern(#"^(\d+)([.)])(?=\s|$)"#)
        static let singleNewline = Pattern(#"(?<!\n)\n(?![\n]|[ \t]*#{1,6}[ \t])"#)
    }
}

/// A regular expression of the reader's, on `String`s (`NSRegularExpression` underneath).
struct Pattern: @unchecked Sendable {
    let expression: NSRegularExpression

    init(_ pattern: String) {
        expression = try! NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines])
    }

    /// A match: the whole range in the string, and each group's text ("" when it took part in no match).
    struct Match {
        var range: Range<String.Index>
        var groups: [String]
        subscript(_ group: Int) -> String { groups.indices.contains(group) ? groups[group] : "" }
    }

    func firstMatch(in text: String) -> Match? {
        let whole = NSRange(text.startIndex..., in: text)
        guard let found = expression.firstMatch(in: text, range: whole) else { return nil }
        return match(found, in: text)
    }

    private func match(_ found: NSTextCheckingResult, in text: String) -> Match {
        var groups: [String] = []
        for group in 0..<found.numberOfRanges {
            groups.append(Range(found.range(at: group), in: text).map { String(text[$0]) } ?? "")
        }
        return Match(range: Range(found.range, in: text)!, groups: groups)
    }

    func replacing(in text: String, with replacement: String) -> String {
        replacing(in: text) { _ in replacement }
    }

    /// Every match replaced by what `make` gives for it, left to right.
    func replacing(in text: String, _ make: (Match) -> String) -> String {
        let whole = NSRange(text.startIndex..., in: text)
        var out = ""
        var last = text.startIndex
        for found in expression.matches(in: text, range: whole) {
            let match = match(found, in: text)
            out += text[last..<match.range.lowerBound]
            out += make(match)
            last = match.range.upperBound
        }
        out += text[last...]
        return out
    }
}
