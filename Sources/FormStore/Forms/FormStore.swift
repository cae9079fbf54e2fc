import FluentKit
import FormImport
import FormModel
import Foundation
import SQLKit

/// Reads and writes forms and their versions.
package struct FormStore: Sendable {
    let database: FieldworkDatabase

    /// Stores every form of an import in one transaction: a new id becomes version 1 with
    /// `access`, an existing id gets the next version. Nothing is stored if anything fails.
    /// - Parameters:
    ///   - result: an accepted import.
    ///   - importedBy: the account that imported it; nil for the seed and the command line.
    ///   - access: who may fill forms that are new to the store.
    @discardableResult
    package func store(
        _ result: ImportResult, importedBy: String? = nil, access: FormAccess = .users
    ) async throws
        -> [StoredVersion]
    {
        try await storeImport([result], importedBy: importedBy, access: access).versions
    }

    /// Stores the forms of several accepted imports (one batch of documents) in one transaction,
    /// with one import record holding the report: all of them, or nothing.
    package func storeImport(
        _ results: [ImportResult], importedBy: String? = nil, access: FormAccess = .users
    )
        async throws -> StoredImport
    {
        // Encode before the transaction so a bad schema never opens one. Each result's
        // documents are stored once, however many forms it gave.
        var sources: [ImportSourcesRecord] = []
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var prepared:
            [(
                id: String, json: String, title: String, kind: SourceKind, sourcesID: UUID, binding: String?,
                rules: String?
            )] = []
        for result in results {
            let record = ImportSourcesRecord(
                id: UUID(),
                documents: StoredDocuments(
                    documents: result.sources.map { StoredDocument(name: $0.name, data: Data($0.data)) }))
            sources.append(record)
            for form in result.forms {
                prepared.append(
                    (
                        form.id, String(decoding: try form.canonicalJSON(), as: UTF8.self), form.title, result.kind,
                        record.id!,
                        try result.bindings[form.id].map { String(decoding: try encoder.encode($0), as: UTF8.self) },
                        try result.rules[form.id].map { String(decoding: try encoder.encode($0), as: UTF8.self) }
                    ))
            }
        }
        let importID = UUID()
        let kind = results.first?.kind ?? .native
        // An XForm's external instance files, given with it: stored as its lists' options.
        var listInstances: [(formID: String, listID: String, groups: [OptionGroup], xml: String)] = []
        for result in results {
            for (formID, lists) in result.listInstances {
                for (listID, instance) in lists.sorted(by: { $0.key < $1.key }) {
                    listInstances.append((formID, listID, [OptionGroup(options: instance.options)], instance.xml))
                }
            }
        }
        let changes = prepared.map { CacheChange.form($0.id) }
        let versions = try await database.transaction(
            recording: changes, deadline: database.deadlines.importTransaction
        ) {
            [sources, prepared, listInstances] db in
            for record in sources { try await record.create(on: db) }
            var stored: [StoredVersion] = []
            for form in prepared {
                if try await FormRecord.find(form.id, on: db) == nil {
                    try await FormRecord(id: form.id, access: access).create(on: db)
                }
                let latest = try await FormVersionRecord.query(on: db)
                    .filter(\.$form.$id == form.id)
                    .sort(\.$version, .descending)
                    .first()
                let version = (latest?.version ?? 0) + 1
                try await FormVersionRecord(
                    formID: form.id, version: version, sourceKind: form.kind,
                    sourceDocuments: StoredDocuments(documents: []),
                    schemaJSON: form.json, title: form.title, importedBy: importedBy, importID: importID,
                    sourcesID: form.sourcesID, bindingJSON: form.binding, rulesJSON: form.rules
                ).create(on: db)
                stored.append(StoredVersion(formID: form.id, version: version))
            }
            for list in listInstances {
                try await Self.replaceOptions(
                    list.groups, formID: list.formID, listID: list.listID, by: importedBy, instanceXML: list.xml, on: db
                )
            }
            try await ImportRecord(
                id: importID, sourceKind: kind, summary: ImportSummary(results: results, versions: stored),
                importedBy: importedBy
            ).create(on: db)
            return stored
        }
        return StoredImport(id: importID, versions: versions)
    }

    /// For each of the forms whose latest version is an XForm imported with warnings about it
    /// (controls, repeats or media left out, rules not enforced): the import and how many; the
    /// admin list marks those forms "partly imported", as the XForms mapping asks. One query for
    /// the versions, one for their imports.
    package func importWarnings(of formIDs: [String]) async throws -> [String: (importID: UUID, count: Int)] {
        guard !formIDs.isEmpty else { return [:] }
        let db = database.database()
        let versions = try await FormVersionRecord.query(on: db).filter(\.$form.$id ~~ formIDs)
            .field(\.$id).field(\.$form.$id).field(\.$version).field(\.$importID).field(\.$sourceKind).all()
        var newest: [String: FormVersionRecord] = [:]
        for row in versions where row.version > newest[row.$form.id]?.version ?? 0 { newest[row.$form.id] = row }
        newest = newest.filter { $0.value.sourceKind == SourceKind.xforms.rawValue }
        let importIDs = Set(newest.values.compactMap(\.importID))
        guard !importIDs.isEmpty else { return [:] }
        var summaries: [UUID: ImportSummary] = [:]
        for record in try await ImportRecord.query(on: db).filter(\.$id ~~ importIDs).all() {
            if let id = record.id { summaries[id] = record.summary }
        }
        var counts: [String: (importID: UUID, count: Int)] = [:]
        for (formID, version) in newest {
            guard let importID = version.importID, let summary = summaries[importID] else { continue }
            let count = summary.warnings.filter { $0.form == nil || $0.form == formID }.reduce(0) {
                $0 + max($1.count, 1)
            }
            if count > 0 { counts[formID] = (importID, count) }
        }
        return counts
    }

    /// The report of an import, with when and by whom.
    package func importSummary(id: UUID) async throws -> ImportReport? {
        guard let record = try await ImportRecord.find(id, on: database.database()) else { return nil }
        return ImportReport(
            summary: record.summary, kind: SourceKind(rawValue: record.sourceKind) ?? .native, at: record.importedAt,
            by: record.importedBy)
    }

    /// Every version of a form, newest first.
    package func versions(formID: String) async throws -> [StoredForm] {
        let db = database.database()
        guard let form = try await FormRecord.find(formID, on: db) else { return [] }
        return try await FormVersionRecord.query(on: db)
            .filter(\.$form.$id == formID)
            .sort(\.$version, .descending)
            .all()
            .map { Self.stored(form: form, version: $0) }
    }

    /// The source documents of one version, as imported.
    package func sourceDocuments(formID: String, version: Int) async throws -> [StoredDocument]? {
        guard
            let record = try await FormVersionRecord.query(on: database.database())
                .filter(\.$form.$id == formID)
                .filter(\.$version == version)
                .first()
        else { return nil }
        if let sourcesID = record.sourcesID,
            let sources = try await ImportSourcesRecord.find(sourcesID, on: database.database())
        {
            return sources.documents.documents
        }
        return record.sourceDocuments.documents
    }

    /// The names of each version's source documents, by version, without reading their bytes.
    package func sourceDocumentNames(formID: String) async throws -> [Int: [String]] {
        let db = database.database()
        let versions = try await FormVersionRecord.query(on: db).filter(\.$form.$id == formID)
            .field(\.$id).field(\.$version).field(\.$sourcesID).all()
        let ids = versions.compactMap(\.sourcesID)
        var names: [UUID: [String]] = [:]
        if !ids.isEmpty {
            for sources in try await ImportSourcesRecord.query(on: db).filter(\.$id ~~ ids).field(\.$id).field(\.$names)
                .all()
            {
                if let id = sources.id { names[id] = sources.names }
            }
        }
        var result: [Int: [String]] = [:]
        for version in versions {
            if let id = version.sourcesID {
                result[version.version] = names[id] ?? []
            } else {
                // A version stored before import_sources keeps its documents in its own row.
                result[version.version] =
                    try await sourceDocuments(formID: formID, version: version.version)?.map(\.name) ?? []
            }
        }
        return result
    }

    /// Changes who may fill a form.
    package func setAccess(_ access: FormAccess, formID: String) async throws {
        try await changeForm(formID) { $0.access = access.rawValue }
    }

    /// Retires or restores a form.
    package func setState(_ state: FormState, formID: String) async throws {
        try await changeForm(formID) { $0.state = state.rawValue }
    }

    /// Changes a form's row and tells every instance's caches, in one transaction.
    private func changeForm(_ formID: String, _ change: @escaping @Sendable (FormRecord) -> Void) async throws {
        try await database.transaction(recording: [.form(formID)]) { db in
            guard let form = try await FormRecord.find(formID, on: db) else { return }
            change(form)
            try await form.save(on: db)
        }
    }

    /// Replaces the options of a form's list with uploaded ones, for every version of the form at
    /// once; the form's list revision goes up so its prepared pages are rebuilt.
    package func replaceOptions(
        _ groups: [OptionGroup], formID: String, listID: String, by account: String?, instanceXML: String? = nil
    ) async throws {
        try await database.transaction(recording: [.form(formID)]) { db in
            try await Self.replaceOptions(
                groups, formID: formID, listID: listID, by: account, instanceXML: instanceXML, on: db)
        }
    }

    /// ``replaceOptions(_:formID:listID:by:instanceXML:)`` in a transaction of the caller's.
    private static func replaceOptions(
        _ groups: [OptionGroup], formID: String, listID: String, by account: String?, instanceXML: String?,
        on db: any Database
    ) async throws {
        guard let form = try await FormRecord.find(formID, on: db) else { throw UnknownListError(listID: listID) }
        let record =
            try await OptionListRecord.query(on: db).filter(\.$formID == formID).filter(\.$listID == listID).first()
            ?? OptionListRecord()
        record.formID = formID
        record.listID = listID
        record.options = UploadedOptions(groups: groups)
        record.uploadedBy = account
        record.instanceXML = instanceXML
        try await record.save(on: db)
        form.listsRevision += 1
        try await form.save(on: db)
    }

    /// The uploaded options of a form's lists, by list id, with when and by whom.
    package func uploadedOptions(formID: String) async throws -> [String: OptionUpload] {
        var result: [String: OptionUpload] = [:]
        for record in try await OptionListRecord.query(on: database.database()).filter(\.$formID == formID).all() {
            result[record.listID] = OptionUpload(
                groups: record.options.groups, at: record.uploadedAt, by: record.uploadedBy,
                instanceXML: record.instanceXML)
        }
        return result
    }

    /// The schema of a stored version with the options admins uploaded for its lists: what the
    /// pages show and the server checks.
    package func schema(of form: StoredForm) async throws -> FormSchema {
        var schema = try form.schema()
        guard form.listsRevision > 0 else { return schema }
        let uploaded = try await uploadedOptions(formID: form.id)
        for index in schema.lists.indices {
            if let groups = uploaded[schema.lists[index].id]?.groups { schema.lists[index].groups = groups }
        }
        return schema
    }

    /// The latest version of a form, or nil when no form has the id.
    package func latest(formID: String) async throws -> StoredForm? {
        let db = database.database()
        guard let form = try await FormRecord.find(formID, on: db) else { return nil }
        return try await latest(of: form, on: db)
    }

    /// One version of a form (the one an object was created with), or nil.
    package func version(formID: String, version: Int) async throws -> StoredForm? {
        let db = database.database()
        guard let form = try await FormRecord.find(formID, on: db),
            let record = try await FormVersionRecord.query(on: db)
                .filter(\.$form.$id == formID)
                .filter(\.$version == version)
                .first()
        else { return nil }
        return Self.stored(form: form, version: record)
    }

    /// Every form with its latest version's number, kind and title, ordered by id: two queries
    /// of small columns however many forms, and no schema read or decoded.
    package func list() async throws -> [FormListing] {
        let db = database.database()
        return try await listings(of: try await FormRecord.query(on: db).sort(\.$id).all(), onlyTheirs: false, on: db)
    }

    /// A page of every form, ordered by id as ``list()`` orders them: the first page, or the one
    /// a cursor names, read by the forms' primary key (see ``listQuery(direction:from:limit:)``).
    package func page(from cursor: ListCursor<FormListKey>? = nil, size: Int) async throws -> FormPage {
        let db = database.database()
        guard let sql = db as? any SQLDatabase else { throw ObjectStore.SQLStoreRequired() }
        return try await FormPage.read(cursor, size: size, key: { FormListKey(id: $0.id) }) { direction, key, limit in
            let forms = try await sql.raw(Self.listQuery(direction: direction, from: key, limit: limit)).all().map {
                row in
                let form = FormRecord(
                    id: try row.decode(column: "id", as: String.self),
                    access: FormAccess(rawValue: try row.decode(column: "access", as: String.self)) ?? .users,
                    state: FormState(rawValue: try row.decode(column: "state", as: String.self)) ?? .active)
                form.listsRevision = try row.decode(column: "lists_revision", as: Int.self)
                return form
            }
            return try await listings(of: forms, onlyTheirs: true, on: db)
        }
    }

    /// The statement behind a page of forms: up to `limit` forms next to `key` in `direction`,
    /// nearest first, along the primary key's index.
    static func listQuery(direction: PageDirection, from key: FormListKey?, limit: Int) -> SQLQueryString {
        let (comparison, order) = direction == .after ? (">", "ASC") : ("<", "DESC")
        var query: SQLQueryString = "SELECT id, access, state, lists_revision FROM forms"
        if let key { query += " WHERE id \(unsafeRaw: comparison) \(bind: key.id)" }
        return query + " ORDER BY id \(unsafeRaw: order) LIMIT \(literal: limit)"
    }

    /// The forms as lists show them, in their order, with their latest versions read in one
    /// query of small columns (no schema read or decoded); a form without a version is left out.
    /// - Parameter onlyTheirs: reads the versions of these forms only (a page of them, by the
    ///   unique (form, version) index), rather than every version (all forms).
    private func listings(of forms: [FormRecord], onlyTheirs: Bool, on db: any Database) async throws -> [FormListing] {
        guard !forms.isEmpty else { return [] }
        var newest: [String: FormVersionRecord] = [:]
        let query = FormVersionRecord.query(on: db)
        if onlyTheirs { query.filter(\.$form.$id ~~ forms.compactMap(\.id)) }
        let heads =
            try await query
            .field(\.$id).field(\.$form.$id).field(\.$version).field(\.$sourceKind).field(\.$title)
            .all()
        for row in heads where row.version > newest[row.$form.id]?.version ?? 0 {
            newest[row.$form.id] = row
        }
        return forms.compactMap { form in
            guard let id = form.id, let version = newest[id] else { return nil }
            return FormListing(
                id: id, title: version.title ?? id, access: FormAccess(rawValue: form.access) ?? .users,
                state: FormState(rawValue: form.state) ?? .active, version: version.version,
                sourceKind: SourceKind(rawValue: version.sourceKind) ?? .native, listsRevision: form.listsRevision)
        }
    }

    /// Whether a form with the id exists.
    package func contains(formID: String) async throws -> Bool {
        try await FormRecord.find(formID, on: database.database()) != nil
    }

    private func latest(of form: FormRecord, on db: any Database) async throws -> StoredForm? {
        guard let id = form.id,
            let version = try await FormVersionRecord.query(on: db)
                .filter(\.$form.$id == id)
                .sort(\.$version, .descending)
                .first()
        else { return nil }
        return Self.stored(form: form, version: version)
    }

    private static func stored(form: FormRecord, version: FormVersionRecord) -> StoredForm {
        StoredForm(
            id: form.id ?? "",
            access: FormAccess(rawValue: form.access) ?? .users,
            state: FormState(rawValue: form.state) ?? .active,
            version: version.version,
            sourceKind: SourceKind(rawValue: version.sourceKind) ?? .native,
            schemaJSON: version.schemaJSON,
            importedAt: version.importedAt,
            importedBy: version.importedBy,
            importID: version.importID,
            listsRevision: form.listsRevision,
            bindingJSON: version.bindingJSON,
            rulesJSON: version.rulesJSON,
            service: form.serviceConnectionID.map {
                FormConnection(connectionID: $0, mode: ServiceMode(rawValue: form.serviceMode ?? "") ?? .service)
            }
        )
    }
}

extension FormStore {
    /// The forms made by the same import (the same source documents) as a form's latest version,
    /// whose latest version still comes from it: what a connection connects. The form itself
    /// first.
    package func formsOfSameImport(formID: String) async throws -> [String] {
        let db = database.database()
        guard
            let latest = try await FormVersionRecord.query(on: db).filter(\.$form.$id == formID)
                .sort(\.$version, .descending).first(),
            let sourcesID = latest.sourcesID
        else { return [formID] }
        let siblings = Set(
            try await FormVersionRecord.query(on: db).filter(\.$sourcesID == sourcesID).field(\.$form.$id).all()
                .map(\.$form.id))
        var result = [formID]
        for sibling in siblings.sorted() where sibling != formID {
            let newest = try await FormVersionRecord.query(on: db).filter(\.$form.$id == sibling)
                .sort(\.$version, .descending).field(\.$sourcesID).first()
            if newest?.sourcesID == sourcesID { result.append(sibling) }
        }
        return result
    }
}
