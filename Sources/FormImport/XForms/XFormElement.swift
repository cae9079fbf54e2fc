import FormXML

/// An element of an XForm, copied out of the lean tree (`XMLNode`) once, so that the importer
/// can hold, compare and revisit elements freely. `ordinal` is its start tag's place in the
/// document (0 for the root), which `XFormSource` uses to read what the lean tree does not keep:
/// text mixed with `<output>`s, columns, namespace declarations.
final class XFormElement {
    struct Attribute {
        var namespaceURI: String?
        var localName: String
        var value: String
    }

    let localName: String
    let namespaceURI: String?
    /// 1-based line of the start tag.
    let line: Int
    let ordinal: Int
    let attributes: [Attribute]
    /// The element's own text (its text children joined, no descendants' text).
    let text: String
    private(set) var children: [XFormElement] = []

    private init(_ node: XMLNode, ordinal: inout Int) {
        localName = node.localName
        namespaceURI = node.namespaceURI
        line = node.line
        self.ordinal = ordinal
        ordinal += 1
        var attributes: [Attribute] = []
        node.forEachAttribute { attribute in
            attributes.append(
                Attribute(
                    namespaceURI: attribute.namespaceKey?.uri, localName: attribute.localName, value: attribute.value))
        }
        self.attributes = attributes
        text = node.ownText
        var children: [XFormElement] = []
        node.forEachChild { children.append(XFormElement($0, ordinal: &ordinal)) }
        self.children = children
    }

    /// Copies a document's tree; returns the root and the number of elements.
    static func copy(_ xml: LeanXMLDocument) -> (root: XFormElement, count: Int) {
        var count = 0
        let root = xml.withRoot { XFormElement($0, ordinal: &count) }
        return (root, count)
    }

    /// Whether the element is `name` in namespace `uri`.
    func isElement(_ name: String, in uri: String) -> Bool {
        localName == name && namespaceURI == uri
    }

    /// The value of an attribute in no namespace.
    func attribute(_ name: String) -> String? {
        attributes.first { $0.namespaceURI == nil && $0.localName == name }?.value
    }

    /// The value of an attribute in a namespace (`orx` also with its trailing `/`).
    func attribute(_ name: String, in uri: String) -> String? {
        attributes.first { attribute in
            attribute.localName == name
                && (attribute.namespaceURI == uri
                    || (XFormNamespace.isOpenRosa(uri) && XFormNamespace.isOpenRosa(attribute.namespaceURI)))
        }?.value
    }

    /// The first child named `name` in namespace `uri`.
    func child(_ name: String, in uri: String) -> XFormElement? {
        children.first { $0.isElement(name, in: uri) }
    }

    /// Every child named `name` in namespace `uri`, in order.
    func children(_ name: String, in uri: String) -> [XFormElement] {
        children.filter { $0.isElement(name, in: uri) }
    }
}
