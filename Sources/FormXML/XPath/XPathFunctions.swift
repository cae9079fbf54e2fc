internal import CLibXML2

/// The ODK functions (the XForms mapping's "Functions" table), each a function of one
/// `XPathCall`, registered on every evaluation context by `XPathFunctionLibrary`. ODK's
/// semantics as JavaRosa (ODK Collect) implements them, except where a comment says otherwise.
/// The groups are in extensions: control and instances here, then strings, numbers, selects
/// and dates.
enum XPathFunctions {
    /// `if(c, a, b)`: `a` when `boolean(c)`, else `b`, each as it is (a node-set stays one).
    /// Both branches have been evaluated already: libxml2 evaluates arguments first.
    static func choose(_ call: XPathCall) -> XPathCall.Result {
        .argument(call.boolean(0) ? 1 : 2)
    }

    /// `coalesce(a, b)`: `a` unless it is empty ("" or NaN; a node-set by its first node's
    /// value), else `b`; the chosen one as it is.
    static func coalesce(_ call: XPathCall) -> XPathCall.Result {
        .argument(call.isEmptyValue(0) ? 1 : 0)
    }

    /// `once(x)`: the bound node's value when it has one, else `x` (so `once(uuid())` keeps
    /// a value already stored).
    static func once(_ call: XPathCall) -> XPathCall.Result {
        guard let node = call.state.boundNode else { return .argument(0) }
        let value = XPathCall.string(of: node)
        return value.isEmpty ? .argument(0) : .string(value)
    }

    /// `current()`: the node the expression is evaluated for, also inside predicates.
    static func current(_ call: XPathCall) -> XPathCall.Result {
        .nodes(call.state.boundNode.map { [$0] } ?? [])
    }

    /// `instance('id')`: the document node of that secondary instance, so that
    /// `instance('id')/root/item` walks it. An instance the evaluator was not given (an external
    /// one whose file has not been uploaded) is an empty node-set: no options, no error.
    static func instance(_ call: XPathCall) -> XPathCall.Result {
        guard let doc = call.state.secondary[call.string(0)] else { return .nodes([]) }
        return .nodes([xmlNodePtr(OpaquePointer(doc))])
    }

    /// `jr:itext(id)`: the host's text in the default language, "" when there is none.
    static func itext(_ call: XPathCall) -> XPathCall.Result {
        .string(call.state.host.itext(call.string(0)) ?? "")
    }

    /// `jr:choice-name(node, 'ref')`: the label of the option whose value is the node's value,
    /// of the select bound at `ref`; "" when there is none.
    static func choiceName(_ call: XPathCall) -> XPathCall.Result {
        .string(call.state.host.choiceName(value: call.string(0), selectRef: call.string(1)) ?? "")
    }
}
