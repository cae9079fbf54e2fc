import FormXML
import Foundation
import Testing

@testable import FormImport

/// Every expression of every XForm of `../shared/corpus/xforms` (beside the checkout): bind
/// nodesets and rules, `jr:itext(...)` messages, itemsets, outputs, setvalues and control refs.
/// Each must parse, print back to the same tree, call only known functions, read only nodes of
/// its form's primary instance and instances the form declares, and survive the date rewrite.
/// Skipped when the corpus is not there.
@Suite("XForms expressions: the corpus", .enabled(if: XFormsCorpus.isPresent, "../shared/corpus/xforms is missing"))
struct XPathCorpusTests {
    /// Expressions per form, as found when this test was written; a change means the extraction
    /// (or the corpus) changed.
    static let expected: [String: Int] = [
        "enketo-transformer__nested_repeats.xml": 28,
        "enketo-transformer__new_cascading_selections.xml": 67,
        "enketo-transformer__pages.xml": 73,
        "enketo-transformer__relevant_constraint_required.xml": 22,
        "enketo-transformer__va_who_v1_5_3.xml": 3_683,
        "enketo-transformer__widgets.xml": 165,
        "odk-web-forms__1-validation.xml": 27,
        "odk-web-forms__2-all-possible-notes.xml": 53,
        "odk-web-forms__5-select-types.xml": 51,
        "odk-web-forms__all-question-types.xml": 265,
        "odk-web-forms__date-and-time.xml": 30,
        "odk-web-forms__socio-economic-survey.xml": 117,
        "pyxform__widgets.xml": 142,
    ]

    static let info = "/data/consented/deceased_CRVS/info_on_deceased/"

    /// Every expression the date rewrite changes, in the order of the files and the expressions.
    static let rewritten = [
        // enketo-transformer__va_who_v1_5_3.xml
        "decimal-date-time(.) <= decimal-date-time(today())",
        "decimal-date-time(.) >= decimal-date-time(\(info)Id10021) and decimal-date-time(.) <= decimal-date-time(today())",
        "decimal-date-time(.) <= decimal-date-time(today())",
        "decimal-date-time(.) <= decimal-date-time(today()) and decimal-date-time(.) >= "
            + "decimal-date-time(date(date('1915-01-01')))",
        // `Id10023` is a string calculate over two dates: a date by `XPathTypeInference`.
        "decimal-date-time(\(info)Id10023) - decimal-date-time(\(info)Id10021)",
        "decimal-date-time(\(info)Id10024) - decimal-date-time(\(info)Id10021)",
        // enketo-transformer__widgets.xml
        "decimal-date-time(.) >= decimal-date-time(today())",
        // odk-web-forms__date-and-time.xml
        "decimal-date-time(/data/dates/date_of_birth) <= decimal-date-time(today())",
        // pyxform__widgets.xml
        "decimal-date-time(.) >= decimal-date-time(today())",
    ]

    @Test("every expression of every corpus XForm parses and prints back to the same tree")
    func everyExpression() throws {
        var counts: [String: Int] = [:]
        var rewritten: [String] = []
        var missing: [String] = []
        for name in try XFormsCorpus.files() {
            let form = try XFormsCorpus.read(name)
            counts[name] = form.expressions.count
            let types = XPathTypeInference.types(
                declared: form.types, calculates: try form.calculates.mapValues { try XPathParser.parse($0) })
            for expression in form.expressions {
                let place = "\(name) line \(expression.line) \(expression.attribute)=\"\(expression.text)\""
                let tree: XPathExpression
                do {
                    tree = try XPathParser.parse(expression.text)
                } catch {
                    Issue.record("\(place): \(error.message) at column \(error.column)")
                    continue
                }
                #expect(try XPathParser.parse(tree.text) == tree, "\(place) printed as \(tree.text)")
                for call in tree.functionCalls {
                    let check = XPathFunctionTable.check(call, namespaces: form.namespaces)
                    #expect(check == .ok, "\(place): \(check)")
                }
                let references = tree.references(context: expression.context)
                #expect(references.unresolved.isEmpty, "\(place): \(references.unresolved)")
                for node in references.nodes
                where !expression.readsSecondary && !form.nodes.contains(node.map(Self.localName)) {
                    missing.append("/" + node.joined(separator: "/"))
                }
                for id in references.instances {
                    #expect(form.instances.contains(id), "\(place) reads instance \(id)")
                }
                let dated = tree.rewritingDates(context: expression.context) { types[$0] }
                if dated != tree {
                    rewritten.append(dated.text)
                    #expect(try XPathParser.parse(dated.text) == dated, "\(place) rewritten as \(dated.text)")
                }
            }
        }
        #expect(counts == Self.expected)
        #expect(rewritten == Self.rewritten)
        // The WHO form writes `null` (as in JavaScript) for "no value" in two calculates: in
        // XPath that is the bound node's child `null`, which does not exist (an empty node-set).
        let calculated = "/data/consented/illhistory/signs_symptoms_final_illness/"
        #expect(missing == [calculated + "Id10201/null", calculated + "Id10205/null"])
    }

    private static func localName(_ name: String) -> String {
        name.split(separator: ":").last.map(String.init) ?? name
    }
}

/// The XForms of the corpus, read with FormXML's lean tree.
enum XFormsCorpus {
    /// `../shared/corpus/xforms` beside the checkout, found from this file as `BindingCorpus` finds the corpus.
    static let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appending(path: "shared/corpus/xforms")

    static var isPresent: Bool { FileManager.default.fileExists(atPath: root.path) }

    static func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".xml") }.sorted()
    }

    /// One expression of a form, with the node it is evaluated for.
    struct Expression {
        var text: String
        var attribute: String
        var line: Int
        /// The bound node, or the control's node for attributes of a control and what it holds.
        var context: [String]
        /// An itemset's `value`/`label` refs, whose relative paths are the secondary instance's items.
        var readsSecondary: Bool
    }

    struct Form {
        var expressions: [Expression] = []
        /// Paths of the primary instance's elements, by local names.
        var nodes: Set<[String]> = []
        /// Ids of the instances the model declares.
        var instances: Set<String> = []
        /// Bind types by nodeset.
        var types: [[String]: XPathValueType] = [:]
        /// Calculates by nodeset.
        var calculates: [[String]: String] = [:]
        /// Prefixes the document declares (from its text: the lean tree keeps no declarations).
        var namespaces: [String: String] = [:]
    }

    static let xformsNamespace = "http://www.w3.org/2002/xforms"

    static func read(_ name: String) throws -> Form {
        let bytes = try [UInt8](Data(contentsOf: root.appending(path: name)))
        var form = Form()
        let text = String(decoding: bytes, as: UTF8.self)
        for match in text.matches(of: /xmlns:([A-Za-z_][\w.-]*)="([^"]*)"/) {
            form.namespaces[String(match.1)] = String(match.2)
        }
        let document = try LeanXMLDocument.parse(bytes)
        document.withRoot { root in
            walk(root, context: [], inItemset: false, form: &form)
        }
        return form
    }

    /// Absolute paths only; others keep the context.
    private static func path(_ text: String) -> [String]? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("/"), !trimmed.contains("["), !trimmed.contains("(") else { return nil }
        return trimmed.split(separator: "/").map(String.init)
    }

    private static func walk(_ element: XMLNode, context: [String], inItemset: Bool, form: inout Form) {
        let local = element.localName
        if local == "model", element.namespaceURI == xformsNamespace {
            var first = true
            element.forEachChild { child in
                guard child.localName == "instance" else { return }
                if let id = child.attribute("id") { form.instances.insert(id) }
                if first, let data = child.firstChildElement { collect(data, into: &form.nodes, at: []) }
                first = false
            }
        }
        var context = context
        for key in ["nodeset", "ref"] {
            if let value = element.attribute(key), let path = path(value) { context = path }
        }
        if local == "bind", let nodeset = element.attribute("nodeset"), let path = path(nodeset),
            let calculate = element.attribute("calculate")
        {
            form.calculates[path] = calculate
        }
        if local == "bind", let nodeset = element.attribute("nodeset"), let path = path(nodeset),
            let type = element.attribute("type")
        {
            form.types[path] =
                switch type.split(separator: ":").last ?? "" {
                case "date": .date
                case "dateTime": .dateTime
                case "time": .time
                case "int", "integer", "decimal": .number
                default: .string
                }
        }
        var found: [(String, String)] = []
        element.forEachAttribute { attribute in
            let name = attribute.localName
            let namespace = attribute.namespaceKey?.uri
            let isExpression: Bool
            switch (local, name, namespace) {
            case ("bind", "nodeset", nil), ("bind", "relevant", nil), ("bind", "required", nil),
                ("bind", "readonly", nil), ("bind", "constraint", nil), ("bind", "calculate", nil),
                ("itemset", "nodeset", nil), ("output", "value", nil), ("setvalue", "value", nil), (_, "ref", nil),
                ("repeat", "nodeset", nil):
                isExpression = true
            case ("bind", "constraintMsg", XPathFunctionTable.javaRosaNamespace),
                ("bind", "requiredMsg", XPathFunctionTable.javaRosaNamespace):
                // A message is literal text unless it is an itext reference.
                isExpression = attribute.value.hasPrefix("jr:itext(")
            default:
                isExpression = false
            }
            if isExpression { found.append((name, attribute.value)) }
        }
        for (name, value) in found {
            form.expressions.append(
                Expression(
                    text: value, attribute: name, line: element.line, context: context,
                    readsSecondary: inItemset && local != "itemset"))
        }
        element.forEachChild { child in
            walk(child, context: context, inItemset: inItemset || local == "itemset", form: &form)
        }
    }

    private static func collect(_ element: XMLNode, into nodes: inout Set<[String]>, at parent: [String]) {
        let path = parent + [element.localName]
        nodes.insert(path)
        element.forEachChild { collect($0, into: &nodes, at: path) }
    }
}
