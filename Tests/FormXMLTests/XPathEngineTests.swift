import Foundation
import Testing

@testable import FormXML

/// A host with fixed answers: itext by id, option labels by select and value, a clock stopped at
/// 2024-05-15T22:30:00Z and a zone (Nairobi, +03:00 all year, unless a test says otherwise).
struct FixedHost: XPathHost {
    var texts: [String: String] = [:]
    var labels: [String: [String: String]] = [:]
    var now = Date(timeIntervalSince1970: 1_715_812_200)
    var timeZone = TimeZone(identifier: "Africa/Nairobi")!

    func itext(_ id: String) -> String? { texts[id] }
    func choiceName(value: String, selectRef: String) -> String? { labels[selectRef]?[value] }
}

/// A small submission instance, a `cities` secondary instance and a host, and ways to evaluate
/// one expression against them at a node.
struct XPathFixture {
    static let instanceXML = """
        <data xmlns="http://www.w3.org/2002/xforms" xmlns:jr="http://openrosa.org/javarosa"
              xmlns:orx="http://openrosa.org/xforms/" id="household" orx:version="3">
          <!-- a comment -->
          <name>Ada</name>
          <age>20</age>
          <dob>2000-01-31</dob>
          <colors>red  green blue</colors>
          <empty/>
          <group><a>1</a><b></b><c>3</c></group>
          <country>ke</country>
          <city/>
          <orx:meta><orx:instanceID>uuid:x</orx:instanceID></orx:meta>
        </data>
        """
    static let citiesXML = """
        <root>
          <item><name>nbo</name><country>ke</country></item>
          <item><name>kla</name><country>ug</country></item>
          <item><name>msa</name><country>ke</country></item>
        </root>
        """

    var instance: XPathDocument
    var secondary: [String: XPathDocument]
    var host: FixedHost

    init(instance: String = instanceXML, host: FixedHost = FixedHost()) throws {
        self.instance = try XPathDocument.parse(Array(instance.utf8), droppingNamespace: XPathNamespaces.xforms)
        secondary = ["cities": try XPathDocument.parse(Array(Self.citiesXML.utf8), readOnly: true)]
        self.host = host
    }

    init(instance: XPathDocument, host: FixedHost = FixedHost()) {
        self.instance = instance
        secondary = [:]
        self.host = host
    }

    /// Compiles `expression` as a one-expression program and evaluates it at the node at `path`.
    func value(
        _ expression: String, at path: [String] = ["data"], operationLimit: Int = 100_000
    ) throws
        -> XPathValue
    {
        let program = try XPathProgram(expressions: [expression], namespaces: [:])
        let evaluator = XPathEvaluator(
            program: program, instance: instance, secondary: secondary, host: host, operationLimit: operationLimit)
        return try evaluator.evaluate(0, at: try #require(instance.node(at: path)))
    }

    func string(_ expression: String, at path: [String] = ["data"]) throws -> String {
        try value(expression, at: path).stringValue
    }

    func number(_ expression: String, at path: [String] = ["data"]) throws -> Double {
        try value(expression, at: path).numberValue
    }

    func boolean(_ expression: String, at path: [String] = ["data"]) throws -> Bool {
        try value(expression, at: path).booleanValue
    }

    /// The error evaluating `expression` gives; nil when it gives a value.
    func error(_ expression: String, operationLimit: Int = 100_000) throws -> XPathEvaluationError? {
        do {
            _ = try value(expression, operationLimit: operationLimit)
            return nil
        } catch let error as XPathEvaluationError {
            return error
        }
    }
}

/// Documents, compiled programs and the evaluator around libxml2's XPath engine: namespaces,
/// the tree API, errors and limits, `current()` and `instance()`, and concurrent use.
@Suite("XPath engine")
struct XPathEngineTests {
    @Test("the XForms namespace is dropped from the instance, orx is kept (without its trailing slash)")
    func namespaces() throws {
        let fixture = try XPathFixture()
        let root = try #require(fixture.instance.root)
        #expect(root.name == "data")
        #expect(root.namespaceURI == nil)
        #expect(try fixture.string("/data/age") == "20")
        #expect(try fixture.string("/data/orx:meta/orx:instanceID") == "uuid:x")
        let meta = try #require(root.child("meta"))
        #expect(meta.namespaceURI == "http://openrosa.org/xforms")
        let xml = fixture.instance.serialized()
        #expect(!xml.contains("http://www.w3.org/2002/xforms"))
        #expect(xml.contains(#"xmlns:orx="http://openrosa.org/xforms""#))
        #expect(!xml.contains("openrosa.org/xforms/"))
        #expect(!xml.contains("a comment"))
        #expect(xml.contains("<orx:meta><orx:instanceID>uuid:x</orx:instanceID></orx:meta>"))
    }

    @Test("blank text between elements is dropped, a leaf keeps its text")
    func blanks() throws {
        let document = try XPathDocument.parse(Array("<data>\n  <a> x </a>\n  <b>  </b>\n</data>".utf8))
        #expect(
            document.serialized() == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<data><a> x </a><b>  </b></data>\n")
    }

    @Test("a DOCTYPE is refused, as in every FormXML parse")
    func doctype() throws {
        #expect(throws: XMLParseError(.doctype, line: 1)) {
            try XPathDocument.parse(Array(#"<!DOCTYPE data [<!ENTITY x "y">]><data>&x;</data>"#.utf8))
        }
        #expect(throws: XMLParseError.self) { try XPathDocument.parse(Array("<data><a></data>".utf8)) }
    }

    @Test("nodes: name, parent, children, lookup by path, path text")
    func nodes() throws {
        let fixture = try XPathFixture()
        let document = fixture.instance
        let b = try #require(document.node(at: ["data", "group", "b"]))
        #expect(b.name == "b")
        #expect(b.kind == .element)
        #expect(b.parent?.name == "group")
        #expect(b.path == "/data/group/b")
        #expect(document.root?.parent == nil)
        #expect(b.parent?.children.map(\.name) == ["a", "b", "c"])
        #expect(document.node(at: ["data", "group", "z"]) == nil)
        #expect(document.node(at: ["other"]) == nil)
        #expect(document.root?.descendant([]) == document.root)
        #expect(document.node(at: ["data", "group"])?.text == "13")
    }

    @Test("setting a node's text replaces its content literally; the serialization escapes it")
    func setText() throws {
        let fixture = try XPathFixture()
        let name = try #require(fixture.instance.node(at: ["data", "name"]))
        name.text = "a & <b> &amp;"
        #expect(name.text == "a & <b> &amp;")
        #expect(try fixture.string("/data/name") == "a & <b> &amp;")
        #expect(fixture.instance.serialized().contains("<name>a &amp; &lt;b&gt; &amp;amp;</name>"))
        name.text = ""
        #expect(fixture.instance.serialized().contains("<name/>"))
        // A group's text replaces its children, which stay readable.
        let group = try #require(fixture.instance.node(at: ["data", "group"]))
        let a = try #require(group.child("a"))
        group.text = "x"
        #expect(group.children.isEmpty)
        #expect(a.text == "1")
        #expect(a.parent == nil)
    }

    @Test("an attribute's value can be set, and the attribute removed")
    func attributes() throws {
        let fixture = try XPathFixture()
        guard case .nodes(let nodes) = try fixture.value("/data/@id"), let id = nodes.first else {
            Issue.record("no attribute")
            return
        }
        #expect(id.kind == .attribute)
        #expect(id.name == "id")
        #expect(id.parent?.name == "data")
        #expect(id.path == "/data/@id")
        id.text = "a\"b"
        #expect(try fixture.string("/data/@id") == "a\"b")
        #expect(fixture.instance.serialized().contains(#"id="a&quot;b""#))
        id.remove()
        #expect(try fixture.number("count(/data/@id)") == 0)
        #expect(try fixture.string("/data/@orx:version") == "3")
    }

    @Test("a removed node leaves the tree and the serialization, and stays readable")
    func remove() throws {
        let fixture = try XPathFixture()
        let city = try #require(fixture.instance.node(at: ["data", "city"]))
        let age = try #require(fixture.instance.node(at: ["data", "age"]))
        age.remove()
        city.remove()
        #expect(try fixture.number("count(/data/age)") == 0)
        #expect(!fixture.instance.serialized().contains("<age>"))
        #expect(age.text == "20")
        #expect(age.parent == nil)
        #expect(age.path == "/age")
    }

    @Test("a copy is independent of its template; a read-only document says so")
    func copies() throws {
        let template = try XPathDocument.parse(Array("<data><a>1</a></data>".utf8), readOnly: true)
        #expect(template.isReadOnly)
        let first = template.copy()
        let second = template.copy()
        #expect(!first.isReadOnly)
        first.node(at: ["data", "a"])?.text = "2"
        #expect(template.node(at: ["data", "a"])?.text == "1")
        #expect(second.node(at: ["data", "a"])?.text == "1")
        #expect(first.node(at: ["data", "a"])?.text == "2")
        #expect(template.copy(readOnly: true).isReadOnly)
        #expect(template.serialized() == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<data><a>1</a></data>\n")
        #expect(template.root?.descendant(["a"])?.path == "/data/a")
    }

    @Test("an instance copied from a form's parsed primary instance reads like a parsed one")
    func copyingElement() throws {
        let form = try SafeXMLDocument.parse(
            Array(
                """
                <h:html xmlns="http://www.w3.org/2002/xforms" xmlns:h="http://www.w3.org/1999/xhtml"
                        xmlns:orx="http://openrosa.org/xforms/" xmlns:jr="http://openrosa.org/javarosa">
                  <h:head><model><instance>
                    <data id="f" orx:version="2">
                      <age>7</age>
                      <group><q jr:template="">a &amp; b</q></group>
                      <orx:meta><orx:instanceID/></orx:meta>
                    </data>
                  </instance></model></h:head>
                </h:html>
                """.utf8))
        let data = try #require(form.root?.children.first?.children.first?.children.first?.children.first)
        #expect(data.localName == "data")
        let document = XPathDocument(copying: data, droppingNamespace: XPathNamespaces.xforms)
        let fixture = XPathFixture(instance: document)
        #expect(try fixture.string("/data/age + 1") == "8")
        #expect(try fixture.string("/data/group/q") == "a & b")
        #expect(try fixture.string("/data/@id") == "f")
        #expect(try fixture.string("/data/@orx:version") == "2")
        #expect(try fixture.number("count(/data/orx:meta/orx:instanceID)") == 1)
        #expect(try fixture.number("count(/data/group/q/@jr:template)") == 1)
        let xml = document.serialized()
        #expect(
            xml == """
                <?xml version="1.0" encoding="UTF-8"?>
                <data xmlns:orx="http://openrosa.org/xforms" xmlns:jr="http://openrosa.org/javarosa" id="f" \
                orx:version="2"><age>7</age><group><q jr:template="">a &amp; b</q></group><orx:meta>\
                <orx:instanceID/></orx:meta></data>

                """)
    }

    @Test("results keep XPath's types, and convert as XPath 1.0 does")
    func values() throws {
        let fixture = try XPathFixture()
        #expect(try fixture.string("1 div 0") == "Infinity")
        #expect(try fixture.string("-1 div 0") == "-Infinity")
        #expect(try fixture.string("number('abc')") == "NaN")
        #expect(try fixture.string("0.1 + 0.2") == "0.3")
        #expect(try fixture.string("2 * 3") == "6")
        #expect(try fixture.string("1 = 1") == "true")
        guard case .nodes(let nodes) = try fixture.value("/data/group/*") else {
            Issue.record("not a node-set")
            return
        }
        #expect(nodes.map(\.name) == ["a", "b", "c"])
        #expect(XPathValue.nodes(nodes).stringValue == "1")
        #expect(XPathValue.nodes(nodes).numberValue == 1)
        #expect(XPathValue.nodes([]).stringValue == "")
        #expect(XPathValue.nodes([]).numberValue.isNaN)
        #expect(!XPathValue.nodes([]).booleanValue)
        #expect(XPathValue.string("false").booleanValue)
        #expect(!XPathValue.string("").booleanValue)
        #expect(!XPathValue.number(.nan).booleanValue)
        #expect(XPathValue.number(-0.5).booleanValue)
        #expect(XPathValue.boolean(true).numberValue == 1)
        #expect(XPathValue.string(" 12.5 ").numberValue == 12.5)
        // libxml2 reads an exponent, which XPath 1.0 does not have.
        #expect(XPathValue.string("1e3").numberValue == 1000)
        #expect(XPathValue.number(1e21).stringValue == "1e+21")
        #expect(XPathValue.number(-0.0).stringValue == "0")
    }

    @Test("`.` is the node evaluated at; relative paths start there")
    func contextNode() throws {
        let fixture = try XPathFixture()
        #expect(try fixture.boolean(". > 18 and . < 100", at: ["data", "age"]))
        #expect(try !fixture.boolean(". > 20", at: ["data", "age"]))
        #expect(try fixture.string("../name", at: ["data", "age"]) == "Ada")
        #expect(try fixture.string("../c", at: ["data", "group", "a"]) == "3")
        #expect(try fixture.string("current()/../../name", at: ["data", "group", "a"]) == "Ada")
    }

    @Test("current() stays the bound node inside a predicate over a secondary instance")
    func currentInPredicate() throws {
        let fixture = try XPathFixture()
        let expression = "instance('cities')/root/item[country = current()/../country]/name"
        #expect(try fixture.string(expression, at: ["data", "city"]) == "nbo")
        #expect(try fixture.number("count(\(expression))", at: ["data", "city"]) == 2)
        fixture.instance.node(at: ["data", "country"])?.text = "ug"
        #expect(try fixture.string(expression, at: ["data", "city"]) == "kla")
        // Absolute paths inside the predicate still read the primary instance.
        #expect(try fixture.string("instance('cities')/root/item[country = /data/country]/name") == "kla")
        #expect(try fixture.number("count(instance('cities')/root/item)") == 3)
        // A secondary instance the evaluator was not given has no items (an external one not uploaded).
        #expect(try fixture.number("count(instance('nope')/root/item)") == 0)
        guard case .nodes(let nodes) = try fixture.value("instance('cities')") else {
            Issue.record("not a node-set")
            return
        }
        #expect(nodes.map(\.kind) == [.document])
    }

    @Test("an expression can be evaluated at a node of a secondary instance (an itemset's label)")
    func secondaryNode() throws {
        let fixture = try XPathFixture()
        let program = try XPathProgram(expressions: ["name", "/data/name"], namespaces: [:])
        let evaluator = XPathEvaluator(
            program: program, instance: fixture.instance, secondary: fixture.secondary, host: fixture.host)
        guard
            case .nodes(let items) = try evaluator.evaluate("instance('cities')/root/item", at: fixture.instance.root!)
        else {
            Issue.record("not a node-set")
            return
        }
        #expect(try items.map { try evaluator.evaluate(0, at: $0).stringValue } == ["nbo", "kla", "msa"])
        #expect(try evaluator.evaluate(1, at: items[0]).stringValue == "Ada")
        #expect(items[0].document === fixture.secondary["cities"])
    }

    @Test("a compile error names the expression's index and libxml2's message")
    func compileErrors() throws {
        #expect(throws: XPathCompileError(index: 1, message: "Invalid expression", code: 1207, offset: 3)) {
            try XPathProgram(expressions: ["/data/age", "1 +", "also ("], namespaces: [:])
        }
        #expect(throws: XPathCompileError(index: 0, message: "Unfinished literal", code: 1202, offset: 13)) {
            try XPathProgram(expressions: ["concat('a, 1)"], namespaces: [:])
        }
        let program = try XPathProgram(expressions: ["1", "2"], namespaces: [:])
        #expect(program.count == 2)
        // libxml2 stops at its recursion limit rather than at the end of the stack.
        let nested = String(repeating: "(", count: 2000) + "1" + String(repeating: ")", count: 2000)
        #expect(throws: XPathCompileError.self) { try XPathProgram(expressions: [nested], namespaces: [:]) }
        let long = Array(repeating: "1", count: 20_000).joined(separator: " + ")
        let fixture = try XPathFixture()
        #expect(try fixture.error(long, operationLimit: 1_000_000)?.code == 1226)
    }

    @Test("an uncompiled expression with a syntax error gives an evaluation error")
    func uncompiledSyntax() throws {
        let fixture = try XPathFixture()
        let program = try XPathProgram(expressions: [], namespaces: [:])
        let evaluator = XPathEvaluator(
            program: program, instance: fixture.instance, secondary: [:], host: fixture.host)
        #expect(throws: XPathEvaluationError(message: "Invalid expression", code: 1207)) {
            try evaluator.evaluate("/data/age[", at: fixture.instance.root!)
        }
        #expect(try evaluator.evaluate("/data/age * 2", at: fixture.instance.root!).stringValue == "40")
    }

    @Test("an unknown function is an evaluation error (1209), not a compile error")
    func unknownFunction() throws {
        let fixture = try XPathFixture()
        #expect(
            try fixture.error("pulldata('a', 'b', 'c', 'd')")
                == XPathEvaluationError(message: "Unregistered function pulldata()", code: 1209))
        #expect(
            try fixture.error("1 + odk:foo(1)")
                == XPathEvaluationError(message: "Unregistered function odk:foo()", code: 1209))
        #expect(
            try fixture.error("jr:itext('a') = '' and foo-bar(.) = 1")?.message == "Unregistered function foo-bar()")
        // The evaluator goes on after an error.
        #expect(try fixture.string("/data/age") == "20")
    }

    @Test("an unbound prefix is an evaluation error (1219), in a function name or a path")
    func unboundPrefix() throws {
        let fixture = try XPathFixture()
        #expect(
            try fixture.error("xx:foo(1)")
                == XPathEvaluationError(message: "Undefined namespace prefix 'xx'", code: 1219))
        #expect(try fixture.error("/data/yy:age")?.code == 1219)
        #expect(XPathEvaluator.prefixes(in: "jr:itext('a:b') + child::x + orx:meta/* + \"q:r\"") == ["jr", "orx"])
    }

    @Test("a wrong number of arguments names the function and the count")
    func arity() throws {
        let fixture = try XPathFixture()
        #expect(
            try fixture.error("round(1, 2, 3)")
                == XPathEvaluationError(message: "round() takes 1 or 2 arguments, not 3", code: 1212))
        #expect(try fixture.error("if(1, 2)")?.message == "if() takes 3 arguments, not 2")
        #expect(try fixture.error("join()")?.message == "join() takes at least 1 argument, not 0")
        #expect(try fixture.error("string-length()")?.message == "string-length() takes 1 argument, not 0")
        #expect(try fixture.error("count(1, 2)")?.code == 1212)
    }

    @Test("past the operation limit an evaluation fails with 1225, and the next one runs afresh")
    func operationLimit() throws {
        let fixture = try XPathFixture()
        let heavy = "count(//*[count(//*[count(//*) > 0]) > 0])"
        #expect(try fixture.error(heavy, operationLimit: 500)?.code == 1225)
        #expect(try fixture.error(heavy, operationLimit: 10_000_000) == nil)
        let program = try XPathProgram(expressions: [heavy, "1 + 1"], namespaces: [:])
        let evaluator = XPathEvaluator(
            program: program, instance: fixture.instance, secondary: [:], host: fixture.host, operationLimit: 2000)
        let root = try #require(fixture.instance.root)
        #expect(throws: XPathEvaluationError.self) { try evaluator.evaluate(0, at: root) }
        // opCount is reset before each evaluation: a small one still fits after a failed big one.
        for _ in 0..<3 { #expect(try evaluator.evaluate(1, at: root).numberValue == 2) }
    }

    @Test("the form's namespace prefixes are registered, orx with or without its trailing slash")
    func programNamespaces() throws {
        let fixture = try XPathFixture()
        let program = try XPathProgram(
            expressions: ["/data/o:meta/o:instanceID", "/data/orx:meta/orx:instanceID"],
            namespaces: ["o": "http://openrosa.org/xforms/", "": "http://www.w3.org/2002/xforms"])
        #expect(program.namespaces["o"] == XPathNamespaces.openRosa)
        #expect(program.namespaces["jr"] == XPathNamespaces.javaRosa)
        #expect(program.namespaces[""] == nil)
        let evaluator = XPathEvaluator(program: program, instance: fixture.instance, secondary: [:], host: fixture.host)
        #expect(try evaluator.evaluate(0, at: fixture.instance.root!).stringValue == "uuid:x")
        #expect(try evaluator.evaluate(1, at: fixture.instance.root!).stringValue == "uuid:x")
    }

    @Test("the function library lists every name it registers, jr: ones prefixed")
    func names() {
        let names = XPathFunctionLibrary.names
        for name in [
            "if", "selected", "count-selected", "selected-at", "jr:choice-name", "jr:itext", "instance", "current",
            "today", "now", "date", "date-time", "decimal-date-time", "decimal-time", "format-date",
            "format-date-time", "number", "int", "round", "pow", "abs", "log", "log10", "exp", "exp10", "sqrt", "pi",
            "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "min", "max", "uuid", "random", "concat", "join",
            "substr", "ends-with", "string-length", "coalesce", "regex", "boolean-from-string", "checklist",
            "weighted-checklist", "count-non-empty", "position", "once",
        ] {
            #expect(names.contains(name), "\(name)")
        }
        #expect(!names.contains("pulldata"))
        #expect(!names.contains("choice-name"))
        #expect(XPathFunctionLibrary.coreNames.isDisjoint(with: names))
        #expect(XPathFunctionLibrary.coreNames.contains("count"))
    }

    @Test("libxml2 runs exactly the table: every function at the edges of its arity, and nothing else")
    func registersTheTable() throws {
        let fixture = try XPathFixture()
        func call(_ function: ODKFunctions.Function, _ count: Int) -> String {
            "\(function.qualifiedName)(\(Array(repeating: "'1'", count: count).joined(separator: ", ")))"
        }
        for function in ODKFunctions.all {
            // The call's own errors (a bad date, an instance that is not there) are no matter; an
            // unknown function (1209) or a wrong count (1212) is.
            let lowest = try fixture.error(call(function, function.arguments.lowerBound))
            #expect(lowest.map { ![1209, 1212].contains($0.code) } ?? true, "\(function.qualifiedName): \(lowest!)")
            let highest = min(function.arguments.upperBound, function.arguments.lowerBound + 2)
            let atHighest = try fixture.error(call(function, highest))
            #expect(atHighest.map { $0.code != 1212 } ?? true, "\(function.name): \(atHighest!)")
            if function.arguments.lowerBound > 0 {
                #expect(
                    try fixture.error(call(function, function.arguments.lowerBound - 1))?.code == 1212,
                    "\(function.name)")
            }
            if function.arguments.upperBound != Int.max {
                #expect(
                    try fixture.error(call(function, function.arguments.upperBound + 1))?.code == 1212,
                    "\(function.name)")
            }
        }
        // Names ODK has that the server does not evaluate are unknown to libxml2 too.
        for name in ["pulldata", "digest", "jr:choice", "area"] {
            #expect(try fixture.error("\(name)('a')")?.code == 1209, "\(name)")
        }
    }

    @Test("one program evaluated from 8 tasks at once, 200 evaluations each, gives every task its own answers")
    func concurrentEvaluations() async throws {
        let template = try XPathDocument.parse(
            Array(XPathFixture.instanceXML.utf8), droppingNamespace: XPathNamespaces.xforms, readOnly: true)
        let cities = try XPathDocument.parse(Array(XPathFixture.citiesXML.utf8), readOnly: true)
        let program = try XPathProgram(
            expressions: [
                "/data/age * 2",
                "if(selected(/data/colors, 'green'), concat(/data/name, '-', /data/age), 'no')",
                "instance('cities')/root/item[country = current()/../country]/name",
                "round(decimal-date-time(/data/dob) + /data/age, 0)",
            ], namespaces: [:])
        let results = try await withThrowingTaskGroup(of: [String].self) { group in
            for task in 0..<8 {
                group.addTask {
                    var seen: [String] = []
                    for round in 0..<200 {
                        let instance = template.copy()
                        let age = task * 1000 + round
                        instance.node(at: ["data", "age"])?.text = String(age)
                        instance.node(at: ["data", "country"])?.text = round.isMultiple(of: 2) ? "ke" : "ug"
                        let evaluator = XPathEvaluator(
                            program: program, instance: instance, secondary: ["cities": cities], host: FixedHost())
                        let root = instance.root!
                        let city = instance.node(at: ["data", "city"])!
                        let values = [
                            try evaluator.evaluate(0, at: root).stringValue,
                            try evaluator.evaluate(1, at: root).stringValue,
                            try evaluator.evaluate(2, at: city).stringValue,
                            try evaluator.evaluate(3, at: root).stringValue,
                        ]
                        let expected = [
                            String(age * 2), "Ada-\(age)", round.isMultiple(of: 2) ? "nbo" : "kla",
                            String(10_987 + age),
                        ]
                        if values != expected { seen.append("\(task)/\(round): \(values) != \(expected)") }
                    }
                    return seen
                }
            }
            var all: [String] = []
            for try await seen in group { all += seen }
            return all
        }
        #expect(results.isEmpty)
        #expect(program.idleCount >= 1)
        #expect(program.idleCount <= XPathProgram.idleLimit)
    }
}
