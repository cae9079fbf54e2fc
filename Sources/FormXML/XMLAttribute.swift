/// One attribute of an element of a libxml2 tree (`SafeXMLElement.attributes`).
public struct XMLAttribute: Sendable, Hashable {
    public var namespaceURI: String?
    public var localName: String
    public var value: String

    public init(namespaceURI: String?, localName: String, value: String) {
        self.namespaceURI = namespaceURI
        self.localName = localName
        self.value = value
    }
}
