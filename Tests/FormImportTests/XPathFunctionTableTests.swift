import Testing

@testable import FormImport

/// `XPathFunctionTable.check`: the functions the server evaluates, their arities, prefixes
/// resolved through the form's namespaces.
@Suite("XForms expressions: the function table")
struct XPathFunctionTableTests {
    static let namespaces = ["jr": XPathFunctionTable.javaRosaNamespace, "odk": "http://www.opendatakit.org/xforms"]

    static func check(_ text: String, namespaces: [String: String] = namespaces) throws -> [XPathFunctionCheck] {
        try XPathParser.parse(text).functionCalls.map { XPathFunctionTable.check($0, namespaces: namespaces) }
    }

    @Test("the functions of real forms are all known, with their arities")
    func known() throws {
        let text = """
            if(selected(/data/a, 'x') and count-selected(.) <= 3 and not(false()) or true(), \
            jr:choice-name(/data/a, '/data/a'), concat('uuid:', uuid(), int(2.5), string-length(.), \
            round(2.567, 2), round(2), format-date(today(), '%Y'), substr('abc', 1), substr('abc', 0, 1), \
            max(1, 2, 3), min(/data/n), join(' ', /data/a), coalesce(/data/a, 'x'), position(..), position(), \
            weighted-checklist(-1, 2, /data/a, 1), checklist(1, 2, /data/a), count-non-empty(/data/a), \
            decimal-date-time(now()), date-time(1), jr:itext('x'), instance('c')/root, current(), \
            boolean-from-string('1'), regex(., '^a'), ends-with('ab', 'b'), selected-at('a b', 0), once(1), \
            pow(2, 3), atan2(1, 1), pi(), random(), sum(/data/n), translate('a', 'a', 'b'), normalize-space()))
            """
        let checks = try Self.check(text)
        #expect(checks.count == 44)
        #expect(checks.allSatisfy { $0 == .ok }, "\(checks.filter { $0 != .ok })")
    }

    @Test("pulldata and the other ODK functions the server lacks are named as not supported")
    func unsupported() throws {
        #expect(
            try Self.check("pulldata('fruits', 'name', 'key', .)")
                == [.unsupported("pulldata() is not supported on the server, so this rule is not enforced")])
        for name in ["digest", "randomize", "area", "distance", "version", "property"] {
            #expect(
                try Self.check("\(name)(.)") == [
                    .unsupported("\(name)() is not supported on the server, so this rule is not enforced")
                ])
        }
    }

    @Test("functions no one defines, and ODK functions without their namespace, are unknown")
    func unknown() throws {
        #expect(
            try Self.check("add-date(today(), 0, 1)")
                == [.unsupported("add-date() is not a function Fieldwork knows, so this rule is not enforced"), .ok])
        #expect(
            try Self.check("choice-name(., 'x')")
                == [.unsupported("choice-name() is not a function Fieldwork knows, so this rule is not enforced")])
        #expect(
            try Self.check("odk:selected(., 'x')")
                == [.unsupported("odk:selected() is not a function Fieldwork knows, so this rule is not enforced")])
    }

    @Test("a call with a wrong number of arguments says how many the function takes")
    func arity() throws {
        #expect(try Self.check("round(1, 2, 3)") == [.wrongArity("round() takes 1 or 2 arguments, not 3")])
        #expect(try Self.check("today(1)") == [.wrongArity("today() takes no arguments, not 1")])
        #expect(try Self.check("if(., today())") == [.wrongArity("if() takes 3 arguments, not 2"), .ok])
        #expect(try Self.check("string-length()") == [.wrongArity("string-length() takes 1 argument, not 0")])
        #expect(try Self.check("join()") == [.wrongArity("join() takes at least 1 argument, not 0")])
        #expect(try Self.check("concat()") == [.ok], "as JavaRosa and the evaluator take it")
        #expect(try Self.check("uuid(1, 2)") == [.wrongArity("uuid() takes 0 or 1 argument, not 2")])
        #expect(try Self.check("jr:choice-name(.)") == [.wrongArity("jr:choice-name() takes 2 arguments, not 1")])
        #expect(XPathFunctionTable.Arity(1...4).description == "1 to 4 arguments")
        #expect(XPathFunctionTable.Arity(2...Int.max).description == "at least 2 arguments")
    }

    @Test("prefixes resolve through the form's namespaces, not by their spelling")
    func prefixes() throws {
        #expect(
            try Self.check("jr:itext('a')", namespaces: [:])
                == [
                    .unknownPrefix(
                        "The prefix 'jr' of jr:itext() is not declared in the form: declare it with xmlns:jr")
                ])
        #expect(
            try Self.check("javarosa:itext('a')", namespaces: ["javarosa": XPathFunctionTable.javaRosaNamespace]) == [
                .ok
            ])
        #expect(
            try Self.check("jr:itext('a')", namespaces: ["jr": "http://example.com/other"])
                == [.unsupported("jr:itext() is not a function Fieldwork knows, so this rule is not enforced")])
        #expect(XPathFunctionCheck.ok.message == nil)
        #expect(XPathFunctionCheck.wrongArity("x").message == "x")
    }
}
