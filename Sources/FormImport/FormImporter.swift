import FormModel

/// The entry point of every import: recognises each document's format and runs its importer.
public enum FormImporter {
    /// EDMX namespaces of OData V2 (and V1/V3) service metadata.
    public static let edmxV2Namespace = "http://schemas.microsoft.com/ado/2007/06/edmx"
    /// EDMX namespace of OData V4 service metadata.
    public static let edmxV4Namespace = "http://docs.oasis-open.org/odata/ns/edmx"

    /// Imports documents of one format, all or nothing; throws `ImportFailure` listing every error.
    ///
    /// Native specs (`<form xmlns="urn:fieldwork:form:1">`) give one form each, so several may be
    /// imported in one call; their form ids must differ. OData metadata (EDMX) is recognised but
    /// not imported yet (`odata-not-yet`). Documents of different formats in one call are refused
    /// (`mixed-formats`). Every error and warning carries the document's `name` as `file`.
    public static func importDocuments(_ documents: [ImportDocument]) throws(ImportFailure) -> ImportResult {
        guard !documents.isEmpty else {
            throw ImportFailure([ImportError(code: "no-documents", message: "No document was given; choose a form spec to import.")])
        }
        var errors: [ImportError] = []
        var parsed: [(document: ImportDocument, xml: SafeXMLDocument, kind: SourceKind)] = []
        for document in documents {
            do {
                let xml = try SafeXMLDocument.parse(document.data, file: document.name)
                switch sniff(xml, file: document.name) {
                case .success(let kind): parsed.append((document, xml, kind))
                case .failure(let error): errors.append(error)
                }
            } catch {
                errors += error.errors
            }
        }
        // Documents that parsed are still imported, so one call reports the mistakes of all.
        let kinds = Set(parsed.map(\.kind))
        if kinds.count > 1 {
            let described = parsed.map { "\($0.document.name) is \($0.kind.displayName)" }
            errors.append(
                ImportError(
                    code: "mixed-formats",
                    message: "The documents mix formats (\(Words.list(described))); import each format separately."))
            throw ImportFailure(errors)
        }
        switch kinds.first {
        case nil:
            throw ImportFailure(errors)
        case .native:
            let (forms, warnings, importErrors) = importNative(parsed.map { ($0.document, $0.xml) })
            errors += importErrors
            guard errors.isEmpty else { throw ImportFailure(errors) }
            return ImportResult(kind: .native, forms: forms, warnings: warnings, sources: documents)
        case .odataV2, .odataV4:
            // The seam for the OData importer: it will take the parsed EDMX documents of one version.
            errors += parsed.map {
                ImportError(
                    code: "odata-not-yet",
                    message: "\($0.kind.displayName) metadata (EDMX) is recognised, but OData import is not available yet; import a native form spec instead.",
                    file: $0.document.name, line: $0.xml.root?.line ?? 0)
            }
            throw ImportFailure(errors)
        }
    }

    /// Imports documents given together, as the command line and the admin page take them: each
    /// native spec is an import of its own; an OData metadata document starts an import that the
    /// annotation documents after it join, in order (`meta.xml anno1.xml anno2.xml`). Returns one
    /// outcome per import, in the order of the documents.
    public static func importBatch(_ documents: [ImportDocument]) -> [ImportOutcome] {
        var batches: [[ImportDocument]] = []
        var orphans: [ImportOutcome] = []
        var lastWasOData = false
        for document in documents {
            switch role(of: document) {
            case .annotations where lastWasOData:
                batches[batches.count - 1].append(document)
            case .annotations:
                // Kept in document order below through the index of the batch that would follow.
                let error = ImportError(
                    code: "annotations-without-metadata",
                    message: "\(document.name) holds only OData annotations; give its service metadata document before it, in the same import.",
                    file: document.name)
                orphans.append(ImportOutcome(documents: [document.name], result: .failure(ImportFailure([error]))))
                batches.append([])
            case .odataMetadata:
                batches.append([document])
                lastWasOData = true
            case .other:
                batches.append([document])
                lastWasOData = false
            }
        }
        var outcomes: [ImportOutcome] = []
        for batch in batches {
            if batch.isEmpty {
                outcomes.append(orphans.removeFirst())
                continue
            }
            let result: Result<ImportResult, ImportFailure>
            do {
                result = .success(try importDocuments(batch))
            } catch {
                result = .failure(error)
            }
            outcomes.append(ImportOutcome(documents: batch.map(\.name), result: result))
        }
        return outcomes
    }

    private enum DocumentRole { case odataMetadata, annotations, other }

    /// Whether a document is OData service metadata, an OData annotation document (EDMX whose
    /// schemas declare no entity type or container), or anything else (a native spec, or a
    /// document the import will refuse with its own message).
    private static func role(of document: ImportDocument) -> DocumentRole {
        guard let xml = try? SafeXMLDocument.parse(document.data, file: document.name), let root = xml.root,
            root.localName == "Edmx", root.namespaceURI == edmxV2Namespace || root.namespaceURI == edmxV4Namespace
        else { return .other }
        let declaresTypes = root.children.contains { dataServices in
            dataServices.localName == "DataServices"
                && dataServices.children.contains { schema in
                    schema.localName == "Schema"
                        && schema.children.contains { ["EntityType", "EntityContainer", "ComplexType"].contains($0.localName) }
                }
        }
        return declaresTypes ? .odataMetadata : .annotations
    }

    /// Which importer a document's root element calls for.
    static func sniff(_ xml: SafeXMLDocument, file: String) -> Result<SourceKind, ImportError> {
        guard let root = xml.root else {
            return .failure(ImportError(code: "malformed-xml", message: "The document has no root element.", file: file))
        }
        // Any <form> goes to the native importer, which explains a wrong namespace best.
        if root.localName == "form" { return .success(.native) }
        if root.localName == "Edmx" && root.namespaceURI == edmxV2Namespace { return .success(.odataV2) }
        if root.localName == "Edmx" && root.namespaceURI == edmxV4Namespace { return .success(.odataV4) }
        let found = "<\(root.localName)>" + (root.namespaceURI.map { " in namespace \($0)" } ?? " in no namespace")
        return .failure(
            ImportError(
                code: "unknown-format",
                message: "The root element is \(found); expected <form xmlns=\"\(NativeSpecImporter.namespace)\"> (a native form spec) or <edmx:Edmx> (OData metadata).",
                file: file, line: root.line))
    }

    /// Imports each native document; form ids must differ across documents.
    private static func importNative(_ documents: [(ImportDocument, SafeXMLDocument)]) -> ([FormSchema], [ImportWarning], [ImportError]) {
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
                            code: "duplicate-form-id",
                            message: "\(document.name) and \(other) both declare the form id \"\(schema.id)\"; give each form its own id.",
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
