import Foundation

/// Writes an instance (primary or secondary) as XML text: elements of the instance's default
/// namespace in no namespace, as XPath over it expects (`/data/age`, `instance('x')/root/item`);
/// elements and attributes of other namespaces with the form's prefix, declared on the root.
enum XFormInstanceWriter {
    /// - Parameters:
    ///   - root: the instance's root element.
    ///   - defaultNamespace: the namespace whose elements are written without one.
    ///   - prefixes: the form's prefix for each namespace it declares.
    static func xml(_ root: XFormElement, defaultNamespace: String?, prefixes: [String: String]) -> String {
        var used: [String] = []
        var generated: [String: String] = [:]
        func name(_ local: String, _ uri: String?, isAttribute: Bool) -> String {
            guard let uri, isAttribute || uri != defaultNamespace else { return local }
            if !used.contains(uri) { used.append(uri) }
            if let prefix = prefixes[uri] { return prefix + ":" + local }
            if generated[uri] == nil { generated[uri] = "ns\(generated.count + 1)" }
            return generated[uri]! + ":" + local
        }
        func write(_ element: XFormElement, into out: inout String) {
            out += "<" + name(element.localName, element.namespaceURI, isAttribute: false)
            for attribute in element.attributes {
                out += " " + name(attribute.localName, attribute.namespaceURI, isAttribute: true) + "=\""
                out += escape(attribute.value, attribute: true) + "\""
            }
            if element.ordinal == root.ordinal { out += "\u{0}" }
            if element.children.isEmpty && element.text.isEmpty {
                out += "/>"
                return
            }
            out += ">" + escape(element.text, attribute: false)
            for child in element.children { write(child, into: &out) }
            out += "</" + name(element.localName, element.namespaceURI, isAttribute: false) + ">"
        }
        var body = ""
        write(root, into: &body)
        // The declarations of the namespaces used, on the root, where the marker stands.
        let declarations = used.map { uri in
            " xmlns:\(prefixes[uri] ?? generated[uri]!)=\"\(escape(uri, attribute: true))\""
        }.joined()
        return body.replacingOccurrences(of: "\u{0}", with: declarations)
    }

    /// Text or an attribute value with the characters XML needs escaped.
    static func escape(_ text: String, attribute: Bool) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where attribute: out += "&quot;"
            case "\n" where attribute: out += "&#10;"
            case "\t" where attribute: out += "&#9;"
            default: out.append(character)
            }
        }
        return out
    }
}
