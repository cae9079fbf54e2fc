import FormModel
import FormXML

/// What makes a document OData service metadata (EDMX) and which OData version it is: the OData
/// importer's answers to `FormImporter`, which knows nothing of EDMX. It asks whether the OData
/// importer takes a root element (`takes`), parses the document once into the lean tree, and lets
/// this tell the version and role of what it parsed, or refuse it in EDMX's words (`recognise`).
enum EDMXRecognizer {
    /// Whether the OData importer takes a document whose root element is this: any `Edmx`, in
    /// any namespace or none, so that a sloppy root is read, or refused as EDMX, here.
    static func takes(_ root: XMLRootElement) -> Bool {
        root.localName == "Edmx"
    }

    /// How an EDMX document starts, for the refusal of a root no importer takes.
    static let expectedRoot = "<edmx:Edmx> (OData metadata)"

    /// A parsed document with an `Edmx` root, ready for `ODataImporter`: its OData version
    /// (`version(of:)`) and whether it is metadata or annotations (`EDMXRole`); throws an
    /// `unknown-format` refusal when it is not OData metadata, saying how to make it so.
    static func recognise(_ xml: LeanXMLDocument, name: String) throws(ImportFailure) -> ODataImporter.Document {
        if let found = xml.withRoot({ version(of: $0) }) {
            return ODataImporter.Document(name: name, xml: xml, version: found, role: xml.withRoot(EDMXRole.of))
        }
        let (root, holds) = xml.withRoot {
            (
                XMLRootElement(localName: $0.localName, namespaceURI: $0.namespaceURI, line: $0.line),
                holdsDataServices($0)
            )
        }
        let namespaces = "V2: \(ODataNamespace.edmxV2); V4: \(ODataNamespace.edmxV4)"
        let why =
            holds
            ? ", which is no OData EDMX namespace (\(namespaces)), and neither its Version nor its schemas say which OData version it is. Bind the edmx prefix to one of those namespaces, or give the root Version=\"1.0\" (V2) or Version=\"4.0\" (V4)."
            : ", which is no OData EDMX namespace (\(namespaces)), and it holds no <DataServices>: it is not OData service metadata. (An Entity Framework designer file is not either: import the service's $metadata document.)"
        throw ImportFailure([ImportError.unknownFormat(root, why, file: name)])
    }

    /// The OData version of an `Edmx` root: its namespace says it. A sloppy root, in no
    /// namespace or in one of no OData version, is still EDMX when it holds a `DataServices`;
    /// its `Version` says which (`1.0` to `3.0`: V2, `4.0` and `4.01`: V4), or failing that,
    /// the EDM namespace of its schemas. The OData reader warns of what was assumed
    /// (`assumed-namespace`). Nil: not OData metadata.
    static func version(of root: XMLNode) -> CSDLDocument.Version? {
        guard root.hasLocalName("Edmx") else { return nil }
        switch root.namespaceURI {
        case ODataNamespace.edmxV2?: return .v2
        case ODataNamespace.edmxV4?: return .v4
        default: break
        }
        guard holdsDataServices(root) else { return nil }
        var schemaNamespaces: [String] = []
        root.forEachChild { dataServices in
            guard dataServices.hasLocalName("DataServices") else { return }
            dataServices.forEachChild { schema in
                if schema.hasLocalName("Schema"), let uri = schema.namespaceURI { schemaNamespaces.append(uri) }
            }
        }
        switch root.attribute("Version") {
        case "1.0", "2.0", "3.0": return .v2
        case "4.0", "4.01": return .v4
        default:
            if schemaNamespaces.contains(ODataNamespace.edmV4) { return .v4 }
            return schemaNamespaces.contains(where: ODataNamespace.edm.contains) ? .v2 : nil
        }
    }

    /// Whether a root holds a `DataServices`, in any namespace: what makes a sloppy `Edmx` EDMX.
    private static func holdsDataServices(_ root: XMLNode) -> Bool {
        var found = false
        root.forEachChild { if $0.hasLocalName("DataServices") { found = true } }
        return found
    }
}
