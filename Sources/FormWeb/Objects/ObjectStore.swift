import FluentKit
import FormModel
import Foundation

/// Reads and writes objects. Every write returns only after the database committed it.
public struct ObjectStore: Sendable {
    let database: FieldworkDatabase

    /// Stores a new object created with a form version.
    public func create(
        formID: String, version: Int, values: [String: FieldValue], keyText: String, creator: Creator
    ) async throws -> StoredObject {
        let record = ObjectRecord()
        record.id = UUID()
        record.formID = formID
        record.formVersion = version
        record.values = StoredValues(values)
        record.keyText = keyText
        switch creator {
        case .account(let id): record.creatorUserID = id
        case .browser(let id): record.creatorBrowser = id
        }
        try await record.create(on: database.database())
        return try StoredObject(record)
    }

    /// The object with an id in a form, or nil.
    public func find(formID: String, id: UUID) async throws -> StoredObject? {
        guard let record = try await ObjectRecord.find(id, on: database.database()), record.formID == formID else {
            return nil
        }
        return try StoredObject(record)
    }

    /// The objects of a form the viewer may see, newest first.
    public func list(formID: String, for viewer: Viewer) async throws -> [StoredObject] {
        let query = ObjectRecord.query(on: database.database()).filter(\.$formID == formID)
        if !viewer.isAdmin {
            let browser = viewer.browserID
            let account = viewer.account?.id
            query.group(.or) { or in
                // Anonymous objects belong to the browser session that created them.
                or.group(.and) { and in
                    and.filter(\.$creatorUserID == nil).filter(\.$creatorBrowser == browser)
                }
                if let account { or.filter(\.$creatorUserID == account) }
            }
        }
        return try await query.sort(\.$createdAt, .descending).sort(\.$id, .descending).all().map(StoredObject.init)
    }

    /// Replaces an object's values; false when it is gone.
    @discardableResult
    public func update(formID: String, id: UUID, values: [String: FieldValue], keyText: String) async throws -> Bool {
        let db = database.database()
        guard let record = try await ObjectRecord.find(id, on: db), record.formID == formID else { return false }
        record.values = StoredValues(values)
        record.keyText = keyText
        try await record.update(on: db)
        return true
    }

    /// Deletes an object; false when it was already gone.
    @discardableResult
    public func delete(formID: String, id: UUID) async throws -> Bool {
        let db = database.database()
        guard let record = try await ObjectRecord.find(id, on: db), record.formID == formID else { return false }
        try await record.delete(on: db)
        return true
    }
}
