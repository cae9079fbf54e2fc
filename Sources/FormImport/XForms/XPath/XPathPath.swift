/// A location path: where it starts, then its steps (XPath 1.0 section 2).
struct XPathPath: Hashable, Sendable {
    enum Start: Hashable, Sendable {
        /// `/...`: the root of the primary instance (libxml2 takes the context's document, which is
        /// the primary instance even inside a predicate over a secondary instance, as in ODK).
        case root
        /// A relative path, from the context node.
        case context
        /// Steps after a filter expression: `instance('x')/root/item`, `current()/../a`.
        case expression(XPathExpression)
    }

    var start: Start
    var steps: [XPathStep]
}

/// One step: an axis, a node test and predicates (`child::item[name = 'a']`).
struct XPathStep: Hashable, Sendable {
    var axis: XPathAxis
    var test: XPathNodeTest
    var predicates: [XPathExpression] = []

    /// `child::name`, what a plain name means.
    static func child(_ name: String, prefix: String? = nil, predicates: [XPathExpression] = []) -> XPathStep {
        XPathStep(axis: .child, test: .name(prefix: prefix, local: name), predicates: predicates)
    }

    /// `.`
    static let current = XPathStep(axis: .itself, test: .node)
    /// `..`
    static let parent = XPathStep(axis: .parent, test: .node)
    /// What `//` stands for between two steps.
    static let anyDescendant = XPathStep(axis: .descendantOrSelf, test: .node)
}

/// The thirteen axes of XPath 1.0, named as written before `::`.
enum XPathAxis: String, Hashable, Sendable, CaseIterable {
    case ancestor
    case ancestorOrSelf = "ancestor-or-self"
    case attribute
    case child
    case descendant
    case descendantOrSelf = "descendant-or-self"
    case following
    case followingSibling = "following-sibling"
    case namespace
    case parent
    case preceding
    case precedingSibling = "preceding-sibling"
    /// `self`: a Swift keyword, hence the name.
    case itself = "self"
}

/// What a step selects on its axis.
enum XPathNodeTest: Hashable, Sendable {
    /// A QName: `age`, `orx:meta`.
    case name(prefix: String?, local: String)
    /// `*` or `prefix:*`.
    case anyName(prefix: String?)
    /// `node()`
    case node
    /// `text()`
    case text
    /// `comment()`
    case comment
    /// `processing-instruction()` with its optional literal.
    case processingInstruction(String?)
}
