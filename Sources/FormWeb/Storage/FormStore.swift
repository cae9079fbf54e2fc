import FluentKit
import FormImport
import FormModel
import Foundation

/// One stored version of a form with the form's settings: what the pages need.
public struct StoredForm: Sendable, Hashable {
    public var id: String
    public var access: FormAccess
    public var state: FormState
    public var version: Int
    public var sourceKind: SourceKind
    /// The canonical JSON, as served at `GET /api/forms/{id}`.
    public var schemaJSON: String
    public var importedAt: Date?
    public var importedBy: String?

    /// The schema decoded from its canonical JSON.
    public func schema() throws -> FormSchema {
        try FormSchema.fromCanonicalJSON(Data(schemaJSON.utf8))
    }
}

/// The form id and version number an import stored.
public struct StoredVersion: Sendable, Hashable {
    public var formID: String
    public var version: Int
}

/// Reads and writes forms and their versions.
public struct FormStore: Sendable {
    let database: FieldworkDatabase

    /// Stores every form of an import in one transaction: a new id becomes version 1 with
    /// `access`, an existing id gets the next version. Nothing is stored if anything fails.
    /// - Parameters:
    ///   - result: an accepted import.
    ///   - importedBy: the account that imported it; nil for the seed and the command line.
    ///   - access: who may fill forms that are new to the store.
    @discardableResult
    public func store(_ result: ImportResult, importedBy: String? = nil, access: FormAccess = .users) async throws
        -> [StoredVersion]
    {
        // Encode before the transaction so a bad schema never opens one.
        let documents = StoredDocuments(
            documents: result.sources.map { StoredDocument(name: $0.name, data: Data($0.data)) })
        let prepared: [(id: String, json: String)] = try result.forms.map { form in
            (form.id, String(decoding: try form.canonicalJSON(), as: UTF8.self))
        }
        let kind = result.kind
        return try await database.database().transaction { db in
            var stored: [StoredVersion] = []
            for (id, json) in prepared {
                if try await FormRecord.find(id, on: db) == nil {
                    try await FormRecord(id: id, access: access).create(on: db)
                }
                let latest = try await FormVersionRecord.query(on: db)
                    .filter(\.$form.$id == id)
                    .sort(\.$version, .descending)
                    .first()
                let version = (latest?.version ?? 0) + 1
                try await FormVersionRecord(
                    formID: id, version: version, sourceKind: kind, sourceDocuments: documents, schemaJSON: json,
                    importedBy: importedBy
                ).create(on: db)
                stored.append(StoredVersion(formID: id, version: version))
            }
            return stored
        }
    }

    /// The latest version of a form, or nil when no form has the id.
    public func latest(formID: String) async throws -> StoredForm? {
        let db = database.database()
        guard let form = try await FormRecord.find(formID, on: db) else { return nil }
        return try await latest(of: form, on: db)
    }

    /// One version of a form (the one an object was created with), or nil.
    public func version(formID: String, version: Int) async throws -> StoredForm? {
        let db = database.database()
        guard let form = try await FormRecord.find(formID, on: db),
            let record = try await FormVersionRecord.query(on: db)
                .filter(\.$form.$id == formID)
                .filter(\.$version == version)
                .first()
        else { return nil }
        return Self.stored(form: form, version: record)
    }

    /// Every form with its latest version, ordered by id.
    public func list() async throws -> [StoredForm] {
        let db = database.database()
        var result: [StoredForm] = []
        // One query per form: the list is short and this keeps it portable across both drivers.
        for form in try await FormRecord.query(on: db).sort(\.$id).all() {
            if let stored = try await latest(of: form, on: db) { result.append(stored) }
        }
        return result
    }

    /// Whether a form with the id exists.
    public func contains(formID: String) async throws -> Bool {
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
            importedBy: version.importedBy
        )
    }
}
