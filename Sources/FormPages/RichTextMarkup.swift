import FormModel

/// A label's or hint's ``RichText`` as the HTML of a cell: every run's text escaped (and cleaned
/// of what a page must not carry), inside the few elements the structure names, phrasing content
/// only, as a `<label>`, a `<legend>` and a hint's `<p>` take: a heading is a `span` that looks like
/// one, a paragraph ends in a break. Colours and fonts are classes of `rich.css` (the page's
/// Content-Security-Policy allows no inline style); a link opens in a new tab, as ODK's do, and
/// says so to screen readers. Made once per plan, never per request.
enum RichTextMarkup {
    static func html(_ rich: RichText) -> String {
        var out = ""
        for (index, block) in rich.blocks.enumerated() {
            if index > 0 { out += "<br>" }
            if let level = block.level { out += "<span class=\"fw-rich-h\(level)\">" }
            for run in block.runs { out += html(run) }
            if block.level != nil { out += "</span>" }
        }
        return out
    }

    private static func html(_ run: RichText.Run) -> String {
        var text = HTML.escape(HTML.clean(run.text)).replacingOccurrences(of: "\n", with: "<br>")
        var classes: [String] = []
        if let color = run.color, RichText.colors.contains(color) { classes.append("fw-rich--\(color)") }
        if let font = run.font, RichText.fonts.contains(font) { classes.append("fw-rich--\(font)") }
        if !classes.isEmpty { text = "<span class=\"\(classes.joined(separator: " "))\">\(text)</span>" }
        if run.emphasis { text = "<em>\(text)</em>" }
        if run.strong { text = "<strong>\(text)</strong>" }
        if let link = run.link, RichText.isAllowedLink(link) {
            text =
                "<a href=\"\(HTML.escape(HTML.clean(link)))\" target=\"_blank\" rel=\"noopener noreferrer\">\(text)<span class=\"fw-visually-hidden\"> (opens in a new tab)</span></a>"
        }
        return text
    }
}

extension FormSchema {
    /// Whether a label or hint of the form, its items' included, carries a format
    /// (``RichText``): its pages then link `rich.css`.
    var hasFormattedText: Bool {
        func formatted(_ groups: [FieldGroup]) -> Bool {
            groups.contains { group in
                group.fields.contains { field in
                    field.presentation.labelFormat != nil || field.presentation.hintFormat != nil
                        || (field.children ?? []).contains {
                            $0.presentation.labelFormat != nil || $0.presentation.hintFormat != nil
                        }
                } || (group.items.map { formatted($0.groups) } ?? false)
            }
        }
        return sections.contains { formatted($0.groups) }
    }
}
