/// The rules of a form imported from an ODK XForm, beside its `FormSchema`: everything the server
/// needs to judge a submission and to store it as ODK tools expect (docs: the XForms mapping,
/// "Evaluation" and "Storage"). The importer writes it; expressions are kept as written (raw
/// XPath), each with where it stands, for the expression layer to parse, check and evaluate.
/// Plain data, kept as JSON with the form version, like `ServiceBinding`.
public struct XFormRules: Codable, Sendable, Hashable {
    /// The primary instance root's `id` as written (the form id is its slug).
    public var instanceID: String
    /// The form version: the root's `version`, else `orx:version`; nil when neither is given.
    public var version: String?
    /// The primary instance as XML text, with the defaults as written: the template of every
    /// submission's instance. Elements of the form's default namespace are in no namespace;
    /// others (`orx:meta`) keep theirs, declared on the root.
    public var primaryInstance: String
    /// The namespaces the form declares, by prefix (`""` for the default namespace).
    public var namespaces: [String: String]
    /// Read-only data reachable through `instance('id')`, by id.
    public var secondaryInstances: [String: XFormInstance]
    /// Every node of the primary instance, in document order (the root first).
    public var nodes: [XFormNode]
    /// `setvalue` actions on `odk-instance-first-load`, in document order: each target's default,
    /// computed when the form is shown.
    public var firstLoad: [XFormSetValue]
    /// The itext table.
    public var translations: XFormTranslations
    /// The translated labels of the body's groups and repeats (given through itext), in
    /// document order: a page in another language heads its groups and item lists with them.
    /// Nil for rules imported before they were kept, or a form without.
    public var headings: [XFormText]?

    public init(
        instanceID: String, version: String? = nil, primaryInstance: String, namespaces: [String: String] = [:],
        secondaryInstances: [String: XFormInstance] = [:], nodes: [XFormNode], firstLoad: [XFormSetValue] = [],
        translations: XFormTranslations = XFormTranslations()
    ) {
        self.instanceID = instanceID
        self.version = version
        self.primaryInstance = primaryInstance
        self.namespaces = namespaces
        self.secondaryInstances = secondaryInstances
        self.nodes = nodes
        self.firstLoad = firstLoad
        self.translations = translations
    }

    /// The node at an absolute path (`/data/group/age`), if any.
    public func node(at path: String) -> XFormNode? {
        nodes.first { $0.path == path }
    }

    /// The node a field of the form stands for, if any (not an item's, whose names are its own).
    public func node(forField name: String) -> XFormNode? {
        nodes.first { $0.field == name && repeats(around: $0).isEmpty }
    }

    /// The repeats a node is in, outermost first (not the node itself).
    public func repeats(around node: XFormNode) -> [XFormNode] {
        nodes.filter { $0.repeat != nil && $0.leftOut == nil && node.path.hasPrefix($0.path + "/") }
    }

    /// The names of the item lists a node's repeats are, outermost first.
    public func repeatLists(around node: XFormNode) -> [String] {
        repeats(around: node).compactMap { $0.repeat?.list }
    }

    /// A field node's name as the form's rules name it for every item at once
    /// (``ItemList/ruleKey(_:)``): `members[].age`; a form's own field's name; nil for no field.
    public func ruleKey(of node: XFormNode) -> String? {
        node.field.map { field in repeatLists(around: node).map { "\($0)[]." }.joined() + field }
    }

    /// The field a node stands for, a form's or an item's (through its repeats' lists).
    public func field(of node: XFormNode, in schema: FormSchema) -> Field? {
        guard let name = node.field else { return nil }
        let around = repeatLists(around: node)
        guard !around.isEmpty else { return schema.field(named: name) }
        var lists = schema.itemLists
        var list: ItemList?
        for name in around {
            list = lists.first { $0.name == name }
            lists = list?.lists ?? []
        }
        return list?.fields.flatMap { [$0] + ($0.children ?? []) }.first { $0.name == name }
    }

    /// Field name by node path, for the nodes that are the form's fields (not an item's).
    public var fieldNames: [String: String] {
        var names: [String: String] = [:]
        for node in nodes where repeats(around: node).isEmpty {
            if let field = node.field { names[node.path] = field }
        }
        return names
    }
}

/// A secondary instance: inline XML, or a file the form names but never ships (`src`).
public struct XFormInstance: Codable, Sendable, Hashable {
    /// The instance's content as XML text (its root element, in no namespace), when inline.
    public var xml: String?
    /// Where an external instance lives (`jr://file/cities.xml`, `jr://instance/last-saved`): never
    /// fetched; its options are empty until an admin uploads the file.
    public var src: String?
    /// 1-based line of the `<instance>` element.
    public var line: Int

    public init(xml: String? = nil, src: String? = nil, line: Int) {
        self.xml = xml
        self.src = src
        self.line = line
    }
}

/// A `setvalue` action: the target node gets `value` (an expression) or the literal text.
public struct XFormSetValue: Codable, Sendable, Hashable {
    /// The target node's absolute path.
    public var target: String
    /// The `value` attribute, an expression; nil when the element's text gives the value.
    public var value: XFormExpression?
    /// The element's text, a literal value, when there is no `value` attribute.
    public var literal: String?
    /// The event it runs on (`odk-instance-first-load`).
    public var event: String

    public init(target: String, value: XFormExpression? = nil, literal: String? = nil, event: String) {
        self.target = target
        self.value = value
        self.literal = literal
        self.event = event
    }
}

/// An XPath expression as the form writes it, and where: the element and attribute that hold it.
public struct XFormExpression: Codable, Sendable, Hashable, CustomStringConvertible {
    /// The expression as written (entities decoded, otherwise untouched).
    public var source: String
    /// The local name of the element holding it (`bind`, `itemset`, `output`, `setvalue`).
    public var element: String
    /// The attribute holding it (`relevant`, `constraint`, `nodeset`, `value`...).
    public var attribute: String
    /// 1-based line of the attribute's name (else of its element).
    public var line: Int
    /// 1-based column of the attribute's name, 0 when unknown.
    public var column: Int
    /// The expression as the server evaluates it: parsed, checked and printed again with its
    /// date and time operands rewritten to compare and subtract as days (set by the importer).
    /// Nil when the rule is not enforced (`notEnforced` says why) or not checked yet.
    public var compiled: String?
    /// Why the server does not enforce this rule (a function it does not evaluate); nil when it does.
    public var notEnforced: String?
    /// The nodes of the primary instance it reads, by path as `XFormNode.path` writes them
    /// (set by the importer): what orders the binds when a submission is judged.
    public var reads: [String]?

    public init(source: String, element: String, attribute: String, line: Int, column: Int = 0) {
        self.source = source
        self.element = element
        self.attribute = attribute
        self.line = line
        self.column = column
    }

    /// `relevant="…" (bind, line 12)`.
    public var description: String { "\(attribute)=\"\(source)\" (\(element), line \(line))" }
}
