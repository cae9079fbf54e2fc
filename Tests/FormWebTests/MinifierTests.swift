import Foundation
import Testing

@testable import FormPages
@testable import FormStore
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
    @Test("comments and the whitespace no token needs go; strings and regular expressions stay byte for byte")
    func basics() {
        let js = """
            /// Says hello.
            export function hello(root) {
              // Only once.

              const url = "http://example.com/a  b";  // keep this
              const re = /\\/\\/  +[/ ]/g;
                  return url.replace(re, "//") /* done */ ;
            }

            """
        #expect(
            JSMinifier.minify(js) == """
                export function hello(root){const url="http://example.com/a  b";const re=/\\/\\/  +[/ ]/g;return url.replace(re,"//");}

                """)
    }

    @Test("a line break stays where a statement may end there; after a punctuator that continues it, it goes")
    func lineBreaks() {
        #expect(JSMinifier.minify("  f(a,\n    b);\n  g();\n  if (x) {\n    y()\n  }\n") == "f(a,b);g();if(x){y()\n}\n")
        #expect(JSMinifier.minify("return\n  x;\n") == "return\nx;\n")
        #expect(JSMinifier.minify("a++\nb\n") == "a++\nb\n")
        #expect(JSMinifier.minify("a +\n b\n") == "a+b\n")
        #expect(JSMinifier.minify("x = y\n(z)\n") == "x=y\n(z)\n")
    }

    @Test("spaces stay between words, two plus or minus signs, and a slash before a slash or star")
    func spaces() {
        #expect(JSMinifier.minify("const a = b + +c - -d;") == "const a=b+ +c- -d;")
        #expect(JSMinifier.minify("typeof x === 'y' && a instanceof B") == "typeof x==='y'&&a instanceof B")
        #expect(JSMinifier.minify("a = b / c / d;") == "a=b/c/d;")
        #expect(JSMinifier.minify("x = a ? /re/.test(b) : c / 2;") == "x=a?/re/.test(b):c/2;")
        #expect(JSMinifier.minify("return /a b/i.test(s)") == "return/a b/i.test(s)")
    }

    @Test("edge cases that change meaning when joined: a number's dot, a division after ++, a CRLF continuation")
    func edgeCases() {
        #expect(JSMinifier.minify("r = 1 .toString();") == "r=1 .toString();")
        #expect(JSMinifier.minify("x = i++ / 2 + `a  b`;") == "x=i++/2+`a  b`;")
        #expect(JSMinifier.minify("s = \"a\\\r\nb  ,  c\";") == "s=\"a\\\r\nb  ,  c\";")
    }

    @Test("a template literal's text is copied as it is, its ${…} minified as code")
    func templateLiterals() {
        let js = "const t = `a  ${ x + { k: 1 }.k }  // b\n  c`;\n  go( t );\n"
        #expect(JSMinifier.minify(js) == "const t=`a  ${x+{k:1}.k}  // b\n  c`;go(t);\n")
    }

    @Test("escaped quotes stay inside their strings")
    func escapes() {
        #expect(
            JSMinifier.minify(#"s = 'it\'s  // not a comment';  t = "a\"  b";"#)
                == #"s='it\'s  // not a comment';t="a\"  b";"#)
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

    @Test("every script gets smaller and keeps every character of its code, comments aside")
    func scripts() throws {
        let folder = Self.publicFolder.appendingPathComponent("js")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".js") }
            .sorted()
        #expect(names.contains("fieldwork.js") && names.contains("drill-down.js"))
        var literals = 0
        for name in names {
            let source = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            let minified = JSMinifier.minify(source)
            #expect(minified.utf8.count < source.utf8.count, "\(name)")
            // The sources put `//` and `/*` in no string or regular expression, so the comments
            // are the text after them; everything else stays, whitespace aside.
            let code = source.replacing(/\/\*[\s\S]*?\*\//, with: "").split(separator: "\n").map {
                $0.replacing(/\/\/.*$/, with: "")
            }
            #expect(minified.replacing(/\s/, with: "") == code.joined().replacing(/\s/, with: ""), "\(name)")
            // Whitespace inside strings and regular expressions counts: each is kept whole.
            for literal in code.joined(separator: "\n").matches(
                of: /"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|[=(,:?!&|]\s*\/(?:[^\/\\\n\[]|\\.|\[[^\]\n]*\])+\/[a-z]*/)
            {
                var token = Substring(literal.output)
                if let first = token.first, "=(,:?!&|".contains(first) {
                    token = token.dropFirst().drop(while: \.isWhitespace)
                }
                #expect(minified.contains(token), "\(name): \(token)")
                literals += 1
            }
        }
        #expect(literals > 200, "strings and regular expressions checked: \(literals)")
    }
}
