import FormModel
import FormXML

/// The entry point of every import: recognises each document's format and runs its importer.
public enum FormImporter {
    /// EDMX namespaces of OData V2 (and V1/V3) service metadata.
    public static let edmxV2Namespace = "http://schemas.microsoft.com/ado/2007/06/edmx"
    /// EDMX namespace of OData V4 service metadata.
    public static let edmxV4Namespace = "http://docs.oasis-open.org/odata/ns/edmx"

    /// Imports documents of one format, all or nothing; throws `ImportFailure` listing every error.
    ///
    /// Native specs (`<form xmlns="urn:fieldwork:form:1">`) give one form each, so several may be
    /// imported in one call; their form ids must differ. OData documents (EDMX) are one import:
    /// the service metadata (the first document that declares entity types or containers, else
    /// the first) and the annotation documents, layered in the order given (`ODataImporter`).
    /// Documents of different formats in one call are refused (`mixed-formats`). Every error and
    /// warning carries the document's `name` as `file`.
    public static func importDocuments(_ documents: [ImportDocument]) throws(ImportFailure) -> ImportResult {
        guard !documents.isEmpty else {
            throw ImportFailure([
                ImportError(code: .noDocuments, message: "No document was given; choose a form spec to import.")
            ])
        }
        return try importParsed(documents.map(parse))
    }

    /// A document parsed and recognised, or the errors that stopped it.
    struct ParsedDocument {
        var document: ImportDocument
        var xml: SafeXMLDocument?
        var kind: SourceKind?
        var errors: [ImportError]
        /// For EDMX: service metadata or annotations (`EDMXRole`), decided once, here.
        var role: EDMXRole? = nil
    }

    /// Parses a document once and recognises its format.
    static func parse(_ document: ImportDocument) -> ParsedDocument {
        do {
            // EDMX is read element by element: it needs no libxml2 tree, only a lean one.
            var xml = try SafeXMLDocument.parse(
                document.data, file: document.name, elementsOnly: looksLikeEDMX(document.data))
            if !xml.isLean, xml.rootName?.localName == "Edmx" {
                // EDMX the hint missed (another encoding, a long prolog): parsed again as the
                // OData reader reads it, and as `sniff` reads a sloppy root.
                xml = try SafeXMLDocument.parse(document.data, file: document.name, elementsOnly: true)
            }
            switch sniff(xml, file: document.name) {
            case .success(let kind):
                var parsed = ParsedDocument(document: document, xml: xml, kind: kind, errors: [])
                if kind.importer == .odata { parsed.role = xml.withRoot(EDMXRole.of) }
                return parsed
            case .failure(let error): return ParsedDocument(document: document, xml: nil, kind: nil, errors: [error])
            }
        } catch {
            return ParsedDocument(document: document, xml: nil, kind: nil, errors: error.errors)
        }
    }

    private static func importParsed(_ documents: [ParsedDocument]) throws(ImportFailure) -> ImportResult {
        var errors = documents.flatMap(\.errors)
        // Documents that parsed are still imported, so one call reports the mistakes of all.
        let parsed = documents.compactMap { document in
            document.xml.flatMap { xml in
                document.kind.map { (document: document.document, xml: xml, kind: $0, role: document.role) }
            }
        }
        let importers = Set(parsed.map(\.kind.importer))
        if importers.count > 1 {
            let described = parsed.map { "\($0.document.name) is \($0.kind.displayName)" }
            errors.append(
                ImportError(
                    code: .mixedFormats,
                    message: "The documents mix formats (\(Words.list(described))); import each format separately."))
            throw ImportFailure(errors)
        }
        guard let importer = importers.first else { throw ImportFailure(errors) }
        switch importer {
        case .native:
            let (forms, warnings, importErrors) = importNative(parsed.map { ($0.document, $0.xml) })
            errors += importErrors
            guard errors.isEmpty else { throw ImportFailure(errors) }
            return ImportResult(kind: .native, forms: forms, warnings: warnings, sources: documents.map(\.document))
        case .odata:
            guard errors.isEmpty else { throw ImportFailure(errors) }
            // V2 metadata takes V4 annotation documents: the metadata decides the kind.
            let metadataIndex = parsed.firstIndex { $0.role == .metadata } ?? 0
            var ordered = parsed
            ordered.insert(ordered.remove(at: metadataIndex), at: 0)
            let output = ODataImporter.importDocuments(
                ordered.map {
                    ODataImporter.Document(
                        name: $0.document.name, xml: $0.xml, version: $0.kind == .odataV2 ? .v2 : .v4,
                        role: $0.role ?? .annotations)
                })
            return ImportResult(
                kind: ordered[0].kind, forms: output.forms, warnings: output.warnings, skipped: output.skipped,
                sources: documents.map(\.document))
        }
    }

    /// Imports documents given together, as the command line and the admin page take them: each
    /// native spec is an import of its own; an OData metadata document starts an import that the
    /// annotation documents after it join, in order (`meta.xml anno1.xml anno2.xml`). Returns one
    /// outcome per import, in the order of the documents. Each document is parsed once.
    public static func importBatch(_ documents: [ImportDocument]) -> [ImportOutcome] {
        var outcomes: [ImportOutcome] = []
        var batch: [ParsedDocument] = []
        // The importer of the batch being gathered; nil for a document that did not parse.
        var batchImporter: Importer?
        func flush() {
            guard !batch.isEmpty else { return }
            let result: Result<ImportResult, ImportFailure>
            do {
                result = .success(try importParsed(batch))
            } catch {
                result = .failure(error)
            }
            outcomes.append(ImportOutcome(documents: batch.map(\.document.name), result: result))
            batch = []
        }
        for document in documents {
            let parsed = parse(document)
            switch parsed.role {
            case .annotations? where batchImporter == .odata:
                batch.append(parsed)
            case .annotations?, .metadata?:
                // Metadata starts an import; so do annotations with no metadata before them, which
                // still import (they make no form, and the report says why): only a document that
                // is not well-formed, or not EDMX, is refused.
                flush()
                batch = [parsed]
                batchImporter = .odata
            case nil:
                flush()
                batch = [parsed]
                batchImporter = parsed.kind?.importer
            }
        }
        flush()
        warnFormIDsAgain(&outcomes)
        return outcomes
    }

    /// A form id given by an earlier import of the batch too is stored as that form's next
    /// version, replacing what the earlier import stored for new objects: probably a copied
    /// spec whose id was not changed, so the later import says so.
    private static func warnFormIDsAgain(_ outcomes: inout [ImportOutcome]) {
        var first: [String: String] = [:]
        for index in outcomes.indices {
            guard case .success(var result) = outcomes[index].result else { continue }
            let name = outcomes[index].documents.first ?? ""
            for form in result.forms {
                if let earlier = first[form.id] {
                    result.warnings.append(
                        ImportWarning(
                            code: .formIDAgain,
                            message:
                                "\(earlier) gave the form id \"\(form.id)\" earlier in this import, so this form is stored as its next version; give it an id of its own if it is another form.",
                            file: name, form: form.id))
                } else {
                    first[form.id] = name
                }
            }
            outcomes[index].result = .success(result)
        }
    }

    /// The importers, one case each: a document's `SourceKind` picks one (`SourceKind.importer`),
    /// and every place that treats them differently switches over this, so a new importer (XForms)
    /// is a new case that the compiler leads through them.
    enum Importer: Hashable {
        /// `NativeSpecImporter`: `<form xmlns="urn:fieldwork:form:1">`, one form per document.
        case native
        /// `ODataImporter`: EDMX of V2 or V4, metadata and annotation documents layered into one import.
        case odata

        /// Whether the importer reads the lean element tree (`SafeXMLDocument.withRoot`) rather
        /// than libxml2's (`root`).
        var readsLeanTree: Bool {
            switch self {
            case .native: false
            case .odata: true
            }
        }
    }

    /// Whether the first element of the bytes is named `Edmx` (any prefix); only a hint for parsing.
    static func looksLikeEDMX(_ bytes: [UInt8]) -> Bool {
        var i = 0
        while i < min(bytes.count, 4096) {
            guard let open = bytes[i..<min(bytes.count, 4096)].firstIndex(of: UInt8(ascii: "<")) else { return false }
            i = open + 1
            guard i < bytes.count else { return false }
            if bytes[i] == UInt8(ascii: "?") || bytes[i] == UInt8(ascii: "!") { continue }
            var end = i
            while end < bytes.count, bytes[end] != UInt8(ascii: " "), bytes[end] != UInt8(ascii: ">"),
                bytes[end] != UInt8(ascii: "\n"),
                bytes[end] != UInt8(ascii: "\t"), bytes[end] != UInt8(ascii: "\r"), bytes[end] != UInt8(ascii: "/")
            {
                end += 1
            }
            let name = bytes[i..<end]
            let local = name.lastIndex(of: UInt8(ascii: ":")).map { name[($0 + 1)...] } ?? name
            return local.elementsEqual("Edmx".utf8)
        }
        return false
    }

    /// The OData version of an `Edmx` root: its namespace says it. A sloppy root, in no
    /// namespace or in one of no OData version, is still EDMX when it holds a `DataServices`;
    /// its `Version` says which (`1.0` to `3.0`: V2, `4.0` and `4.01`: V4), or failing that,
    /// the EDM namespace of its schemas. The OData reader warns of what was assumed. Nil: not
    /// OData metadata.
    static func odataKind(of root: XMLNode) -> SourceKind? {
        guard root.hasLocalName("Edmx") else { return nil }
        switch root.namespaceURI {
        case edmxV2Namespace?: return .odataV2
        case edmxV4Namespace?: return .odataV4
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
        case "1.0", "2.0", "3.0": return .odataV2
        case "4.0", "4.01": return .odataV4
        default:
            if schemaNamespaces.contains(ODataNamespace.edmV4) { return .odataV4 }
            return schemaNamespaces.contains(where: ODataNamespace.edm.contains) ? .odataV2 : nil
        }
    }

    /// Whether a root holds a `DataServices`, in any namespace: what makes a sloppy `Edmx` EDMX.
    private static func holdsDataServices(_ root: XMLNode) -> Bool {
        var found = false
        root.forEachChild { if $0.hasLocalName("DataServices") { found = true } }
        return found
    }

    /// Which importer a document's root element calls for.
    static func sniff(_ xml: SafeXMLDocument, file: String) -> Result<SourceKind, ImportError> {
        guard let root = xml.rootName else {
            return .failure(ImportError(code: .malformedXML, message: "The document has no root element.", file: file))
        }
        // Any <form> goes to the native importer, which explains a wrong namespace best.
        if root.localName == "form" { return .success(.native) }
        if let kind = xml.withRoot(odataKind) ?? nil { return .success(kind) }
        let found = "<\(root.localName)>" + (root.namespaceURI.map { " in namespace \($0)" } ?? " in no namespace")
        let namespaces = "V2: \(edmxV2Namespace); V4: \(edmxV4Namespace)"
        let message: String
        if root.localName != "Edmx" {
            message =
                "The root element is \(found); expected <form xmlns=\"\(NativeSpecImporter.namespace)\"> (a native form spec) or <edmx:Edmx> (OData metadata)."
        } else if xml.withRoot(holdsDataServices) == true {
            message =
                "The root element is \(found), which is no OData EDMX namespace (\(namespaces)), and neither its Version nor its schemas say which OData version it is. Bind the edmx prefix to one of those namespaces, or give the root Version=\"1.0\" (V2) or Version=\"4.0\" (V4)."
        } else {
            message =
                "The root element is \(found), which is no OData EDMX namespace (\(namespaces)), and it holds no <DataServices>: it is not OData service metadata. (An Entity Framework designer file is not either: import the service's $metadata document.)"
        }
        return .failure(ImportError(code: .unknownFormat, message: message, file: file, line: root.line))
    }

    /// Imports each native document; form ids must differ across documents.
    private static func importNative(
        _ documents: [(ImportDocument, SafeXMLDocument)]
    ) -> ([FormSchema], [ImportWarning], [ImportError]) {
        var errors: [ImportError] = []
        var forms: [FormSchema] = []
        var warnings: [ImportWarning] = []
        var firstFile: [String: String] = [:]
        for (document, xml) in documents {
            do {
                let (schema, found) = try NativeSpecImporter.importSpec(xml, file: document.name)
                if let other = firstFile[schema.id] {
                    errors.append(
                        ImportError(
                            code: .duplicateFormID,
                            message:
                                "\(document.name) and \(other) both declare the form id \"\(schema.id)\"; give each form its own id.",
                            file: document.name, line: xml.root?.line ?? 0))
                } else {
                    firstFile[schema.id] = document.name
                }
                forms.append(schema)
                warnings += found
            } catch {
                errors += error.errors
            }
        }
        return (forms, warnings, errors)
    }
}

extension SourceKind {
    /// The importer that reads documents of this kind.
    var importer: FormImporter.Importer {
        switch self {
        case .native: .native
        case .odataV2, .odataV4: .odata
        }
    }
}
