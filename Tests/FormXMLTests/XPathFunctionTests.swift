import BoundedPatterns
import Foundation
import Testing

@testable import FormXML

/// The ODK function library, one test per function (dates and times in `XPathDateTests`),
/// evaluated through libxml2 against `XPathFixture`'s instance: `<name>Ada</name>`,
/// `<age>20</age>`, `<dob>2000-01-31</dob>`, `<colors>red  green blue</colors>`, `<empty/>`,
/// `<group><a>1</a><b></b><c>3</c></group>`, `<country>ke</country>`, `<city/>`.
@Suite("XPath ODK functions")
struct XPathFunctionTests {
    let fixture: XPathFixture

    init() throws {
        fixture = try XPathFixture(
            host: FixedHost(
                texts: ["greeting": "Hello", "empty": ""],
                labels: ["/data/country": ["ke": "Kenya", "ug": "Uganda"]]))
    }

    private func string(_ expression: String, at path: [String] = ["data"]) throws -> String {
        try fixture.string(expression, at: path)
    }

    private func number(_ expression: String, at path: [String] = ["data"]) throws -> Double {
        try fixture.number(expression, at: path)
    }

    private func boolean(_ expression: String, at path: [String] = ["data"]) throws -> Bool {
        try fixture.boolean(expression, at: path)
    }

    @Test("if() chooses by boolean(c) and keeps the branch's type")
    func ifFunction() throws {
        #expect(try number("if(selected(/data/colors, 'green'), 1, 2)") == 1)
        #expect(try number("if(selected(/data/colors, 'pink'), 1, 2)") == 2)
        guard case .nodes(let nodes) = try fixture.value("if(true(), /data/age, 'no')") else {
            Issue.record("the node-set branch did not stay a node-set")
            return
        }
        #expect(nodes.map(\.name) == ["age"])
        guard case .boolean(false) = try fixture.value("if(count(/data/empty) = 0, 'x', 1 = 2)") else {
            Issue.record("the boolean branch did not stay a boolean")
            return
        }
        // The string "false" is true; a count of 0 is false.
        #expect(try string("if('false', 'yes', 'no')") == "yes")
        #expect(try string("if(count(/data/nothing), 'yes', 'no')") == "no")
    }

    @Test("coalesce() gives the first non-empty of two values, as it is")
    func coalesce() throws {
        #expect(try string("coalesce(/data/empty, /data/name)") == "Ada")
        #expect(try string("coalesce(/data/name, 'x')") == "Ada")
        #expect(try string("coalesce(/data/nothing, 'x')") == "x")
        #expect(try string("coalesce(number('a'), 5)") == "5")
        #expect(try string("coalesce('', '')") == "")
        guard case .nodes = try fixture.value("coalesce(/data/age, 1)") else {
            Issue.record("coalesce did not keep the node-set")
            return
        }
    }

    @Test("once() keeps the bound node's value, else gives its argument")
    func once() throws {
        #expect(try string("once('new')", at: ["data", "name"]) == "Ada")
        #expect(try string("once('new')", at: ["data", "empty"]) == "new")
        #expect(try number("once(1 + 1)", at: ["data", "city"]) == 2)
    }

    @Test("current() is the bound node")
    func current() throws {
        #expect(try string("current()", at: ["data", "age"]) == "20")
        #expect(try string("name(current())", at: ["data", "group", "b"]) == "b")
        #expect(try string("/data/group/*[name() = name(current()/../c)]", at: ["data", "group", "a"]) == "3")
    }

    @Test("jr:itext() and jr:choice-name() ask the host, \"\" when it has nothing")
    func translations() throws {
        #expect(try string("jr:itext('greeting')") == "Hello")
        #expect(try string("jr:itext('missing')") == "")
        #expect(try string("jr:choice-name(/data/country, '/data/country')") == "Kenya")
        #expect(try string("jr:choice-name('ug', '/data/country')") == "Uganda")
        #expect(try string("jr:choice-name('tz', '/data/country')") == "")
        #expect(try string("jr:choice-name(/data/country, '/data/other')") == "")
    }

    @Test("concat() takes one argument, none, and every node of a node-set")
    func concat() throws {
        #expect(try string("concat(/data/group/*)") == "13")
        #expect(try string("concat('a')") == "a")
        #expect(try string("concat()") == "")
        #expect(try string("concat('<', /data/group/*, '>', 1.5, true())") == "<13>1.5true")
        #expect(try string("concat(/data/name, ' ', /data/age)") == "Ada 20")
    }

    @Test("join() puts the separator between every value, empty ones included")
    func join() throws {
        #expect(try string("join(', ', /data/group/*)") == "1, , 3")
        #expect(try string("join('-', 'a', /data/name, 2)") == "a-Ada-2")
        #expect(try string("join('-')") == "")
        #expect(try string("join(' ', /data/nothing)") == "")
    }

    @Test("substr() is 0-based, end exclusive, negative from the end, clamped")
    func substr() throws {
        #expect(try string("substr('abcdef', 1, 3)") == "bc")
        #expect(try string("substr('abcdef', 2)") == "cdef")
        #expect(try string("substr('abcdef', -2)") == "ef")
        #expect(try string("substr('abcdef', 0, -1)") == "abcde")
        #expect(try string("substr('abcdef', 4, 2)") == "")
        #expect(try string("substr('abcdef', 3, 100)") == "def")
        #expect(try string("substr('abcdef', -100, 2)") == "ab")
        #expect(try string("substr('abc', 'x', 2)") == "ab")
        #expect(try string("substr('', 0, 2)") == "")
        #expect(try string("substr('héllo wörld', 1, 4)") == "éll")
    }

    @Test("ends-with() as XPath 3.0")
    func endsWith() throws {
        #expect(try boolean("ends-with('filename.jpg', '.jpg')"))
        #expect(try !boolean("ends-with('filename.jpg', '.png')"))
        #expect(try boolean("ends-with('abc', '')"))
        #expect(try !boolean("ends-with('', 'a')"))
        #expect(try !boolean("ends-with('c', 'abc')"))
        #expect(try boolean("ends-with(/data/name, 'da')"))
    }

    @Test("string-length() counts characters and requires its argument")
    func stringLength() throws {
        #expect(try number("string-length('héllo')") == 5)
        #expect(try number("string-length(/data/name)") == 3)
        #expect(try number("string-length(/data/empty)") == 0)
        #expect(try fixture.error("string-length()")?.code == 1212)
    }

    @Test("boolean-from-string() is true for exactly 'true' and '1'")
    func booleanFromString() throws {
        #expect(try boolean("boolean-from-string('true')"))
        #expect(try boolean("boolean-from-string('1')"))
        #expect(try boolean("boolean-from-string(1)"))
        #expect(try !boolean("boolean-from-string('false')"))
        #expect(try !boolean("boolean-from-string('TRUE')"))
        #expect(try !boolean("boolean-from-string('')"))
        #expect(try !boolean("boolean-from-string('yes')"))
        #expect(try !boolean("boolean-from-string(/data/nothing)"))
    }

    @Test("uuid() is a version 4 UUID; uuid(n) n characters of 0-9A-Z")
    func uuid() throws {
        let first = try string("uuid()")
        let second = try string("uuid()")
        #expect(first != second)
        #expect(first.wholeMatch(of: /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/) != nil)
        let short = try string("uuid(12)")
        #expect(short.count == 12)
        #expect(short.wholeMatch(of: /[0-9A-Z]{12}/) != nil)
        #expect(try string("uuid(0)") == "")
        #expect(try string("uuid(-3)") == "")
        #expect(try string("uuid('x')") == "")
        #expect(try fixture.error("uuid(1000000)")?.code == 1211)
    }

    @Test("random() is in [0, 1) and not constant")
    func random() throws {
        let values = try (0..<20).map { _ in try number("random()") }
        #expect(values.allSatisfy { $0 >= 0 && $0 < 1 })
        #expect(Set(values).count > 1)
    }

    @Test("regex() searches the value with an ICU pattern")
    func regex() throws {
        #expect(try boolean("regex('abc123', '[0-9]+')"))
        #expect(try !boolean("regex('abc', '[0-9]+')"))
        #expect(try !boolean("regex('abc123', '^[0-9]+$')"))
        #expect(try boolean("regex('0712345678', '^0[0-9]{9}$')"))
        #expect(try boolean("regex('', '^$')"))
        #expect(try boolean("regex(/data/name, '^[A-Z][a-z]+$')"))
        #expect(try boolean("regex('ÉCOLE', '^\\p{Lu}+$')"))
        #expect(try fixture.error("regex('a', '[')")?.message == "regex(): '[' is not a valid regular expression")
        // A search over a long value without a match is no work to speak of, not "too long".
        let long = String(repeating: "hello world ", count: 800)
        #expect(try !boolean("regex('\(String(repeating: "x", count: 30))', '[0-9]+')"))
        #expect(try !boolean("regex('\(long)', '[<>]')"))
        #expect(try boolean("regex('\(long)7', '[0-9]$')"))
        #expect(try boolean("regex('ab', '(?<=a)b')"))
        #expect(try !boolean("regex('b', '(?<=a)b')"))
    }

    @Test("regex() does not match a value over 10,000 characters, and gives up on runaway backtracking")
    func regexLimits() throws {
        let long = String(repeating: "a", count: 10_001)
        let fixture = try XPathFixture(instance: "<data><v>\(long)</v><w>\(long.dropLast())</w></data>")
        #expect(try !fixture.boolean("regex(/data/v, 'a')"))
        #expect(try fixture.boolean("regex(/data/w, 'a')"))
        let runaway = try XPathFixture(instance: "<data><v>\(String(repeating: "a", count: 40))b</v></data>")
        #expect(try runaway.error("regex(/data/v, '^(a+)+$')")?.code == 1225)
    }

    @Test(
        "the regex() calls of one submission share a budget: once spent, one that needs more than a sane pattern fails")
    func regexBudget() throws {
        let runaway = try XPathFixture(instance: "<data><v>\(String(repeating: "a", count: 40))b</v></data>")
        let program = try XPathProgram(
            expressions: ["regex(/data/v, '^(a+)+$')", "regex('abc123', '[0-9]+')"], namespaces: [:])
        let evaluator = XPathEvaluator(program: program, instance: runaway.instance, secondary: [:], host: runaway.host)
        let root = try #require(runaway.instance.node(at: ["data"]))
        #expect(evaluator.patternWorkLeft == BoundedRegex.submissionProgressLimit)
        var left: [Int] = []
        for _ in 0..<4 {
            let error = #expect(throws: XPathEvaluationError.self) { try evaluator.evaluate(0, at: root) }
            #expect(error?.code == 1225)
            left.append(evaluator.patternWorkLeft)
        }
        // The first call takes its own limit, the second what is left, then nothing is.
        #expect(left[0] < BoundedRegex.submissionProgressLimit - BoundedRegex.progressLimit)
        #expect(left.dropFirst() == [0, 0, 0])
        // A sane pattern takes no work: it still answers.
        #expect(try evaluator.evaluate(1, at: root).booleanValue)
    }

    @Test("number() reads date and dateTime strings as days since 1970-01-01 UTC, else as XPath 1.0")
    func number() throws {
        #expect(try number("number('2024-02-29')") == 19_782)
        #expect(try number("number(/data/dob)") == 10_987)
        #expect(try number("number('1969-12-31T12:00:00Z')") == -0.5)
        #expect(try number("number(' 12 ')") == 12)
        #expect(try number("number(true())") == 1)
        #expect(try number("number('abc')").isNaN)
        #expect(try number("number('')").isNaN)
        #expect(try number("number('2024-02-30')").isNaN)
        #expect(try number("number()", at: ["data", "age"]) == 20)
        #expect(try number("number()", at: ["data", "dob"]) == 10_987)
    }

    @Test("round() halves toward positive infinity, with decimals, as JavaRosa")
    func round() throws {
        #expect(try number("round(2.5)") == 3)
        #expect(try number("round(-2.5)") == -2)
        #expect(try number("round(2.4)") == 2)
        #expect(try number("round(-2.6)") == -3)
        #expect(try number("round(0.5)") == 1)
        #expect(try string("round(-0.5)") == "0")
        #expect(try number("round(2.567, 2)") == 2.57)
        #expect(try number("round(2.675, 2)") == 2.68)
        #expect(try number("round(-2.675, 2)") == -2.67)
        #expect(try number("round(-2.676, 2)") == -2.68)
        #expect(try number("round(1234.5, -2)") == 1200)
        #expect(try number("round(1250, -2)") == 1300)
        #expect(try number("round(-1250, -2)") == -1200)
        #expect(try number("round(0.00001, 5)") == 0.00001)
        #expect(try number("round(/data/age div 3, 1)") == 6.7)
        #expect(try number("round(5, 1.9)") == 5)
        #expect(try number("round('abc')").isNaN)
        #expect(try number("round(1, 31)").isNaN)
        #expect(try string("round(1 div 0)") == "Infinity")
        #expect(try number("round(1e300, 2)") == 1e300)
    }

    @Test("int() discards the fraction, toward zero")
    func int() throws {
        #expect(try number("int(2.9)") == 2)
        #expect(try number("int(-2.9)") == -2)
        #expect(try number("int('7.5')") == 7)
        #expect(try number("int('x')").isNaN)
        #expect(try string("int(-1 div 0)") == "-Infinity")
    }

    @Test("the math functions as XPath 3.0")
    func math() throws {
        #expect(try number("pow(2, 10)") == 1024)
        #expect(try number("pow(4, 0.5)") == 2)
        #expect(try number("abs(-3.5)") == 3.5)
        #expect(try number("abs('x')").isNaN)
        #expect(try number("log(exp(2))") == 2)
        #expect(try string("log(0)") == "-Infinity")
        #expect(try number("log(-1)").isNaN)
        #expect(try number("log10(1000)") == 3)
        #expect(try number("exp(0)") == 1)
        #expect(try number("exp10(3)") == 1000)
        #expect(try number("sqrt(16)") == 4)
        #expect(try number("sqrt(-1)").isNaN)
        #expect(try number("pi()") == Double.pi)
        #expect(try number("sin(0)") == 0)
        #expect(try number("cos(0)") == 1)
        #expect(try number("tan(0)") == 0)
        #expect(try number("asin(1)") == Double.pi / 2)
        #expect(try number("acos(1)") == 0)
        #expect(try number("atan(1)") == Double.pi / 4)
        #expect(try number("atan2(1, 1)") == Double.pi / 4)
        #expect(try number("atan2(0, -1)") == Double.pi)
        #expect(try fixture.error("pi(1)")?.code == 1212)
    }

    @Test("min() and max() over numbers and node-sets, passing over empty values")
    func minMax() throws {
        #expect(try number("max(/data/group/*)") == 3)
        #expect(try number("min(/data/group/*)") == 1)
        #expect(try number("max(1, 7, 3)") == 7)
        #expect(try number("min(-5, /data/age, 2)") == -5)
        #expect(try number("max(-5, -2)") == -2)
        #expect(try number("max(/data/nothing)").isNaN)
        #expect(try number("min(/data/empty)").isNaN)
        #expect(try number("max('x', 4)") == 4)
    }

    @Test("selected() looks for a whole token")
    func selected() throws {
        #expect(try boolean("selected(/data/colors, 'green')"))
        #expect(try boolean("selected(/data/colors, ' blue ')"))
        #expect(try !boolean("selected(/data/colors, 'gre')"))
        #expect(try !boolean("selected(/data/colors, 'red green')"))
        #expect(try !boolean("selected(/data/colors, '')"))
        #expect(try !boolean("selected('', '')"))
        #expect(try !boolean("selected(/data/empty, 'a')"))
        #expect(try boolean("selected('1 2 3', 2)"))
    }

    @Test("count-selected() counts the tokens")
    func countSelected() throws {
        #expect(try number("count-selected(/data/colors)") == 3)
        #expect(try number("count-selected(/data/empty)") == 0)
        #expect(try number("count-selected('  a ')") == 1)
        #expect(try boolean("count-selected(.) <= 3", at: ["data", "colors"]))
    }

    @Test("selected-at() is 0-based, \"\" out of range")
    func selectedAt() throws {
        #expect(try string("selected-at(/data/colors, 0)") == "red")
        #expect(try string("selected-at(/data/colors, 2)") == "blue")
        #expect(try string("selected-at(/data/colors, 1.9)") == "green")
        #expect(try string("selected-at(/data/colors, 3)") == "")
        #expect(try string("selected-at(/data/colors, -1)") == "")
        #expect(try string("selected-at(/data/colors, 'x')") == "")
        #expect(try string("selected-at(/data/empty, 0)") == "")
    }

    @Test("count-non-empty() counts nodes with a value and wants a node-set")
    func countNonEmpty() throws {
        #expect(try number("count-non-empty(/data/group/*)") == 2)
        #expect(try number("count-non-empty(/data/nothing)") == 0)
        #expect(try fixture.error("count-non-empty('a')")?.code == 1211)
    }

    @Test("position(node) is the position among same-named siblings; position() is libxml2's")
    func position() throws {
        let fixture = try XPathFixture(instance: "<data><r>a</r><x/><r>b</r><r>c</r></data>")
        #expect(try fixture.number("position(/data/r[3])") == 3)
        #expect(try fixture.number("position(/data/x)") == 1)
        #expect(try fixture.number("position(.)", at: ["data"]) == 1)
        #expect(try fixture.number("position(/data/nothing)") == 0)
        #expect(try fixture.string("/data/r[position() = 2]") == "b")
        #expect(try fixture.number("position()") == 1)
        #expect(try fixture.error("position('a')")?.code == 1211)
    }

    @Test("checklist() counts true values within [min, max], -1 for no bound")
    func checklist() throws {
        #expect(try boolean("checklist(1, 2, 1 = 1, 1 = 2, 'x')"))
        #expect(try !boolean("checklist(3, -1, 1 = 1, 1 = 2, 'x')"))
        #expect(try boolean("checklist(-1, -1)"))
        #expect(try !boolean("checklist(-1, 0, true())"))
        // A node-set alone counts node by node: "1" and "3" are true, "" is not.
        #expect(try boolean("checklist(2, 2, /data/group/*)"))
        #expect(try !boolean("checklist(3, 3, /data/group/*)"))
        // Node values: 0 and false are false answers, other text is true.
        let answers = try XPathFixture(instance: "<data><a>0</a><b>false</b><c>yes</c><d>2</d><e/></data>")
        #expect(try answers.boolean("checklist(2, 2, /data/*)"))
        #expect(try answers.boolean("checklist(2, 2, /data/a, /data/b, /data/c, /data/d, /data/e)"))
    }

    @Test("weighted-checklist() sums the weights of true values within [min, max]")
    func weightedChecklist() throws {
        #expect(try boolean("weighted-checklist(5, 5, 1 = 1, 2, true(), 3, false(), 10)"))
        #expect(try !boolean("weighted-checklist(6, 10, 1 = 1, 2, true(), 3, false(), 10)"))
        #expect(try boolean("weighted-checklist(-1, 0, false(), 4)"))
        let pairs = try XPathFixture(
            instance: "<data><f><v>1</v><v/><v>x</v></f><w><n>2</n><n>4</n><n>8</n></w><u><n>1</n></u></data>")
        #expect(try pairs.boolean("weighted-checklist(10, 10, /data/f/v, /data/w/n)"))
        #expect(try pairs.error("weighted-checklist(0, 1, /data/f/v, /data/u/n)")?.code == 1211)
        #expect(try fixture.error("weighted-checklist(0, 1, true())")?.code == 1212)
    }

    @Test("instance() gives the secondary instance's document node")
    func instance() throws {
        #expect(try string("instance('cities')/root/item[2]/name") == "kla")
        #expect(try number("count(instance('cities')/root/item[country = 'ke'])") == 2)
        #expect(try number("count(instance('unknown'))") == 0)
    }
}
