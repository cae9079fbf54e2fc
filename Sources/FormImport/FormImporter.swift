import FormModel
import FormXML

/// The entry point of every import: asks each importer whether it takes a document's root
/// element, parses the document once into what that importer reads, and runs the importer.
public enum FormImporter {
    /// Imports documents of one format, all or nothing; throws `ImportFailure` listing every error.
    ///
    /// Native specs (`<form xmlns="urn:fieldwork:form:1">`) and ODK XForms give one form each, so
    /// several may be imported in one call; their form ids must differ. OData documents (EDMX) are one import:
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

    /// A document parsed and recognised by the importer that took it, or the errors that stopped it.
    struct ParsedDocument {
        var document: ImportDocument
        var recognised: Recognised?
        var errors: [ImportError]
        /// For an XForm: the external instance files given right after it, which it names.
        var files: [ImportDocument] = []

        /// The document's file name without its folders (`cities.csv`).
        var baseName: String { String(document.name.split(separator: "/").last ?? Substring(document.name)) }
    }

    /// A parsed document, as the importer that took it reads it: one case per importer.
    enum Recognised {
        /// libxml2's tree, which the native importer validates against its XSD.
        case native(SafeXMLDocument)
        /// The lean tree, with its OData version and role (`EDMXRecognizer`).
        case odata(ODataImporter.Document)
        /// The XForm's elements, with its text read again where the lean tree keeps too little
        /// (`XFormRecognizer`).
        case xforms(XFormImporter.Document)

        var importer: Importer {
            switch self {
            case .native: .native
            case .odata: .odata
            case .xforms: .xforms
            }
        }

        var kind: SourceKind {
            switch self {
            case .native: .native
            case .odata(let document): document.kind
            case .xforms: .xforms
            }
        }
    }

    /// Parses a document once, into the representation of the importer that takes its root
    /// element (read before parsing: `XMLRootElement.probe`), and lets that importer recognise it.
    static func parse(_ document: ImportDocument) -> ParsedDocument {
        do throws(ImportFailure) {
            guard let importer = XMLRootElement.probe(document.data).flatMap(Importer.taking) else {
                // No importer takes the root, or there is none to read: parsed only to say what is
                // wrong, a document that is not well-formed first.
                let xml = try SafeXMLDocument.parse(document.data, file: document.name)
                guard let root = xml.root else {
                    throw ImportFailure([
                        ImportError(
                            code: .malformedXML, message: "The document has no root element.", file: document.name)
                    ])
                }
                let expected = Words.list(Importer.allCases.map(\.expectedRoot), conjunction: "or")
                throw ImportFailure([
                    ImportError.unknownFormat(
                        XMLRootElement(localName: root.localName, namespaceURI: root.namespaceURI, line: root.line),
                        "; expected \(expected).", file: document.name)
                ])
            }
            return ParsedDocument(document: document, recognised: try importer.read(document), errors: [])
        } catch {
            return ParsedDocument(document: document, recognised: nil, errors: error.errors)
        }
    }

    private static func importParsed(_ documents: [ParsedDocument]) throws(ImportFailure) -> ImportResult {
        var errors = documents.flatMap(\.errors)
        // Documents that parsed are still imported, so one call reports the mistakes of all.
        let parsed = documents.compactMap { document in
            document.recognised.map { (document: document.document, recognised: $0) }
        }
        let importers = Set(parsed.map(\.recognised.importer))
        if importers.count > 1 {
            let described = parsed.map { "\($0.document.name) is \($0.recognised.kind.displayName)" }
            errors.append(
                ImportError(
                    code: .mixedFormats,
                    message: "The documents mix formats (\(Words.list(described))); import each format separately."))
            throw ImportFailure(errors)
        }
        guard let importer = importers.first else { throw ImportFailure(errors) }
        switch importer {
        case .native:
            let specs = parsed.compactMap { document -> (ImportDocument, SafeXMLDocument)? in
                guard case .native(let xml) = document.recognised else { return nil }
                return (document.document, xml)
            }
            let (forms, warnings, importErrors) = importNative(specs)
            errors += importErrors
            guard errors.isEmpty else { throw ImportFailure(errors) }
            return ImportResult(kind: .native, forms: forms, warnings: warnings, sources: documents.map(\.document))
        case .odata:
            guard errors.isEmpty else { throw ImportFailure(errors) }
            var ordered = parsed.compactMap { document -> ODataImporter.Document? in
                guard case .odata(let edmx) = document.recognised else { return nil }
                return edmx
            }
            // V2 metadata takes V4 annotation documents: the metadata decides the kind.
            let metadataIndex = ordered.firstIndex { $0.role == .metadata } ?? 0
            ordered.insert(ordered.remove(at: metadataIndex), at: 0)
            let output = ODataImporter.importDocuments(ordered)
            return ImportResult(
                kind: ordered[0].kind, forms: output.forms, warnings: output.warnings, skipped: output.skipped,
                sources: documents.map(\.document), bindings: output.bindings)
        case .xforms:
            let xforms = documents.compactMap { document -> (XFormImporter.Document, [ImportDocument])? in
                guard case .xforms(let xform)? = document.recognised else { return nil }
                return (xform, document.files)
            }
            var forms: [FormSchema] = []
            var warnings: [ImportWarning] = []
            var rules: [String: XFormRules] = [:]
            var firstFile: [String: String] = [:]
            var listInstances: [String: [String: XFormExternalInstance]] = [:]
            for (xform, files) in xforms {
                do {
                    var output = try XFormImporter.importDocument(xform)
                    if !files.isEmpty { listInstances[output.form.id] = try XFormImporter.attach(files, to: &output) }
                    if let other = firstFile[output.form.id] {
                        errors.append(
                            ImportError(
                                code: .duplicateFormID,
                                message:
                                    "\(xform.name) and \(other) both give the form id \"\(output.form.id)\"; give each form its own id.",
                                file: xform.name, line: xform.data.line))
                        continue
                    }
                    firstFile[output.form.id] = xform.name
                    forms.append(output.form)
                    warnings += output.warnings
                    rules[output.form.id] = output.rules
                } catch {
                    errors += error.errors
                }
            }
            guard errors.isEmpty else { throw ImportFailure(errors) }
            var result = ImportResult(
                kind: .xforms, forms: forms, warnings: warnings,
                sources: documents.flatMap { [$0.document] + $0.files }, rules: rules)
            result.listInstances = listInstances
            return result
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
            switch parsed.recognised {
            case .odata(let edmx)? where edmx.role == .annotations && batchImporter == .odata:
                batch.append(parsed)
            case .odata?:
                // Metadata starts an import; so do annotations with no metadata before them, which
                // still import (they make no form, and the report says why): only a document that
                // is not well-formed, or not EDMX, is refused.
                flush()
                batch = [parsed]
                batchImporter = .odata
            case nil where batchImporter == .xforms && !batch.isEmpty && names(batch.last).contains(parsed.baseName):
                // An XForm's external instance file (`cities.csv` for `jr://file/cities.csv`),
                // given right after it: part of its import.
                batch[batch.count - 1].files.append(parsed.document)
            case .native?, .xforms?, nil:
                // One form each: an import of its own.
                flush()
                batch = [parsed]
                batchImporter = parsed.recognised?.importer
            }
        }
        flush()
        warnFormIDsAgain(&outcomes)
        return outcomes
    }

    /// The external instance files an XForm of the batch names.
    private static func names(_ parsed: ParsedDocument?) -> Set<String> {
        guard case .xforms(let xform)? = parsed?.recognised else { return [] }
        return XFormImporter.externalFileNames(xform)
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

    /// The importers, one case each, in the order they are asked whether they take a document
    /// (`taking`); every place that treats them differently switches over this, so a new importer
    /// (XForms) is a new case that the compiler leads through them.
    enum Importer: Hashable, CaseIterable {
        /// `NativeSpecImporter`: `<form xmlns="urn:fieldwork:form:1">`, one form per document.
        case native
        /// `ODataImporter`: EDMX of V2 or V4, metadata and annotation documents layered into one import.
        case odata
        /// `XFormImporter`: an ODK XForm (`<h:html>` in the XHTML namespace), one form per document.
        case xforms

        /// The first importer that takes a document whose root element is `root`. The one that
        /// takes it reads it, and refuses it in its own words when it is not of its format: any
        /// `form` goes to the native importer, which explains a wrong namespace best; any `Edmx`
        /// to the OData importer, which tells its version (`EDMXRecognizer`).
        static func taking(_ root: XMLRootElement) -> Importer? {
            allCases.first { importer in
                switch importer {
                case .native: NativeSpecImporter.takes(root)
                case .odata: EDMXRecognizer.takes(root)
                case .xforms: XFormRecognizer.takes(root)
                }
            }
        }

        /// How a document this importer takes starts, for the refusal of one that none takes.
        var expectedRoot: String {
            switch self {
            case .native: NativeSpecImporter.expectedRoot
            case .odata: EDMXRecognizer.expectedRoot
            case .xforms: XFormRecognizer.expectedRoot
            }
        }

        /// Parses a document once, into what this importer reads (libxml2's tree for the native
        /// importer, which validates it against its XSD; the lean tree for EDMX, read element by
        /// element), and recognises it.
        func read(_ document: ImportDocument) throws(ImportFailure) -> Recognised {
            switch self {
            case .native:
                .native(try SafeXMLDocument.parse(document.data, file: document.name))
            case .odata:
                .odata(
                    try EDMXRecognizer.recognise(
                        LeanXMLDocument.parse(document.data, file: document.name), name: document.name))
            case .xforms:
                .xforms(
                    try XFormRecognizer.recognise(
                        LeanXMLDocument.parse(document.data, file: document.name), bytes: document.data,
                        name: document.name))
            }
        }
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
