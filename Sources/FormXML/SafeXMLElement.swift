internal import CLibXML2
import Foundation

/// One element of a `SafeXMLDocument`; keeps its document alive.
public struct SafeXMLElement {
    public let document: SafeXMLDocument
    private let node: xmlNodePtr

    init(document: SafeXMLDocument, node: xmlNodePtr) {
        self.document = document
        self.node = node
    }

    public var localName: String { LibXML2.string(node.pointee.name) ?? "" }

    public var namespaceURI: String? { node.pointee.ns.flatMap { LibXML2.string($0.pointee.href) } }

    /// 1-based line of the start tag. libxml2 does not keep columns for nodes.
    public var line: Int { Int(xmlGetLineNo(node)) }

    /// The line and column of the start tag, or of one of its attributes' names, read from the
    /// document's text (`SafeXMLDocument.locate`); the line alone when the text does not show it.
    public func location(attribute: String? = nil) -> (line: Int, column: Int) {
        document.locate(line: line, element: localName, attribute: attribute) ?? (line, 0)
    }

    /// The attributes in document order.
    public var attributes: [XMLAttribute] {
        var result: [XMLAttribute] = []
        var attr = node.pointee.properties
        while let a = attr {
            result.append(
                XMLAttribute(
                    namespaceURI: a.pointee.ns.flatMap { LibXML2.string($0.pointee.href) },
                    localName: LibXML2.string(a.pointee.name) ?? "",
                    value: LibXML2.owned(xmlNodeListGetString(node.pointee.doc, a.pointee.children, 1)) ?? ""))
            attr = a.pointee.next
        }
        return result
    }

    /// The value of an attribute in no namespace, as unprefixed attributes are.
    public func attribute(_ name: String) -> String? {
        name.withCString { wanted in
            var attr = node.pointee.properties
            while let a = attr {
                if a.pointee.ns == nil, let n = a.pointee.name,
                    strcmp(UnsafeRawPointer(n).assumingMemoryBound(to: CChar.self), wanted) == 0
                {
                    return LibXML2.attributeValue(a)
                }
                attr = a.pointee.next
            }
            return nil
        }
    }

    /// The child elements in document order (text, comments and processing instructions left out).
    public var children: [SafeXMLElement] {
        var result: [SafeXMLElement] = []
        var child = node.pointee.children
        while let c = child {
            if c.pointee.type == XML_ELEMENT_NODE { result.append(SafeXMLElement(document: document, node: c)) }
            child = c.pointee.next
        }
        return result
    }

    /// All text inside the element.
    public var textContent: String { LibXML2.owned(xmlNodeGetContent(node)) ?? "" }
}
