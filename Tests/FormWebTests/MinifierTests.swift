import Foundation
import Testing

@testable import FormWeb

@Suite("CSS minifier")
struct CSSMinifierTests {
    @Test("comments go, whitespace runs shrink, and no space is left next to braces, semicolons and commas")
    func basics() {
        let css = """
            /* Header */
            .a ,
            .b   {
              color:  red;
              margin:0 auto ;
            }

            .c{ padding: 0 }
            """
        #expect(CSSMinifier.minify(css) == ".a,.b{color:red;margin:0 auto}.c{padding:0}")
    }

    @Test("a space before a colon stays: it is a descendant combinator in `.a :is(b)`")
    func spaceBeforeColon() {
        #expect(CSSMinifier.minify(".a :is(.b, .c) { color: red; }") == ".a :is(.b,.c){color:red}")
        #expect(CSSMinifier.minify(".a :hover{}") == ".a :hover{}")
        // Inside a block too (a rule in @media), where declarations live.
        #expect(
            CSSMinifier.minify("@media (min-width: 600px) {\n  .a :focus-visible { outline: 0 }\n}")
                == "@media (min-width: 600px){.a :focus-visible{outline:0}}")
    }

    @Test("descendant, child and sibling combinators keep their spaces")
    func combinators() {
        #expect(CSSMinifier.minify(".a  .b >  .c + .d ~ .e { x: y }") == ".a .b > .c + .d ~ .e{x:y}")
        #expect(CSSMinifier.minify(".a\n  .b { x: y }") == ".a .b{x:y}")
    }

    @Test("strings are copied byte for byte")
    func strings() {
        #expect(CSSMinifier.minify(#".a::before { content: "✓"; }"#) == #".a::before{content:"✓"}"#)
        #expect(CSSMinifier.minify(#".a::before { content: "\2713"; }"#) == #".a::before{content:"\2713"}"#)
        #expect(CSSMinifier.minify(#".a::before { content: "‹ "; }"#) == #".a::before{content:"‹ "}"#)
        #expect(
            CSSMinifier.minify(#".a::before { content: "x  ,  { } ; /* no */ \"  :  "; }"#)
                == #".a::before{content:"x  ,  { } ; /* no */ \"  :  "}"#)
        #expect(
            CSSMinifier.minify(#"[data-x='a  b'] .c { font-family: "Segoe UI", Roboto; }"#)
                == #"[data-x='a  b'] .c{font-family:"Segoe UI",Roboto}"#)
    }

    @Test("url(…) is copied byte for byte, quoted or not")
    func urls() {
        #expect(
            CSSMinifier.minify(".a { background: url(  /img/a.png  ) no-repeat; }")
                == ".a{background:url(  /img/a.png  ) no-repeat}")
        #expect(CSSMinifier.minify(#".a { background: URL("a ; b ).png") }"#) == #".a{background:URL("a ; b ).png")}"#)
        #expect(
            CSSMinifier.minify(".a { mask: url(data:image/svg+xml;x,/*y*/) }")
                == ".a{mask:url(data:image/svg+xml;x,/*y*/)}")
    }

    @Test("media queries keep `and (` and the space after their colons")
    func mediaQueries() {
        #expect(
            CSSMinifier.minify("@media screen and (max-width: 599.98px) {\n  .a { b: c; }\n}\n")
                == "@media screen and (max-width: 599.98px){.a{b:c}}")
    }

    @Test("values keep the spaces that separate their parts, calc() included")
    func values() {
        #expect(
            CSSMinifier.minify(".a { width: calc(100% - 2 * 8px); margin: 0  auto !important; }")
                == ".a{width:calc(100% - 2 * 8px);margin:0 auto !important}")
        #expect(
            CSSMinifier.minify(":root {\n  --fw-gap:   8px;\n  --fw-font: -apple-system, \"Segoe UI\";\n}")
                == ":root{--fw-gap:8px;--fw-font:-apple-system,\"Segoe UI\"}")
    }

    @Test("a block's last semicolon goes, but not an escaped one or one in a string")
    func lastSemicolon() {
        #expect(CSSMinifier.minify(".a { b: c; d: e; }\n.f{g:h;;}") == ".a{b:c;d:e}.f{g:h;}")
        #expect(CSSMinifier.minify(".a { b: c\\; }") == ".a{b:c\\;}")
        #expect(CSSMinifier.minify(#".a { content: ";" }"#) == #".a{content:";"}"#)
    }

    @Test("escapes are copied, with the one space that may end a hex escape")
    func escapes() {
        // `\31 ` is the escape; the next space is a descendant combinator.
        #expect(CSSMinifier.minify(".a\\31  .b { x: y }") == ".a\\31  .b{x:y}")
        #expect(CSSMinifier.minify(".a\\;  .b { x: y }") == ".a\\; .b{x:y}")
    }

    @Test("a comment between two tokens that would join is kept as /**/")
    func commentsBetweenTokens() {
        #expect(CSSMinifier.minify(".a/* x */.b{}") == ".a/**/.b{}")
        #expect(CSSMinifier.minify(".a /* x */ .b{}") == ".a .b{}")
        #expect(CSSMinifier.minify(".a{/* x */color:/* y */red}") == ".a{color:red}")
    }
}

@Suite("JS minifier")
struct JSMinifierTests {
    @Test("`//` lines, blank lines and indentation go; everything inside a line stays")
    func basics() {
        let js = """
            /// Says hello.
            export function hello(root) {
              // Only once.

              const url = "http://example.com/a  b";  // keep this
              const re = /\\/\\/  +/g;
                  return url.replace(re, "//");
            }

            """
        #expect(
            JSMinifier.minify(js) == """
                export function hello(root) {const url = "http://example.com/a  b";  // keep this
                const re = /\\/\\/  +/g;return url.replace(re, "//");
                }

                """)
    }

    @Test("a line ending in {, ; or , is joined to the next, unless its end may be a comment's or a string's")
    func joinedLines() {
        // No semicolon could be inserted at those ends; after `y()` one may be, so that break stays.
        #expect(
            JSMinifier.minify("  f(a,\n    b);\n  g();\n  if (x) {\n    y()\n  }\n") == "f(a,b);g();if (x) {y()\n}\n")
        #expect(JSMinifier.minify("  a(); // and,\n  b();\n") == "a(); // and,\nb();\n")
        #expect(JSMinifier.minify("  s = 'http://x';\n  b();\n") == "s = 'http://x';\nb();\n")
        #expect(JSMinifier.minify("  t = `a,\n  b`;\n") == "t = `a,\n  b`;\n")
    }

    @Test("from a line with a backtick on, the rest is copied as is, since a template literal may span lines")
    func templateLiterals() {
        let js = "a();\n  const t = `x\n    // inside\n\n  y`;\n  b();\n"
        #expect(JSMinifier.minify(js) == "a();const t = `x\n    // inside\n\n  y`;\n  b();\n")
        // A backtick in a `//` line is only a comment.
        #expect(JSMinifier.minify("/// Fits `span`.\n  a();\n") == "a();\n")
    }

    @Test("the line after one ending in a backslash continues a string and is copied as is")
    func continuedStrings() {
        #expect(JSMinifier.minify("  s = 'a\\\n    // b';\n  c();\n") == "s = 'a\\\n    // b';\nc();\n")
        #expect(JSMinifier.minify("  s = 'a\\\\';\n    c();\n") == "s = 'a\\\\';c();\n")
    }

    @Test("a file without a final newline gets none")
    func finalNewline() {
        #expect(JSMinifier.minify("  a();\n  b();") == "a();b();")
        #expect(JSMinifier.minify("") == "")
    }
}

@Suite("Minified public assets")
struct PublicAssetsTests {
    static let publicFolder = ResourceRoot.resolve().publicFolder

    /// Each rule's prelude (the text before a `{`), comments removed, whitespace runs as one space
    /// and none around commas.
    static func selectors(_ css: String) -> [String] {
        let text = css.replacing(/\/\*[\s\S]*?\*\//, with: "")
        return text.components(separatedBy: "{").dropLast().map { chunk in
            let prelude = chunk.split(separator: /[};]/, omittingEmptySubsequences: false).last ?? ""
            return prelude.replacing(/\s+/, with: " ").trimmingCharacters(in: .whitespaces)
                .replacing(/\s?,\s?/, with: ",")
        }
    }

    @Test("fieldwork.css gets smaller and keeps every selector of the original")
    func stylesheet() throws {
        let source = try String(
            contentsOf: Self.publicFolder.appendingPathComponent("css/fieldwork.css"), encoding: .utf8)
        let minified = CSSMinifier.minify(source)
        #expect(minified.utf8.count < source.utf8.count * 9 / 10)
        let before = Self.selectors(source)
        #expect(before.count > 100)
        #expect(Set(Self.selectors(minified)) == Set(before))
        #expect(Self.selectors(minified).count == before.count)
        #expect(minified.contains("--fw-color-brand:#0070F2;"))
        #expect(minified.contains(#"content:"\2713";"#))
    }

    @Test("every script gets smaller and keeps every character of its code lines")
    func scripts() throws {
        let folder = Self.publicFolder.appendingPathComponent("js")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".js") }
            .sorted()
        #expect(names.contains("fieldwork.js") && names.contains("drill-down.js"))
        for name in names {
            let source = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            let minified = JSMinifier.minify(source)
            #expect(minified.utf8.count < source.utf8.count, "\(name)")
            // The sources use no template literals, so no line is copied as is.
            #expect(!minified.contains("`"), "\(name)")
            let code = source.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
            #expect(minified.replacing(/\s/, with: "") == code.joined().replacing(/\s/, with: ""), "\(name)")
        }
    }
}
