import FormModel
import FormRules
import Foundation

/// Maps one XForm onto a form and its rules, in passes over the document: the model (primary
/// instance nodes, secondary instances, itext, binds, first-load actions), then the body
/// (controls, groups, repeats: `XFormMapper+Body`), then the fields (`XFormMapper+Fields`).
/// Refusals are gathered, so one import reports every node that is named but missing.
final class XFormMapper {
    let document: XFormImporter.Document
    var report: XFormReport
    var errors: [ImportError] = []

    /// The nodes of the primary instance in document order, and their elements.
    var nodes: [XFormNode] = []
    var nodeElements: [XFormElement] = []
    /// Node index by path (the first node of a path repeated in the instance).
    var pathIndex: [String: Int] = [:]
    /// The namespaces the form declares: prefix → URI, and the prefix paths use for a URI.
    var namespaces: [String: String] = [:]
    var prefixes: [String: String] = [:]
    /// The primary instance root's namespace: its elements are written without prefix in paths.
    var dataNamespace: String?
    var translations = XFormTranslations()
    var secondaryInstances: [String: XFormInstance] = [:]
    var secondaryElements: [String: XFormElement] = [:]
    var firstLoad: [XFormSetValue] = []
    /// The groups' and repeats' labels given through itext (``XFormRules/headings``).
    var headings: [XFormText] = []
    /// Bind ids (`<bind id>`) → node path, for controls that name their bind (`bind="b1"`).
    var bindIDs: [String: String] = [:]
    /// The questions the body shows, in document order (`XFormMapper+Body`).
    var questions: [Question] = []
    /// The repeats the body shows, by node index.
    var repeats: [Int: RepeatSpec] = [:]

    /// A control that becomes a field.
    struct Question {
        var node: Int
        var element: XFormElement
        /// The labels of the labelled groups around it within its item (or the form), outermost
        /// first.
        var groups: [String]
        /// The repeats it is in, outermost first, by node index.
        var repeats: [Int] = []
    }

    init(_ document: XFormImporter.Document) {
        self.document = document
        report = XFormReport(file: document.name)
    }

    func run() throws(ImportFailure) -> XFormImporter.Output {
        for warning in document.warnings {
            report.warn(.xmlWarning, warning.message, line: warning.line)
        }
        readNamespaces()
        let data = document.data
        let rawID = data.attribute("id")
        let id: String
        if let rawID, !rawID.trimmingCharacters(in: .whitespaces).isEmpty {
            id = FormIDs.slug(rawID)
        } else {
            id = FormIDs.slug(data.localName)
            report.warn(
                .missingFormID,
                "The primary instance root <\(data.localName)> has no id; the form id \"\(id)\" is made from its name. Give the root an id attribute.",
                line: data.line)
        }
        report.form = id
        readNodes(data, parentPath: "")
        checkModelAttributes()
        readTranslations()
        readSecondaryInstances()
        readBinds()
        readActions(in: document.model, context: nil)
        readBody()
        if errors.isEmpty { checkExpressions() }
        guard errors.isEmpty else { throw ImportFailure(errors) }

        let title = readTitle(id: id)
        let schema = settle(form(id: id, title: title))
        guard !schema.allFields.isEmpty else {
            throw ImportFailure([
                ImportError(
                    code: .noQuestions,
                    message:
                        "The form has no question Fieldwork can show (its body holds none, or only controls, repeats or notes left out); a form needs at least one.",
                    file: document.name, line: document.root.line)
            ])
        }
        var rules = XFormRules(
            instanceID: rawID ?? data.localName,
            version: data.attribute("version") ?? data.attribute("version", in: XFormNamespace.openRosa),
            primaryInstance: XFormInstanceWriter.xml(data, defaultNamespace: dataNamespace, prefixes: prefixes),
            namespaces: namespaces, secondaryInstances: secondaryInstances, nodes: nodes, firstLoad: firstLoad,
            translations: translations)
        if !headings.isEmpty { rules.headings = headings }
        try checkOperationLimit(rules)
        return XFormImporter.Output(form: schema, rules: rules, warnings: report.warnings)
    }

    /// Refuses a form with an expression over the evaluation's operation limit on the form's own
    /// defaults, naming the bind: such a rule would fail every submission's evaluation.
    private func checkOperationLimit(_ rules: XFormRules) throws(ImportFailure) {
        guard let judge = try? XFormJudge(rules: rules) else { return }
        let over = judge.expressionsOverLimit(host: XFormHost(rules: rules))
        guard !over.isEmpty else { return }
        throw ImportFailure(
            over.map { owner, expression in
                ImportError(
                    code: .expressionOverLimit,
                    message:
                        "The \(expression.attribute) of \(owner) (\"\(expression.source)\" on <\(expression.element)>, line \(expression.line)) takes more than \(XFormJudge.operationLimit) steps to evaluate; simplify it (fewer nested loops over the form's lists).",
                    file: document.name, line: expression.line, column: expression.column)
            })
    }

    // MARK: Head and namespaces

    /// The namespaces declared on the elements that frame the form (root, head, model, primary
    /// instance root, body); the first prefix declared for a URI is the one paths use.
    private func readNamespaces() {
        var framing = [document.root, document.head, document.model, document.primaryInstance, document.data]
        if let body = document.root.child("body", in: XFormNamespace.xhtml) { framing.append(body) }
        for element in framing {
            for (prefix, uri) in document.source.namespaceDeclarations(of: element.ordinal) {
                if namespaces[prefix] == nil { namespaces[prefix] = uri }
                if !prefix.isEmpty, prefixes[uri] == nil { prefixes[uri] = prefix }
            }
        }
        dataNamespace = document.data.namespaceURI
    }

    private func readTitle(id: String) -> String {
        let title = document.head.child("title", in: XFormNamespace.xhtml).map {
            Self.trimmed(XFormSegment.joined(segments(of: $0), placeholder: XFormImporter.outputPlaceholder))
        }
        if let title, !title.isEmpty { return title }
        report.warn(
            .missingTitle, "The form has no <h:title>; its id \"\(id)\" is its title. Give the form a title.",
            line: document.head.line)
        return id
    }

    // MARK: Primary instance

    /// The prefix a path writes for an element or step in namespace `uri`.
    func pathPrefix(for uri: String?) -> String {
        guard let uri, uri != dataNamespace else { return "" }
        if let prefix = prefixes[uri] { return prefix + ":" }
        if XFormNamespace.isOpenRosa(uri) {
            if let prefix = prefixes[XFormNamespace.openRosa] ?? prefixes[XFormNamespace.openRosa + "/"] {
                return prefix + ":"
            }
        }
        return (XFormNamespace.knownPrefix(uri).map { $0.isEmpty ? "" : $0 } ?? "ns") + ":"
    }

    private func readNodes(_ element: XFormElement, parentPath: String) {
        let path = parentPath + "/" + pathPrefix(for: element.namespaceURI) + element.localName
        let isGroup = !element.children.isEmpty
        let index = nodes.count
        nodes.append(XFormNode(path: path, type: isGroup ? nil : "string", isGroup: isGroup, line: element.line))
        nodeElements.append(element)
        if pathIndex[path] == nil { pathIndex[path] = index }
        for child in element.children { readNodes(child, parentPath: path) }
    }

    /// The node a `ref` or `nodeset` names: an absolute path, or one relative to `context` (a
    /// group's path; the instance root when nil), steps with any prefix bound to the node's
    /// namespace. Nil when it names no node of the primary instance.
    func resolve(_ ref: String, context: String?) -> Int? {
        var text = ref.trimmingCharacters(in: .whitespacesAndNewlines)
        while text.count > 1 && text.hasSuffix("/") { text.removeLast() }
        guard !text.isEmpty else { return nil }
        var steps: [String] = []
        if !text.hasPrefix("/") {
            let base = context ?? nodes.first?.path ?? ""
            steps = base.split(separator: "/").map(String.init)
        }
        for step in text.split(separator: "/", omittingEmptySubsequences: false).dropFirst(text.hasPrefix("/") ? 1 : 0)
        {
            let step = step.trimmingCharacters(in: .whitespaces)
            switch step {
            case ".": continue
            case "..":
                guard !steps.isEmpty else { return nil }
                steps.removeLast()
            case "": return nil
            default:
                if let colon = step.firstIndex(of: ":") {
                    let prefix = String(step[..<colon])
                    guard let uri = namespaces[prefix] else { return nil }
                    steps.append(pathPrefix(for: uri) + step[step.index(after: colon)...])
                } else {
                    steps.append(step)
                }
            }
        }
        return pathIndex["/" + steps.joined(separator: "/")]
    }

    // MARK: Binds

    private func readBinds() {
        for bind in document.model.children("bind", in: XFormNamespace.xforms) {
            checkAttributes(
                bind,
                known: [
                    "nodeset", "ref", "type", "relevant", "required", "readonly", "constraint", "calculate", "id",
                    "saveIncomplete", "jr:constraintMsg", "jr:requiredMsg", "jr:preload", "jr:preloadParams",
                ])
            let attribute = bind.attribute("nodeset") != nil ? "nodeset" : "ref"
            guard let nodeset = bind.attribute(attribute) else {
                refuseMissingNode(bind, attribute: "nodeset", ref: nil)
                continue
            }
            guard let index = resolve(nodeset, context: nil) else {
                refuseMissingNode(bind, attribute: attribute, ref: nodeset)
                continue
            }
            if let id = bind.attribute("id") { bindIDs[id] = nodes[index].path }
            var found = nodes[index].bind ?? XFormBind(line: bind.line)
            found.line = bind.line
            for name in ["relevant", "required", "readonly", "constraint", "calculate"] {
                guard let value = bind.attribute(name) else { continue }
                let expression = self.expression(value, in: bind, attribute: name)
                switch name {
                case "relevant": found.relevant = expression
                case "required": found.required = expression
                case "readonly": found.readonly = expression
                case "constraint": found.constraint = expression
                default: found.calculate = expression
                }
            }
            if let message = bind.attribute("constraintMsg", in: XFormNamespace.javaRosa) {
                found.constraintMessage = messageText(message)
            }
            if let message = bind.attribute("requiredMsg", in: XFormNamespace.javaRosa) {
                found.requiredMessage = messageText(message)
            }
            nodes[index].bind = found
            if let type = bind.attribute("type"), !nodes[index].isGroup {
                nodes[index].type = Self.typeName(type, namespaces: namespaces)
            }
            if let preload = bind.attribute("preload", in: XFormNamespace.javaRosa) {
                let params = bind.attribute("preloadParams", in: XFormNamespace.javaRosa)
                nodes[index].preload = XFormPreload(preload: preload, params: params)
                if !Self.isFilled(preload: preload, params: params) {
                    let what = params.map { "\(preload) \($0)" } ?? preload
                    report.warn(
                        .preloadNotFilled,
                        "The preload \"\(what)\" of \(nodes[index].path) is not filled by the server; the node stays empty.",
                        line: bind.line)
                }
            }
        }
    }

    /// A bind type without its XML Schema prefix (`xsd:int` → `int`); the legacy `datetime` is `dateTime`.
    static func typeName(_ type: String, namespaces: [String: String]) -> String {
        var name = type.trimmingCharacters(in: .whitespaces)
        if let colon = name.firstIndex(of: ":") {
            let prefix = String(name[..<colon])
            if namespaces[prefix] == XFormNamespace.xmlSchema || prefix == "xsd" || prefix == "xs" {
                name = String(name[name.index(after: colon)...])
            }
        }
        return name == "datetime" ? "dateTime" : name
    }

    /// Whether the server fills a preload (the mapping's "Preloads and meta").
    static func isFilled(preload: String, params: String?) -> Bool {
        switch (preload, params) {
        case ("uid", _): true
        case ("timestamp", "start"?), ("timestamp", "end"?): true
        case ("date", "today"?): true
        case ("property", "username"?), ("property", "email"?): true
        default: false
        }
    }

    /// `jr:constraintMsg` / `jr:requiredMsg`: literal, or `jr:itext('id')`.
    private func messageText(_ value: String) -> XFormText {
        if let id = Self.itextID(value) { return XFormText(itext: id) }
        return .literal(value)
    }

    /// The id in `jr:itext('id')` (or `"id"`), whatever the prefix bound to the JavaRosa namespace.
    func itextIDReference(_ value: String) -> String? {
        Self.itextID(value)
    }

    static func itextID(_ value: String) -> String? {
        let text = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasSuffix(")"), let open = text.firstIndex(of: "(") else { return nil }
        let function = text[..<open].trimmingCharacters(in: .whitespaces)
        guard function == "itext" || function.hasSuffix(":itext") else { return nil }
        let argument = text[text.index(after: open)..<text.index(before: text.endIndex)]
            .trimmingCharacters(in: .whitespaces)
        guard argument.count >= 2, let quote = argument.first, quote == "'" || quote == "\"",
            argument.last == quote
        else { return nil }
        return String(argument.dropFirst().dropLast())
    }

    /// An expression held by an attribute, with where it is written.
    func expression(_ source: String, in element: XFormElement, attribute: String) -> XFormExpression {
        let at = document.source.position(of: element.ordinal, attribute: attribute)
        return XFormExpression(
            source: source, element: element.localName, attribute: attribute, line: at?.line ?? element.line,
            column: at?.column ?? 0)
    }

    /// Refuses a bind or control whose `ref`/`nodeset` matches no node, at the attribute.
    func refuseMissingNode(_ element: XFormElement, attribute: String, ref: String?) {
        let at = document.source.position(of: element.ordinal, attribute: ref == nil ? nil : attribute)
        let what = element.localName == "bind" ? "The bind" : "The <\(element.localName)>"
        let message =
            ref.map {
                "\(what) \(attribute) \"\($0)\" matches no node of the primary instance (its root is \(nodes.first?.path ?? "?")); fix the path or add the node to the instance."
            } ?? "\(what) names no node: give it a \(attribute)."
        errors.append(
            ImportError(
                code: .unknownNode, message: message, file: document.name, line: at?.line ?? element.line,
                column: at?.column ?? 0))
    }

    // MARK: Secondary instances

    private func readSecondaryInstances() {
        for instance in document.model.children("instance", in: XFormNamespace.xforms).dropFirst() {
            checkAttributes(instance, known: ["id", "src"])
            guard let id = instance.attribute("id") else {
                report.warn(
                    .mappingDropped, "A secondary <instance> has no id, so nothing can read it; left out.",
                    line: instance.line)
                continue
            }
            if let src = instance.attribute("src") {
                secondaryInstances[id] = XFormInstance(src: src, line: instance.line)
                report.warn(
                    .externalInstance,
                    "The instance '\(id)' is loaded from \(src), which is never fetched: the options it gives stay empty until an admin uploads the file for this form.",
                    line: instance.line)
            } else if let content = instance.children.first {
                secondaryElements[id] = instance
                secondaryInstances[id] = XFormInstance(
                    xml: XFormInstanceWriter.xml(content, defaultNamespace: content.namespaceURI, prefixes: prefixes),
                    line: instance.line)
            } else {
                secondaryInstances[id] = XFormInstance(xml: "", line: instance.line)
            }
        }
    }

    // MARK: Actions

    /// `setvalue` (and `odk:setgeopoint`) among an element's children: first-load ones set their
    /// target's default; the others are left out with a warning.
    func readActions(in parent: XFormElement, context: String?) {
        for action in parent.children {
            let isSetValue = action.isElement("setvalue", in: XFormNamespace.xforms)
            let isGeopoint = action.isElement("setgeopoint", in: XFormNamespace.odk)
            guard isSetValue || isGeopoint else { continue }
            checkAttributes(action, known: ["ref", "event", "value", "bind"])
            let event = action.attribute("event") ?? ""
            let refAttribute = action.attribute("ref") != nil ? "ref" : "bind"
            let ref = action.attribute("ref") ?? action.attribute("bind").flatMap { bindIDs[$0] }
            let target = ref.flatMap { resolve($0, context: context) }
            if ref != nil, target == nil {
                refuseMissingNode(action, attribute: refAttribute, ref: action.attribute(refAttribute))
                continue
            }
            let events = event.split(separator: " ").map(String.init)
            if isSetValue, events.contains("odk-instance-first-load"), let target {
                firstLoad.append(
                    XFormSetValue(
                        target: nodes[target].path,
                        value: action.attribute("value").map { expression($0, in: action, attribute: "value") },
                        literal: action.attribute("value") == nil ? action.text : nil,
                        event: "odk-instance-first-load"))
                if events.count > 1 {
                    report.warn(
                        .actionUnsupported,
                        "The setvalue on \(nodes[target].path) runs on first load only; its other events (\(events.filter { $0 != "odk-instance-first-load" }.joined(separator: ", "))) are left out.",
                        line: action.line)
                }
            } else {
                let name = isGeopoint ? "odk:setgeopoint" : "setvalue"
                let on = target.map { " on \(nodes[$0].path)" } ?? ""
                report.warn(
                    .actionUnsupported,
                    "The \(name)\(on) (event \"\(event)\") is not supported and was left out; only setvalue on odk-instance-first-load is.",
                    line: action.line)
            }
        }
    }

    // MARK: Attributes and elements left out

    /// The model's own attributes and its elements the mapping does not read.
    private func checkModelAttributes() {
        checkAttributes(document.model, known: ["odk:xforms-version", "id", "functions", "schema"])
        checkAttributes(document.primaryInstance, known: ["id", "src"])
        for child in document.model.children {
            switch (child.namespaceURI, child.localName) {
            case (XFormNamespace.xforms?, "instance"), (XFormNamespace.xforms?, "bind"),
                (XFormNamespace.xforms?, "itext"), (XFormNamespace.xforms?, "setvalue"),
                (XFormNamespace.odk?, "setgeopoint"), (XFormNamespace.xforms?, "action"):
                continue
            case (XFormNamespace.xforms?, "submission"):
                report.warn(
                    .actionUnsupported,
                    "The <submission> (where and how a client sends, encryption) is not used: Fieldwork stores submissions itself.",
                    line: child.line)
            default:
                unknownElement(child)
            }
        }
    }

    /// Warns of attributes an element carries that the mapping does not read, counted by name.
    /// `known` names them as `name` (no namespace) or `jr:name`, `odk:name`, `orx:name`, `ev:name`.
    func checkAttributes(_ element: XFormElement, known: Set<String>) {
        for attribute in element.attributes {
            let key: String
            if let prefix = XFormNamespace.knownPrefix(attribute.namespaceURI) {
                key = prefix.isEmpty ? attribute.localName : prefix + ":" + attribute.localName
            } else {
                key = "{\(attribute.namespaceURI ?? "")}" + attribute.localName
            }
            guard !known.contains(key) else { continue }
            let shown = qualifiedName(attribute.localName, uri: attribute.namespaceURI)
            let place = element.localName
            report.tally(.unknownAttribute, key: shown + "\u{0}" + place, line: element.line) { count in
                "The attribute \(shown) on <\(place)> is not supported and was ignored\(Self.times(count))."
            }
        }
    }

    /// Warns of an element the mapping does not read, counted by name.
    func unknownElement(_ element: XFormElement) {
        let shown = qualifiedName(element.localName, uri: element.namespaceURI)
        let namespace = element.namespaceURI.map { " (namespace \($0))" } ?? " (no namespace)"
        report.tally(.unknownElement, key: shown + namespace, line: element.line) { count in
            "The element <\(shown)>\(namespace) is not supported and was left out\(Self.times(count))."
        }
    }

    /// A name with the prefix the form declares for its namespace.
    func qualifiedName(_ local: String, uri: String?) -> String {
        guard let uri else { return local }
        if let prefix = prefixes[uri] { return prefix + ":" + local }
        return "{\(uri)}" + local
    }

    /// "" for one occurrence, " (3 times)" for more.
    static func times(_ count: Int) -> String {
        count == 1 ? "" : " (\(count) times)"
    }

    static func trimmed(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
