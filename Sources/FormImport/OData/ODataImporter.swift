import FormModel
import FormXML

/// Imports OData service metadata (EDMX V2, CSDL V4 / 4.01) together with annotation documents
/// into forms, one per creatable entity set (docs/odata.md: the mapping, and what the importer
/// does where the OData vocabularies leave a choice open).
///
/// The first document is the service metadata; the ones after it are annotation documents,
/// layered in order: each overrides the ones before it, and all override the metadata's own
/// annotations. Only XML that is not well-formed, or a root that is not EDMX (`EDMXRecognizer`), is refused,
/// before this importer runs; everything else imports, with warnings for what it passed over.
enum ODataImporter {
    struct Output {
        var forms: [FormSchema]
        var warnings: [ImportWarning]
        var skipped: [ImportSkip]
        /// How each form maps onto the service, by form id.
        var bindings: [String: ServiceBinding] = [:]
    }

    /// A parsed EDMX document, with what `EDMXRecognizer.recognise` found of it.
    struct Document {
        var name: String
        var xml: LeanXMLDocument
        var version: CSDLDocument.Version
        var role: EDMXRole

        /// The kind of an import whose metadata this is.
        var kind: SourceKind {
            switch version {
            case .v2: .odataV2
            case .v4: .odataV4
            }
        }
    }

    /// Imports parsed EDMX documents, the metadata first.
    static func importDocuments(_ documents: [Document]) -> Output {
        var report = ODataReport()
        var read: [CSDLDocument] = []
        // Layers: the metadata's annotations, then each annotation document in order.
        var index = AnnotationIndex()
        for source in documents {
            for warning in source.xml.warnings {
                report.warn(.xmlWarning, warning.message, file: source.name, line: warning.line)
            }
            let document = source.xml.withRoot { root in
                CSDLReader.read(
                    root, file: source.name, version: source.version, role: source.role, report: &report,
                    index: &index)
            }
            read.append(document)
        }
        guard let metadata = read.first else { return Output(forms: [], warnings: report.warnings, skipped: []) }
        for extra in read.dropFirst() where extra.declaresModel {
            report.warn(
                .extraMetadata,
                "\(extra.file) declares entity types or containers of its own; only its annotations are used. Import it as metadata of its own, before its annotation documents.",
                file: extra.file)
        }
        let model = ODataModel(metadata: metadata)

        let unknown = index.settleTargets { target in
            let qualified = model.memberThroughSet(model.qualifyingContainer(of: target))
            return model.declares(target: qualified) ? qualified : nil
        }
        for file in read.map(\.file) {
            let targets = unknown.filter { $0.file == file }
            guard let first = targets.first else { continue }
            let examples = Words.list(
                targets.prefix(3).map { "\"\($0.target)\"" } + (targets.count > 3 ? ["\(targets.count - 3) more"] : []))
            report.tally(.unknownTarget, key: file, file: file, line: first.line, count: targets.count) { count in
                "\(Words.count(count, "annotation target matches", plural: "annotation targets match")) nothing in the metadata (\(examples)); their annotations are ignored."
            }
        }

        let mapper = ODataFormMapper(model: model, index: index, report: report)
        var forms: [FormSchema] = []
        var bindings: [String: ServiceBinding] = [:]
        var skipped: [ImportSkip] = []
        var ids = FormIDs()
        for set in metadata.entitySets {
            let id = ids.next(for: set)
            switch mapper.form(for: set, id: id.id) {
            case .form(let schema, let binding):
                ids.commit(id, set: set.name)
                if let first = id.clashesWith {
                    mapper.report.warn(
                        .duplicateFormID,
                        "The entity sets \(first) and \(set.name) both give the form id \"\(id.base)\"; \(set.name)'s form is \"\(id.id)\".",
                        file: metadata.file, line: set.line)
                }
                bindings[schema.id] = binding
                forms.append(schema)
            case .skipped(let reason):
                skipped.append(ImportSkip(name: set.name, reason: reason, file: metadata.file, line: set.line))
            }
        }
        // Each form's compositions as item lists, from the forms mapped above (or, for a set
        // created only through its parent, mapped for it).
        var mapped: ODataFormMapper.Mapped = [:]
        for (index, schema) in forms.enumerated() {
            guard let binding = bindings[schema.id] else { continue }
            mapped[binding.entitySet] = (forms[index], binding)
        }
        for (index, schema) in forms.enumerated() {
            guard let binding = bindings[schema.id],
                let set = metadata.entitySets.first(where: { $0.name == binding.entitySet })
            else { continue }
            let (withItems, bound) = mapper.withItems(schema, binding: binding, set: set, mapped: mapped)
            forms[index] = withItems
            bindings[schema.id] = bound
        }
        if forms.isEmpty {
            let why =
                !metadata.declaresModel
                ? "it holds only annotations; import it right after its service's metadata document, in the same import"
                : metadata.entitySets.isEmpty
                    ? "it declares no entity set" : "none of its entity sets can be created (see the skipped sets)"
            mapper.report.warn(.noForms, "\(metadata.file) gives no form: \(why).", file: metadata.file)
        }

        // Annotations that had no effect, by term.
        report = mapper.report
        // The report's message closures go with it; the mapper keeps none.
        mapper.report = ODataReport()
        var shown: [String: String] = [:]
        mapper.index.forEachUnused { entry in
            let term = shown[entry.term] ?? Vocabulary.displayName(ofTerm: entry.term)
            shown[entry.term] = term
            report.tally(.unusedAnnotation, key: term, file: entry.file, line: entry.line, term: term) { count in
                "\(term): \(Words.count(count, "annotation")) not used for any form."
            }
        }
        return Output(forms: forms, warnings: report.warnings, skipped: skipped, bindings: bindings)
    }
}

/// Form ids: `slug(namespace + "-" + set)`, `-2`, `-3`... for clashes in document order.
struct FormIDs {
    struct Candidate {
        var id: String
        var base: String
        /// The entity set whose form took `base` first, when this one clashes with it.
        var clashesWith: String?
    }

    /// Form id → the entity set whose form has it.
    private var owners: [String: String] = [:]

    func next(for set: EntitySetDecl) -> Candidate {
        let base = FormIDs.slug(set.schemaNamespace + "-" + set.name)
        guard let first = owners[base] else { return Candidate(id: base, base: base) }
        var n = 2
        while true {
            let suffix = "-\(n)"
            let candidate = FormIDs.trimmed(base, to: 100 - suffix.count) + suffix
            if owners[candidate] == nil { return Candidate(id: candidate, base: base, clashesWith: first) }
            n += 1
        }
    }

    mutating func commit(_ candidate: Candidate, set: String) {
        owners[candidate.id] = set
    }

    /// Lower-cased, every run of characters other than `a-z0-9` one `-`, trimmed, at most 100 characters.
    static func slug(_ text: String) -> String {
        var text = text
        if let ascii = text.withUTF8({ bytes -> String? in
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
            // ASCII (every real name): the same, byte by byte.
            var out = [UInt8]()
            out.reserveCapacity(bytes.count)
            var pendingDash = false
            for var byte in bytes {
                if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { byte += 32 }
                if (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                {
                    if pendingDash && !out.isEmpty { out.append(UInt8(ascii: "-")) }
                    pendingDash = false
                    out.append(byte)
                } else {
                    pendingDash = true
                }
            }
            // At most 100 characters, trimmed as `trimmed` does, counted here as bytes.
            if out.count > 100 {
                out.removeLast(out.count - 100)
                while out.last == UInt8(ascii: "-") { out.removeLast() }
            }
            return String(decoding: out, as: UTF8.self)
        }) {
            return ascii.isEmpty ? "form" : ascii
        }
        var out = ""
        var pendingDash = false
        for scalar in text.lowercased().unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                if pendingDash && !out.isEmpty { out.append("-") }
                pendingDash = false
                out.unicodeScalars.append(scalar)
            } else {
                pendingDash = true
            }
        }
        let id = trimmed(out, to: 100)
        return id.isEmpty ? "form" : id
    }

    static func trimmed(_ id: String, to length: Int) -> String {
        guard id.count > length else { return id }
        var cut = String(id.prefix(length))
        while cut.hasSuffix("-") { cut.removeLast() }
        return cut
    }
}
