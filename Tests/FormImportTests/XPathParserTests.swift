import Foundation
import Testing

@testable import FormImport

/// `XPathParser`: the XPath 1.0 grammar and its lexical rules, printing back (`text`), and the
/// syntax errors a form author sees, with their columns.
@Suite("XForms expressions: parsing")
struct XPathParserTests {
    /// Expressions as real forms write them (most from binds, itemsets and outputs of the ODK
    /// and Enketo forms of the corpus), and the odd corners of the grammar.
    static let expressions: [String] = [
        "true()", "false()", "1 + 1", "1 + 1 = 2", ". < 10", ". = \"red\"", ". <= today()", ". >= today()",
        ".>0 and .<=11", ".>=18 and .<=90", "(.>=0 and .<=9999)", ". > 18 and . < 100", " ../healthVisit  = 1",
        "concat(\"A \", \"value\")", "count-selected(.)<=3", "string-length(.) > 2", "concat('uuid:', uuid())",
        "instance('a_b')/root/item", ". > 10.51 and . < 18.39", "(.>=18 and .<90) or .=99",
        "/root/select-relevance = 'yes'", " /data/dates/date_of_birth  != \"\"", "/nested_repeats/kids/has_kids='1'",
        "(.>=0 and .<=11) or .=99 or .=88", "'02190a2c50aa4477bed06b13f4fb8969'",
        "/data/dates/date_of_birth <= today()", "/data/group/read_only_int_value + 1.5",
        "not(selected(., 'c') and selected(., 'd'))", ". <= today() and .>= date(date('1915-01-01'))",
        "jr:itext('/data/citizen:jr:constraintMsg')", " instance('__last-saved')/data/Interviewer/Id10010 ",
        "instance('strings')/root/item[not(contains(value, ' '))]",
        "not((selected(., 'all_over')) and count-selected(.)>1)",
        "instance('district')/root/item[region= /data/headOfHousehold/region ]",
        " /data/consented/deceased_CRVS/info_on_deceased/ageInDays  mod 365.25",
        "int( /data/consented/deceased_CRVS/info_on_deceased/ageInDays  div 365.25)",
        "if( /data/consented/deceased_CRVS/info_on_deceased/ageInDays >=12*365.25, '1', '0')",
        "jr:itext(instance('seclass')/root/item[name =  /data/headOfHousehold/householdIncome ]/itextId)",
        "(.>=0 and .<= /data/consented/deceased_CRVS/info_on_deceased/ageInDaysNeonate ) or .=99 or .=88",
        "instance('neighborhoods')/root/item[country=/new_cascading_selections/group2/country2 and "
            + "city=/new_cascading_selections/group2/city2]",
        "if( /data/a/ageInDays  >27 and  /data/a/ageInDays  <12*365.25, '1', '0')",
        "if ( /data/a/ageInYears != 'NaN' and string-length( /data/a/ageInYears ) > 0, int( /data/a/ageInYears  * 12 "
            + "+  /data/a/ageInMonths ), if( /data/a/age_group  = 'adult', int( /data/a/age_adult  * 12),if ( "
            + "/data/a/age_child_unit  = 'months', /data/a/age_child_months , int( /data/a/age_child_years  * 12))))",
        "(((selected( /data/s/Id10114 , 'no') or  /data/s/Id10114  = 'NaN' or string-length( /data/s/Id10114 ) = 0) "
            + "and selected( /data/d/isNeonatal , '1')) or selected( /data/d/isChild , '1') ) and "
            + "not(selected( /data/i/Id10077_a , 'less'))",
        "instance('cities')/root/item[country = current()/../country]/name", "jr:choice-name(/data/a, '/data/a')",
        "/data/orx:meta/orx:instanceID", "format-date(today(), '%Y-%m-%d')", "decimal-date-time(.) - 1",
        "-1", "- -1", "-(1 + 2)", "1 - -1", "1 - 2 - 3", "1 - (2 - 3)", "2 * 3 div 4 mod 5", "a | b | c",
        "(a | b)[1]", "(/data/a)/b", "(/)", "/", "//item", ".//item", "a//b", "/data//x[@id = 1]", "@lang",
        "../@id", "child::a/parent::node()/ancestor-or-self::*", "self::node()[. > 1]", "following-sibling::x[1]",
        "/data/*", "* * *", "/data/div div /data/mod", "div", "and or or", "text()", "/data/x/text()",
        "comment()", "processing-instruction('x')", "processing-instruction()", "jr:*", "a:b",
        ".5 + 5. + 5.5", "\"it's\"", "'say \"hi\"'", "count-non-empty(/data/x)",
        "weighted-checklist(-1, 2, /data/a, 1, /data/b, 2)", "  1\t+\n2\r\n*\r3  ", "f(a)[1]/b", "'x'/y",
        "1 = 2 = 3", "1 < 2 < 3", "a!=b", "pi()", "id('x')/y", "a[1][2]", "a-b-c - d", "position(..) = 1",
    ]

    @Test("real and tricky expressions parse, and their printed text parses to the same tree")
    func roundTrip() throws {
        for text in Self.expressions {
            let tree = try XPathParser.parse(text)
            let printed = tree.text
            #expect(try XPathParser.parse(printed) == tree, "\(text) printed as \(printed)")
            #expect(try XPathParser.parse(printed).text == printed, "\(text)")
        }
    }

    static func path(_ names: String...) -> XPathExpression {
        .path(XPathPath(start: .context, steps: names.map { XPathStep.child($0) }))
    }

    static func absolute(_ names: String...) -> XPathExpression {
        .path(XPathPath(start: .root, steps: names.map { XPathStep.child($0) }))
    }

    @Test("'-' inside a name belongs to it; with a space before it, it subtracts")
    func minusAndNames() throws {
        #expect(try XPathParser.parse("a-b") == Self.path("a-b"))
        #expect(try XPathParser.parse("a - b") == .binary(.minus, Self.path("a"), Self.path("b")))
        #expect(try XPathParser.parse("a -b") == .binary(.minus, Self.path("a"), Self.path("b")))
        // As in XPath 1.0 and libxml2: `a-` is a name, so `b` follows a name with no operator.
        #expect(
            Self.error("a- b")
                == XPathSyntaxError(
                    message: "Unexpected 'b': expected an operator or the end of the expression", column: 4))
        #expect(try XPathParser.parse("3-2") == .binary(.minus, .number("3"), .number("2")))
        #expect(
            try XPathParser.parse("count-selected(.)")
                == .function(
                    XPathFunction(
                        name: "count-selected", arguments: [.path(XPathPath(start: .context, steps: [.current]))])))
        #expect(try XPathParser.parse("a - b").text == "a - b")
        #expect(try XPathParser.parse("a-b").text == "a-b")
    }

    @Test("and, or, div, mod are operators after an operand and names elsewhere")
    func operatorNames() throws {
        #expect(try XPathParser.parse("/data/div") == Self.absolute("data", "div"))
        #expect(try XPathParser.parse("div div div") == .binary(.div, Self.path("div"), Self.path("div")))
        #expect(try XPathParser.parse("and or or") == .binary(.or, Self.path("and"), Self.path("or")))
        #expect(try XPathParser.parse("mod") == Self.path("mod"))
        #expect(try XPathParser.parse("(1) mod 2") == .binary(.mod, .number("1"), .number("2")))
        #expect(
            try XPathParser.parse("a[1] and b")
                == .binary(
                    .and, .path(XPathPath(start: .context, steps: [.child("a", predicates: [.number("1")])])),
                    Self.path("b")))
    }

    @Test("'*' multiplies after an operand and is a wildcard elsewhere")
    func star() throws {
        let any = XPathExpression.path(
            XPathPath(start: .context, steps: [XPathStep(axis: .child, test: .anyName(prefix: nil))]))
        #expect(try XPathParser.parse("* * *") == .binary(.multiply, any, any))
        #expect(
            try XPathParser.parse("/data/*")
                == .path(
                    XPathPath(
                        start: .root, steps: [.child("data"), XPathStep(axis: .child, test: .anyName(prefix: nil))])))
        #expect(try XPathParser.parse("2*3") == .binary(.multiply, .number("2"), .number("3")))
        #expect(
            try XPathParser.parse("@*")
                == .path(XPathPath(start: .context, steps: [XPathStep(axis: .attribute, test: .anyName(prefix: nil))])))
        #expect(
            try XPathParser.parse("jr:*")
                == .path(XPathPath(start: .context, steps: [XPathStep(axis: .child, test: .anyName(prefix: "jr"))])))
        #expect(
            try XPathParser.parse(". * 2")
                == .binary(.multiply, .path(XPathPath(start: .context, steps: [.current])), .number("2")))
    }

    @Test("abbreviations expand to the steps they stand for")
    func abbreviations() throws {
        #expect(try XPathParser.parse("..") == .path(XPathPath(start: .context, steps: [.parent])))
        #expect(try XPathParser.parse("../x") == .path(XPathPath(start: .context, steps: [.parent, .child("x")])))
        #expect(try XPathParser.parse("parent::node()/child::x") == XPathParser.parse("../x"))
        #expect(try XPathParser.parse("self::node()") == XPathParser.parse("."))
        #expect(try XPathParser.parse("attribute::id") == XPathParser.parse("@id"))
        #expect(try XPathParser.parse("/descendant-or-self::node()/child::x") == XPathParser.parse("//x"))
        #expect(try XPathParser.parse("a/descendant-or-self::node()/b").text == "a//b")
        #expect(try XPathParser.parse("descendant-or-self::node()/b").text == "descendant-or-self::node()/b")
        #expect(try XPathParser.parse("/descendant-or-self::node()").text == "/descendant-or-self::node()")
        #expect(try XPathParser.parse("self::node()[1]").text == "self::node()[1]")
        #expect(try XPathParser.parse("@ id").text == "@id")
    }

    @Test("function calls, prefixes and filter expressions")
    func calls() throws {
        let tree = try XPathParser.parse("instance('c')/root/item[country = current()/../country]")
        let current = XPathExpression.function(XPathFunction(name: "current", arguments: []))
        #expect(
            tree
                == .path(
                    XPathPath(
                        start: .expression(.function(XPathFunction(name: "instance", arguments: [.string("c")]))),
                        steps: [
                            .child("root"),
                            .child(
                                "item",
                                predicates: [
                                    .binary(
                                        .equal, Self.path("country"),
                                        .path(
                                            XPathPath(start: .expression(current), steps: [.parent, .child("country")]))
                                    )
                                ]),
                        ])))
        #expect(
            try XPathParser.parse("jr:choice-name( /data/a , '/data/a')")
                == .function(
                    XPathFunction(
                        prefix: "jr", name: "choice-name", arguments: [Self.absolute("data", "a"), .string("/data/a")]))
        )
        #expect(
            try XPathParser.parse("if (true(), 1, 2)")
                == .function(
                    XPathFunction(
                        name: "if",
                        arguments: [.function(XPathFunction(name: "true", arguments: [])), .number("1"), .number("2")]))
        )
        #expect(
            try XPathParser.parse("/data/orx:meta")
                == .path(XPathPath(start: .root, steps: [.child("data"), .child("meta", prefix: "orx")])))
        #expect(
            try XPathParser.parse("(a | b)[1]")
                == .filter(.binary(.union, Self.path("a"), Self.path("b")), predicates: [.number("1")]))
        #expect(
            try XPathParser.parse("node()")
                == .path(XPathPath(start: .context, steps: [XPathStep(axis: .child, test: .node)])))
        #expect(
            try XPathParser.parse("processing-instruction('pi')")
                == .path(
                    XPathPath(start: .context, steps: [XPathStep(axis: .child, test: .processingInstruction("pi"))])))
    }

    @Test("function columns are where the name is, and do not make trees differ")
    func functionColumns() throws {
        let calls = try XPathParser.parse("  not(selected(., 'a')) and jr:choice-name(., 'x')").functionCalls
        #expect(
            calls == [
                XPathFunctionCall(prefix: nil, name: "not", arity: 1, column: 3),
                XPathFunctionCall(prefix: nil, name: "selected", arity: 2, column: 7),
                XPathFunctionCall(prefix: "jr", name: "choice-name", arity: 2, column: 29),
            ])
        #expect(try XPathParser.parse("today()") == XPathParser.parse("   today()"))
    }

    @Test("parentheses are printed only where precedence needs them")
    func printing() throws {
        let cases: [(String, String)] = [
            ("1+2*3", "1 + 2 * 3"), ("(1+2)*3", "(1 + 2) * 3"), ("1-(2-3)", "1 - (2 - 3)"), ("(1-2)-3", "1 - 2 - 3"),
            ("((a))", "a"), ("-(1+2)", "-(1 + 2)"), ("-(a|b)", "-a | b"), ("(-a)|b", "(-a) | b"),
            ("(a or b) and c", "(a or b) and c"), ("a or (b and c)", "a or b and c"), ("(/) | a", "(/) | a"),
            ("( / )", "/"), ("(/data/a)/b", "(/data/a)/b"), ("(/data/a)[1]", "(/data/a)[1]"),
            ("f( 1 ,2 )", "f(1, 2)"), ("\"it's\"", "\"it's\""), ("'a'", "'a'"), ("( 1 )[1]", "1[1]"),
            (". >=1", ". >= 1"), ("5.", "5."), (".5", ".5"), ("a//b", "a//b"), ("//b", "//b"),
        ]
        for (text, printed) in cases {
            #expect(try XPathParser.parse(text).text == printed, "\(text)")
        }
    }

    @Test("a string holding both quotes prints as concat() of pieces")
    func bothQuotes() throws {
        let printed = XPathExpression.string("it's \"x\"").text
        #expect(printed == "concat('it', \"'\", 's \"x\"')")
        #expect(
            try XPathParser.parse(printed)
                == .function(
                    XPathFunction(name: "concat", arguments: [.string("it"), .string("'"), .string("s \"x\"")])))
    }

    static func error(_ text: String) -> XPathSyntaxError? {
        do {
            _ = try XPathParser.parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test("syntax errors say what is wrong and where")
    func errors() {
        let cases: [(String, String, Int)] = [
            ("", "The expression is empty", 1),
            ("   ", "The expression is empty", 1),
            ("(. > 1", "The '(' here is not closed: add the missing ')'", 1),
            ("not(selected(., 'a')", "The '(' here is not closed: add the missing ')'", 4),
            ("concat('a',", "The '(' here is not closed: add the missing ')'", 7),
            ("/data/a[. = 1", "The '[' here is not closed: add the missing ']'", 8),
            (". > 1 and", "'and' needs an expression after it", 7),
            (". =", "'=' needs an expression after it", 3),
            ("= 1", "'=' needs an expression before it", 1),
            ("1 + = 2", "'+' needs an expression after it", 3),
            ("1 + * 2", "Unexpected '2': expected an operator or the end of the expression", 7),
            ("-", "'-' needs an expression after it", 1),
            (". = 'abc", "The text in quotes that starts here is not closed: add the closing '", 5),
            ("concat(\"a)", "The text in quotes that starts here is not closed: add the closing \"", 8),
            (
                "$age > 1",
                "Variables such as $age are not allowed in form expressions: refer to a question by its path instead", 1
            ),
            (
                ". > $",
                "Variables such as $name are not allowed in form expressions: refer to a question by its path instead",
                5
            ),
            ("a b", "Unexpected 'b': expected an operator or the end of the expression", 3),
            ("f(a b)", "Unexpected 'b': expected an operator, ',' or ')' in f()", 5),
            ("(a b)", "Unexpected 'b': expected an operator or ')'", 4),
            ("a[b c]", "Unexpected 'c': expected an operator or ']'", 5),
            (". > 1)", "Unexpected ')': it closes no '('", 6),
            ("a]", "Unexpected ']': it closes no '['", 2),
            ("f(,)", "Expected an expression before ','", 3),
            ("f(a,)", "Expected an expression before ')'", 5),
            ("a[]", "Expected an expression before ']'", 3),
            ("/data/", "'/' needs a step after it: a name, '*', '.', '..' or '@name'", 6),
            ("a//", "'//' needs a step after it: a name, '*', '.', '..' or '@name'", 2),
            ("//", "'//' needs a step after it: a name, '*', '.', '..' or '@name'", 1),
            ("@", "'@' needs an attribute name after it", 1),
            ("child::", "'child::' needs a node test after it, such as a name or '*'", 1),
            ("sibling::x", "'sibling' is not an XPath axis (such as child, parent, ancestor, self)", 1),
            (".[1]", "'.' cannot have a predicate in XPath 1.0: write self::node()[...]", 2),
            ("..[1]", "'..' cannot have a predicate in XPath 1.0: write parent::node()[...]", 3),
            ("a ! b", "'!' alone is not an operator: write != or not(...)", 3),
            (". > 1 # 2", "'#' is not allowed in an expression", 7),
            ("node(1)", "node() takes no argument here: expected ')'", 6),
            ("text(", "The '(' here is not closed: add the missing ')'", 5),
            ("1 +", "'+' needs an expression after it", 3),
            ("é = 1 and", "'and' needs an expression after it", 7),
        ]
        for (text, message, column) in cases {
            #expect(Self.error(text) == XPathSyntaxError(message: message, column: column), "\(text)")
        }
    }

    @Test("a name may hold letters beyond ASCII; columns count characters, not bytes")
    func unicode() throws {
        #expect(
            try XPathParser.parse("/données/âge > 1")
                == .binary(.greater, Self.absolute("données", "âge"), .number("1")))
        #expect(Self.error("'é' = ")?.column == 5)
    }

    @Test("nesting deeper than the limits is refused, chains of operators included")
    func depthLimit() throws {
        let nesting =
            "The expression is nested too deeply (more than 32 levels of parentheses, calls, predicates or minus signs)"
        let deep = String(repeating: "(", count: 33) + "1" + String(repeating: ")", count: 33)
        #expect(Self.error(deep) == XPathSyntaxError(message: nesting, column: 33))
        #expect(Self.error(String(repeating: "(", count: 100_000))?.message == nesting)
        #expect(Self.error(String(repeating: "-", count: 100_000) + "1")?.message == nesting)
        #expect(
            Self.error(String(repeating: "not(", count: 40) + "1" + String(repeating: ")", count: 40))?.message
                == nesting)
        #expect(
            Self.error(String(repeating: "a[", count: 40) + "1" + String(repeating: "]", count: 40))?.message == nesting
        )
        let fine = String(repeating: "(", count: 31) + "1" + String(repeating: ")", count: 31)
        #expect(try XPathParser.parse(fine) == .number("1"))
        let chain = Array(repeating: "a", count: 300).joined(separator: " or ")
        #expect(Self.error(chain)?.message == "The expression is nested too deeply (more than 256 levels)")
        let wide = Array(repeating: "a", count: 250).joined(separator: " or ")
        #expect(try XPathParser.parse(wide).text == wide)
    }

    @Test("the deepest trees allowed are parsed, printed, walked and rewritten on a 1 MiB stack")
    func smallStack() throws {
        // 255 comparisons: each 2 levels deep, and 254 `or` above them.
        let chain = (0..<255).map { "/data/d\($0) < today()" }.joined(separator: " or ")
        let nested = String(repeating: "not(", count: 31) + "1" + String(repeating: ")", count: 31)
        let results = Results()
        let thread = Thread {
            defer { results.finish() }
            for text in [chain, nested] {
                guard let tree = try? XPathParser.parse(text) else { return }
                let rewritten = tree.rewritingDates(context: ["data", "x"]) { _ in .date }
                results.append(
                    (tree.text, tree.references(context: ["data"]).nodes.count, rewritten.functionCalls.count))
            }
        }
        thread.stackSize = 1 << 20
        thread.start()
        results.wait()
        #expect(results.values.map(\.0) == [chain, nested])
        #expect(results.values.map(\.1) == [255, 0])
        #expect(results.values.map(\.2) == [3 * 255, 31])
    }
}

/// What the small-stack thread found, handed back under a lock.
private final class Results: @unchecked Sendable {
    private let condition = NSCondition()
    private var done = false
    private var found: [(String, Int, Int)] = []

    func append(_ value: (String, Int, Int)) {
        condition.withLock { found.append(value) }
    }

    func finish() {
        condition.withLock {
            done = true
            condition.signal()
        }
    }

    func wait() {
        condition.withLock { while !done { condition.wait() } }
    }

    var values: [(String, Int, Int)] { condition.withLock { found } }
}
