import FormModel
import Testing

@testable import FormImport

/// ODK's formatting of labels and hints read as Collect and Enketo read it
/// (`docs/odk-markdown.md`), every HTML tag but its few left as text.
private func runs(_ text: String) -> [[RichText.Run]] {
    (ODKMarkdown.read(text)?.blocks ?? []).map(\.runs)
}

/// The text read when it has a format; nil when it has none (its words are then its own).
private func read(_ text: String) -> RichText? { ODKMarkdown.read(text).flatMap { $0.isFormatted ? $0 : nil } }

/// The words a text shows.
private func words(_ text: String) -> String { ODKMarkdown.read(text)?.plainText ?? text }

@Test("plain text has no format, and its words stay as they are")
func plainText() {
    #expect(read("What is your name?") == nil)
    #expect(read("Age in years (0-120)") == nil)
    #expect(read("A_B_C snake_case_name") == nil)
    #expect(read("2 * 3 * 4") == nil)
    #expect(read("5 < 6 and 7 > 3 & so on") == nil)
}

@Test("strong and emphasis as ODK writes them, not inside words")
func emphasis() {
    #expect(
        runs("This label has **bold** and *italic* text.") == [
            [
                .init("This label has "), .init("bold", strong: true), .init(" and "),
                .init("italic", emphasis: true), .init(" text."),
            ]
        ])
    #expect(
        runs("__bold__ _italic_ A_B_C A _B_ C _A_5 (_A_)") == [
            [
                .init("bold", strong: true), .init(" "), .init("italic", emphasis: true), .init(" A_B_C A "),
                .init("B", emphasis: true), .init(" C _A_5 ("), .init("A", emphasis: true), .init(")"),
            ]
        ])
    #expect(
        runs("Note widget. In notes you can emphasize _words_ or __strongly emphasize something__.") == [
            [
                .init("Note widget. In notes you can emphasize "), .init("words", emphasis: true), .init(" or "),
                .init("strongly emphasize something", strong: true), .init("."),
            ]
        ])
}

@Test("a heading, a line break and a paragraph; escapes make marks text")
func blocks() {
    let heading = read("## Household\nWho lives here?")
    #expect(heading?.blocks.map(\.level) == [2, nil])
    #expect(heading?.plainText == "Household\nWho lives here?")
    #expect(read("#1 priority")?.blocks.first?.level == 1)
    #expect(read("####### seven") == nil)
    #expect(read("first line\nsecond line") == nil)
    #expect(
        runs("first *line*\nsecond line") == [[.init("first "), .init("line", emphasis: true), .init("\nsecond line")]])
    #expect(read("*one*\n\ntwo")?.blocks.count == 2)
    #expect(read(##"An asterisk: \* underscore: \_ slash: \\ hash: \# x"##) == nil)
    #expect(
        words(##"An asterisk: \* underscore: \_ slash: \\ hash: \# x \a"##)
            == #"An asterisk: * underscore: _ slash: \ hash: # x \a"#)
    #expect(read(##"\# This headline is normal sized"##) == nil)
    #expect(words(##"\# This headline is normal sized"##) == "# This headline is normal sized")
}

@Test("a span's colour and font are taken to the palette; other styles and attributes are dropped")
func spans() {
    #expect(
        runs(#"<span style="color:red">Should be completed by the central office.</span>"#) == [
            [.init("Should be completed by the central office.", color: "red")]
        ])
    #expect(
        runs(#"# <span style="font-family:cursive;color:purple">Combined</span>"#) == [
            [.init("Combined", color: "purple", font: "cursive")]
        ])
    #expect(
        runs(#"<span style="color:#008000">green</span> after"#) == [[.init("green", color: "green"), .init(" after")]])
    #expect(
        runs(#"<span style="color:red;background:url(x)" onclick="x()">red</span>"#) == [[.init("red", color: "red")]])
    #expect(runs(#"<span style="color:yellow">sun</span>"#) == [[.init("sun", color: "orange")]])
    #expect(read(#"<span style="color:black">black</span>"#) == nil)
    #expect(
        runs("<b>bold</b> and <i>it</i><br>next") == [
            [.init("bold", strong: true), .init(" and "), .init("it", emphasis: true), .init("\nnext")]
        ])
}

@Test("HTML other than ODK's shows as written, never as markup")
func otherHTML() {
    let script = read("<script>alert(1)</script> **b**")
    #expect(script?.plainText == "<script>alert(1)</script> b")
    #expect(read(#"<img src=x onerror="alert(1)"> *x*"#)?.plainText == #"<img src=x onerror="alert(1)"> x"#)
    #expect(read("a &<img/src=x/onerror=alert(1)>; *c*")?.plainText == "a &<img/src=x/onerror=alert(1)>; c")
}

@Test("links: http, https, mailto and tel kept; any other address is text only")
func links() {
    #expect(
        runs("Learn more [in the ODK docs](https://docs.getodk.org/form-question-types/) today.") == [
            [
                .init("Learn more "), .init("in the ODK docs", link: "https://docs.getodk.org/form-question-types/"),
                .init(" today."),
            ]
        ])
    #expect(runs("[x](javascript:alert(1)) *y*") == [[.init("x "), .init("y", emphasis: true)]])
    #expect(read("In [years](javascript:alert(1))") == nil)
    #expect(words("In [years](javascript:alert(1))") == "In years")
    #expect(runs(#"[x](" onmouseover="a) *y*"#).first?.contains { $0.link != nil } == false)
    #expect(
        runs("[_it_](http://example.org/a_b_/c)") == [
            [.init("it", emphasis: true, link: "http://example.org/a_b_/c")]
        ])
}

@Test("Markdown ODK does not have stays text: lists, code, quotes, rules, images, tables")
func notODK() {
    #expect(read("1. What is your name? *x*")?.plainText == "1. What is your name? x")
    #expect(read("- item *x*")?.plainText == "- item x")
    #expect(read("`code` ~~s~~ *x*")?.plainText == "`code` ~~s~~ x")
    #expect(read("> quote *x*")?.plainText == "> quote x")
    // An image is no image: its text a link, as Collect shows it.
    #expect(
        runs("![alt](http://x/y.png) *x*") == [
            [.init("!"), .init("alt", link: "http://x/y.png"), .init(" "), .init("x", emphasis: true)]
        ])
    #expect(read("a | b *x*")?.plainText == "a | b x")
}

@Test("any text of marks is read without a crash or a hang, its links only to the addresses allowed")
func anyText() {
    // Ink is known to crash or loop on some text (an unclosed `<p`, a `---` before blank lines,
    // a list item with trailing spaces); the prepared text holds none of it. A fixed sequence of
    // texts made of the marks, so that every run tries the same ones.
    let alphabet = Array("*_#[]()<>\\&-+=`~|!:;/ \n\n  abc1.\"'spanstyle=color:red;</>hp")
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    for _ in 0..<2_000 {
        var text = ""
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let length = Int(state >> 58) + 1
        for _ in 0..<length * 3 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            text.append(alphabet[Int(state >> 33) % alphabet.count])
        }
        let known = ["<p\n\nx", "---\n\n\n", "- a\n  ", "<span style=\"color:red\">", "[x](", "**a", "\\"]
        text += known[Int(state >> 40) % known.count]
        let read = ODKMarkdown.read(text)
        for run in read?.blocks.flatMap(\.runs) ?? [] {
            if let link = run.link { #expect(RichText.isAllowedLink(link), "\(text.debugDescription)") }
        }
    }
}
