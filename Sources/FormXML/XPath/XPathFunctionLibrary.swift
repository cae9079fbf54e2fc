internal import CLibXML2
import Foundation

/// The ODK function library on a context: the functions of ``ODKFunctions`` that are ours,
/// registered on each evaluation context as `@convention(c)` callbacks running `XPathFunctions`
/// through `XPathCall.run`; libxml2's own stay as they are.
public enum XPathFunctionLibrary {
    /// The names this library registers, `jr:`-prefixed for those in the JavaRosa namespace.
    /// Together with `coreNames`, every function an expression may call.
    public static let names: Set<String> = Set(
        ODKFunctions.all.filter { $0.implementation != nil }.map(\.qualifiedName))

    /// XPath 1.0's core functions that libxml2 provides and this library leaves as they are.
    public static let coreNames: Set<String> = Set(ODKFunctions.all.filter { $0.implementation == nil }.map(\.name))

    /// Registers the library and the namespace prefixes on a new context.
    static func register(on context: xmlXPathContextPtr, namespaces: [String: String]) {
        for (prefix, uri) in namespaces {
            LibXML2.withXMLChars(prefix, uri) { _ = xmlXPathRegisterNs(context, $0, $1) }
        }
        for entry in ODKFunctions.all {
            guard let implementation = entry.implementation else { continue }
            LibXML2.withXMLChars(entry.name) { name in
                if let uri = entry.namespaceURI {
                    _ = LibXML2.withXMLChars(uri) { xmlXPathRegisterFuncNS(context, name, $0, implementation.function) }
                } else {
                    if implementation.replacesBuiltIn { _ = xmlXPathRegisterFunc(context, name, nil) }
                    _ = xmlXPathRegisterFunc(context, name, implementation.function)
                }
            }
        }
    }
}
