import Foundation
import Testing

@testable import FormImport
@testable import FormModel

/// The expression layer of the XForms importer: each bind, itemset and `setvalue` expression is
/// parsed, checked, resolved and rewritten at import, and refused as the mapping says.
@Suite("XForm expressions at import")
struct XFormExpressionTests {
    /// A small XForm with the given instance children, binds and body (by default, an input for
    /// the first child).
    static func form(_ instance: String, binds: String, body: String? = nil) -> ImportDocument {
        let first = instance.firstMatch(of: /<([A-Za-z_][A-Za-z0-9_]*)/).map { String($0.1) } ?? "a"
        let body = body ?? #"<input ref="/data/\#(first)"><label>\#(first)</label></input>"#
        return ImportDocument(
            name: "rules.xml",
            data: Array(
                """
                <h:html xmlns="http://www.w3.org/2002/xforms" xmlns:h="http://www.w3.org/1999/xhtml"
                        xmlns:jr="http://openrosa.org/javarosa">
                  <h:head><h:title>Rules</h:title>
                    <model>
                      <instance><data id="rules">\(instance)</data></instance>
                \(binds)
                    </model>
                  </h:head>
                  <h:body>\(body)</h:body>
                </h:html>
                """.utf8))
    }

    static func rules(_ document: ImportDocument) throws -> (XFormRules, [ImportWarning]) {
        let result = try FormImporter.importDocuments([document])
        return (try #require(result.rules["rules"]), result.warnings)
    }

    static func errors(_ document: ImportDocument) -> [ImportError] {
        do {
            _ = try FormImporter.importDocuments([document])
            return []
        } catch {
            return error.errors
        }
    }

    @Test("date operands are rewritten to compare and subtract as days; = stays a string comparison")
    func datesRewritten() throws {
        let (rules, warnings) = try Self.rules(
            Self.form(
                "<dob/><start/><end/><days/><same/>",
                binds: """
                      <bind nodeset="/data/dob" type="date" constraint=". &lt;= today()"/>
                      <bind nodeset="/data/start" type="date"/>
                      <bind nodeset="/data/end" type="date" constraint=". = /data/start or . &gt; /data/start"/>
                      <bind nodeset="/data/days" type="int" calculate="/data/end - /data/start"/>
                    """,
                body: #"<input ref="/data/dob"><label>Born</label></input>"#))
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(
            rules.node(at: "/data/dob")?.bind?.constraint?.compiled
                == "decimal-date-time(.) <= decimal-date-time(today())")
        #expect(
            rules.node(at: "/data/end")?.bind?.constraint?.compiled
                == ". = /data/start or decimal-date-time(.) > decimal-date-time(/data/start)")
        #expect(
            rules.node(at: "/data/days")?.bind?.calculate?.compiled
                == "decimal-date-time(/data/end) - decimal-date-time(/data/start)")
        // What it reads is kept, resolved, for the order of a submission's evaluation.
        #expect(rules.node(at: "/data/days")?.bind?.calculate?.reads == ["/data/end", "/data/start"])
    }

    @Test("an expression that does not parse is refused with its bind, attribute and column")
    func syntaxRefused() {
        let errors = Self.errors(
            Self.form("<age/>", binds: #"      <bind nodeset="/data/age" type="int" constraint=". &gt; 17 and"/>"#))
        #expect(errors.map(\.code) == [.badExpression])
        let message = errors.first?.message ?? ""
        #expect(
            message.hasPrefix(#"The constraint of /data/age (". > 17 and" on <bind>, line 6) does not parse at column"#)
        )
        #expect(errors.first?.line == 6 && (errors.first?.column ?? 0) > 0)
    }

    @Test("a function with the wrong arguments or an undeclared prefix is refused; one not evaluated is a warning")
    func functions() throws {
        let wrong = Self.errors(
            Self.form("<a/>", binds: #"      <bind nodeset="/data/a" calculate="selected(/data/a)"/>"#))
        #expect(wrong.map(\.code) == [.badExpression])
        #expect(wrong.first?.message.contains("selected") == true)
        let prefix = Self.errors(
            Self.form("<a/>", binds: #"      <bind nodeset="/data/a" calculate="cht:add-date(/data/a, 1)"/>"#))
        #expect(prefix.map(\.code) == [.badExpression])
        let (rules, warnings) = try Self.rules(
            Self.form(
                "<a/><b/>",
                binds: """
                      <bind nodeset="/data/a" calculate="pulldata('prices', 'price', 'code', /data/b)"/>
                      <bind nodeset="/data/b" constraint="string-length(.) &gt; 1"/>
                    """))
        #expect(warnings.map(\.code) == [.functionUnsupported])
        #expect(warnings.first?.message.contains("pulldata") == true)
        #expect(warnings.first?.message.hasSuffix("The server does not enforce this rule.") == true)
        let calculate = try #require(rules.node(at: "/data/a")?.bind?.calculate)
        #expect(calculate.compiled == nil && calculate.notEnforced?.contains("pulldata") == true)
        #expect(rules.node(at: "/data/b")?.bind?.constraint?.compiled == "string-length(.) > 1")
    }

    @Test("an absolute path to no node is refused; a relative one reads as empty, with a warning")
    func references() throws {
        let errors = Self.errors(
            Self.form("<a/>", binds: #"      <bind nodeset="/data/a" relevant="/data/missing = 'yes'"/>"#))
        #expect(errors.map(\.code) == [.badExpression])
        #expect(errors.first?.message.contains("reads /data/missing, which is no node") == true)
        let (_, warnings) = try Self.rules(
            Self.form("<a/>", binds: #"      <bind nodeset="/data/a" calculate="if(true(), 1, null)"/>"#))
        #expect(warnings.map(\.code) == [.unknownReference])
        #expect(warnings.first?.message.contains("/data/a/null") == true)
    }

    @Test(
        "calculates that read each other in a cycle are refused, the nodes named; a node reading itself is not a cycle")
    func cycles() throws {
        let errors = Self.errors(
            Self.form(
                "<a/><b/><c/>",
                binds: """
                      <bind nodeset="/data/a" calculate="/data/b + 1"/>
                      <bind nodeset="/data/b" calculate="/data/c + 1"/>
                      <bind nodeset="/data/c" calculate="/data/a + 1"/>
                    """))
        #expect(errors.map(\.code) == [.calculateCycle])
        #expect(errors.first?.message.contains("/data/a → /data/b → /data/c → /data/a") == true)
        _ = try Self.rules(Self.form("<n/>", binds: #"      <bind nodeset="/data/n" calculate="once(. + 1)"/>"#))
    }

    @Test("an XForm with no question left to show is refused")
    func noQuestions() {
        let errors = Self.errors(
            Self.form("<a/>", binds: "", body: #"<textarea ref="/data/a"><label>A</label></textarea>"#))
        #expect(errors.map(\.code) == [.noQuestions])
    }

    @Test("itemset filters and first-load values are checked and kept compiled")
    func itemsetsAndSetValues() throws {
        let document = ImportDocument(
            name: "rules.xml",
            data: Array(
                """
                <h:html xmlns="http://www.w3.org/2002/xforms" xmlns:h="http://www.w3.org/1999/xhtml"
                        xmlns:odk="http://www.opendatakit.org/xforms">
                  <h:head><h:title>Rules</h:title>
                    <model>
                      <instance><data id="rules"><country/><city/><seen/></data></instance>
                      <instance id="cities"><root><item><name>nbo</name><country>ke</country></item></root></instance>
                      <bind nodeset="/data/seen" type="date"/>
                      <setvalue event="odk-instance-first-load" ref="/data/seen" value="today()"/>
                    </model>
                  </h:head>
                  <h:body>
                    <input ref="/data/country"><label>Country</label></input>
                    <select1 ref="/data/city"><label>City</label>
                      <itemset nodeset="instance('cities')/root/item[country = current()/../country]">
                        <value ref="name"/><label ref="name"/></itemset></select1>
                  </h:body>
                </h:html>
                """.utf8))
        let (rules, _) = try Self.rules(document)
        #expect(
            rules.node(at: "/data/city")?.itemset?.nodeset.compiled
                == "instance('cities')/root/item[country = current()/../country]")
        #expect(rules.firstLoad.first?.value?.compiled == "today()")
    }
}
