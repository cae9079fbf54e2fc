import FormXML

/// The namespaces of an XForm. Elements and attributes are matched by namespace URI, never by
/// prefix: a form may bind any prefix to these. Those expressions use too are the evaluator's
/// (`XPathNamespaces`), written once.
enum XFormNamespace {
    static let xhtml = "http://www.w3.org/1999/xhtml"
    static let xforms = XPathNamespaces.xforms
    static let javaRosa = XPathNamespaces.javaRosa
    static let odk = XPathNamespaces.odk
    /// `orx`; also written with a trailing `/` (`isOpenRosa`).
    static let openRosa = XPathNamespaces.openRosa
    static let events = "http://www.w3.org/2001/xml-events"
    static let xmlSchema = "http://www.w3.org/2001/XMLSchema"

    /// Whether a URI is `orx`, with or without its trailing `/`.
    static func isOpenRosa(_ uri: String?) -> Bool {
        uri == openRosa || uri == openRosa + "/"
    }

    /// The short name the mapping uses for a namespace it knows (`jr`, `odk`, `orx`), for
    /// matching attributes by URI through one table; nil for any other.
    static func knownPrefix(_ uri: String?) -> String? {
        switch uri {
        case nil: ""
        case javaRosa?: "jr"
        case odk?: "odk"
        case xforms?: "xf"
        case events?: "ev"
        case let uri? where isOpenRosa(uri): "orx"
        default: nil
        }
    }
}
