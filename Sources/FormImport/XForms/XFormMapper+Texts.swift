import FormModel
import Foundation

/// Texts: the itext table, labels and hints written in place or through `jr:itext`, and the
/// `<output>`s inside them, kept as segments so that a page can fill them in.
extension XFormMapper {
    /// Every translation of the model's `itext`, its texts by id; the default language is the
    /// one marked `default="true()"`, else the first.
    func readTranslations() {
        guard let itext = document.model.child("itext", in: XFormNamespace.xforms) else { return }
        for translation in itext.children {
            guard translation.isElement("translation", in: XFormNamespace.xforms) else {
                unknownElement(translation)
                continue
            }
            checkAttributes(translation, known: ["lang", "default"])
            let language = translation.attribute("lang") ?? ""
            if !translations.languages.contains(language) { translations.languages.append(language) }
            if translations.defaultLanguage == nil, let marked = translation.attribute("default"),
                XFormBind.isTrue(XFormExpression(source: marked, element: "", attribute: "", line: 0))
                    || marked.trimmingCharacters(in: .whitespaces) == "true"
            {
                translations.defaultLanguage = language
            }
            var texts = translations.texts[language] ?? [:]
            for text in translation.children {
                guard text.isElement("text", in: XFormNamespace.xforms), let id = text.attribute("id") else {
                    unknownElement(text)
                    continue
                }
                var entry = texts[id] ?? XFormItext()
                for value in text.children where value.isElement("value", in: XFormNamespace.xforms) {
                    switch value.attribute("form") {
                    case nil, "long"?:
                        if entry.text == nil { entry.text = segments(of: value) }
                    case "guidance"?:
                        entry.guidance = segments(of: value)
                    case let form?:
                        let media = ["image", "audio", "video", "big-image"].contains(form)
                        report.tally(media ? .mediaLeftOut : .mappingDropped, key: form, line: value.line) { count in
                            media
                                ? "\(Words.count(count, "\(form) text")) (itext form=\"\(form)\") \(count == 1 ? "is" : "are") left out: media files are not supplied."
                                : "\(Words.count(count, "itext value")) of form \"\(form)\" \(count == 1 ? "is" : "are") left out: only the default form and guidance are used."
                        }
                    }
                }
                texts[id] = entry
            }
            translations.texts[language] = texts
        }
        if translations.defaultLanguage == nil { translations.defaultLanguage = translations.languages.first }
    }

    /// The text of a `<label>` or `<hint>`: `ref="jr:itext('id')"`, a `ref` to a node (its value,
    /// as one output), or what is written in place.
    func text(of element: XFormElement?) -> XFormText? {
        guard let element else { return nil }
        checkAttributes(element, known: ["ref", "form"])
        if let ref = element.attribute("ref") {
            if let id = itextIDReference(ref) {
                if translations.text(id) == nil {
                    report.warn(
                        .missingText,
                        "The text '\(id)' that a <\(element.localName)> names is in no translation; it is left empty.",
                        line: element.line)
                }
                return XFormText(itext: id)
            }
            return XFormText(inline: [.output(expression(ref, in: element, attribute: "ref"))])
        }
        let inline = segments(of: element)
        return inline.isEmpty ? nil : XFormText(inline: inline)
    }

    /// An element's content as segments: text, and an output for each `<output value>` (other
    /// child elements give their text), with blank space trimmed at both ends.
    func segments(of element: XFormElement) -> [XFormSegment] {
        var segments: [XFormSegment] = []
        func appendText(_ text: String) {
            guard !text.isEmpty else { return }
            if case .text(let before)? = segments.last {
                segments[segments.count - 1] = .text(before + text)
            } else {
                segments.append(.text(text))
            }
        }
        func appendChild(_ child: XFormElement) {
            if child.isElement("output", in: XFormNamespace.xforms) {
                checkAttributes(child, known: ["value", "ref"])
                let attribute = child.attribute("value") != nil ? "value" : "ref"
                if let value = child.attribute(attribute) {
                    segments.append(.output(expression(value, in: child, attribute: attribute)))
                }
            } else {
                for segment in self.segments(of: child) {
                    switch segment {
                    case .text(let text): appendText(text)
                    case .output: segments.append(segment)
                    }
                }
            }
        }
        if element.children.isEmpty {
            appendText(element.text)
        } else if let pieces = document.source.content(of: element.ordinal) {
            for piece in pieces {
                switch piece {
                case .text(let text): appendText(text)
                case .child(let n) where n < element.children.count: appendChild(element.children[n])
                case .child: break
                }
            }
        } else {
            // The text could not be read again: the own text first, then the children.
            appendText(element.text)
            element.children.forEach(appendChild)
        }
        if case .text(let first)? = segments.first {
            let trimmed = String(first.drop { $0.isWhitespace })
            if trimmed.isEmpty { segments.removeFirst() } else { segments[0] = .text(trimmed) }
        }
        if case .text(let last)? = segments.last {
            let trimmed = String(last.reversed().drop { $0.isWhitespace }.reversed())
            if trimmed.isEmpty { segments.removeLast() } else { segments[segments.count - 1] = .text(trimmed) }
        }
        return segments
    }

    /// A text as the form's pages show it before evaluation (``XFormTextReader/display(_:)``),
    /// in the default language.
    func display(_ text: XFormText?) -> String? { reader.display(text) }

    /// ``XFormTextReader/formatted(_:guidance:)`` in the default language.
    func formatted(_ text: XFormText?, guidance: Bool = false) -> (plain: String?, format: RichText?) {
        reader.formatted(text, guidance: guidance)
    }

    /// ``XFormTextReader/plain(_:)`` in the default language.
    func plain(_ text: XFormText?) -> String? { reader.plain(text) }

    private var reader: XFormTextReader { XFormTextReader(translations: translations) }
}

/// An XForm's texts as its pages show them before evaluation, in one of its languages (the
/// default one when `language` is nil; a text a language lacks in the default one).
struct XFormTextReader {
    let translations: XFormTranslations
    var language: String? = nil

    /// The text, outputs as `XFormImporter.outputPlaceholder`; nil when empty.
    func display(_ text: XFormText?) -> String? {
        guard let segments = text?.segments(in: translations, language: language) else { return nil }
        return Self.shown(segments)
    }

    /// A text as ``display(_:)`` gives it, with ODK's formatting read (``ODKMarkdown``): its
    /// words without the marks, and the format when it has one. A text with outputs keeps its
    /// marks as written: its words are made for each answer. With `guidance`, a hint with no
    /// text of its own is its itext's guidance.
    func formatted(_ text: XFormText?, guidance: Bool = false) -> (plain: String?, format: RichText?) {
        let given = display(text)
        guard let shown = given ?? (guidance ? self.guidance(text) : nil) else { return (nil, nil) }
        if given != nil, let segments = text?.segments(in: translations, language: language),
            segments.contains(where: { if case .output = $0 { true } else { false } })
        {
            return (shown, nil)
        }
        guard let rich = ODKMarkdown.read(shown) else { return (shown, nil) }
        return (rich.plainText, rich.isFormatted ? rich : nil)
    }

    /// The words of a text without ODK's marks, for where no format is shown (an option, a
    /// group's heading, a list's label).
    func plain(_ text: XFormText?) -> String? {
        guard let shown = display(text) else { return nil }
        return ODKMarkdown.read(shown)?.plainText ?? shown
    }

    /// The guidance of a hint given through itext.
    func guidance(_ text: XFormText?) -> String? {
        guard let id = text?.itext, let segments = translations.text(id, language: language)?.guidance else {
            return nil
        }
        return Self.shown(segments)
    }

    private static func shown(_ segments: [XFormSegment]) -> String? {
        let shown = XFormMapper.trimmed(XFormSegment.joined(segments, placeholder: XFormImporter.outputPlaceholder))
        return shown.isEmpty ? nil : shown
    }
}
