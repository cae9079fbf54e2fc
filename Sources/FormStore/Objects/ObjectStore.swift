import FluentKit
import FormModel
import Foundation
import SQLKit

/// Reads and writes objects. Every write returns only after the database committed it.
package struct ObjectStore: Sendable {
    let database: FieldworkDatabase

    /// Stores a new object created with a form version.
    /// - Parameters:
    ///   - once: the create's one-time key, stored in the same transaction: a second create
    ///     with it fails there, and nothing of it is stored (see ``object(once:)``).
    ///   - alongside: runs in the same transaction with the new object's id (the attachments
    ///     claim their files there), so both commit or neither does. Database work only: on
    ///     SQLite it may run again (see ``CreateBatcher``).
    package func create(
        formID: String, version: Int, values: [String: FieldValue], keyText: String, creator: Creator,
        once: OnceKey? = nil, service: ServiceLink? = nil, instance: InstanceXML? = nil, alongside: AlongsideWork? = nil
    ) async throws -> StoredObject {
        let draft = ObjectDraft(
            id: UUID(), formID: formID, version: version, values: StoredValues(values), keyText: keyText,
            creator: creator, once: once, alongside: alongside, service: service, instance: instance)
        // SQLite writes one transaction at a time: creates waiting for it go in one together.
        let record =
            if database.usesSQLite {
                try await database.creates.write(draft, on: database)
            } else {
                try await database.transaction { db in try await ObjectDraft.insert([draft], on: db)[0] }
            }
        return try StoredObject(record)
    }

    /// The object a create with this one-time key stored, with the key's fingerprint (an API
    /// request's body hash); nil when no stored create had the key.
    package func object(once: OnceKey) async throws -> (object: StoredObject, fingerprint: String?)? {
        let db = database.database()
        guard let token = try await SubmissionTokenRecord.find(once.storageKey, on: db),
            let record = try await ObjectRecord.find(token.objectID, on: db)
        else { return nil }
        return (try StoredObject(record), token.fingerprint)
    }

    /// Forgets one-time keys older than `cutoff`: a resubmission a day later makes a new object.
    func purgeTokens(olderThan cutoff: Date) async throws {
        try await SubmissionTokenRecord.query(on: database.database()).filter(\.$createdAt < cutoff).delete()
    }

    /// The object with an id in a form, or nil.
    package func find(formID: String, id: UUID) async throws -> StoredObject? {
        guard let record = try await ObjectRecord.find(id, on: database.database()), record.formID == formID else {
            return nil
        }
        return try StoredObject(record)
    }

    /// How many objects each of these forms has, counted up to `limit` (a page of the admin's
    /// forms list): `limit + 1` stands for more. Each count reads at most that many entries of
    /// the index `objects_list`, so a page of forms costs the same whatever their objects number;
    /// one statement for every form. Forms without objects are left out.
    package func countsByForm(_ formIDs: [String], upTo limit: Int) async throws -> [String: Int] {
        guard !formIDs.isEmpty else { return [:] }
        guard let sql = database.database() as? any SQLDatabase else { throw SQLStoreRequired() }
        let counts = formIDs.map { id -> SQLQueryString in
            """
            SELECT \(bind: id) AS form_id, COUNT(*) AS n FROM (SELECT 1 FROM objects WHERE form_id = \(bind: id) \
            LIMIT \(literal: limit + 1)) AS counted
            """
        }
        var found: [String: Int] = [:]
        for row in try await sql.raw(counts.joined(separator: " UNION ALL ")).all() {
            let n = try row.decode(column: "n", as: Int.self)
            if n > 0 { found[try row.decode(column: "form_id", as: String.self)] = n }
        }
        return found
    }

    /// How many objects each version of a form has, in one query (the admin's form page);
    /// versions without objects are left out.
    package func countsByVersion(formID: String) async throws -> [Int: Int] {
        try await groupedCounts(by: "form_version", as: Int.self, formID: formID)
    }

    /// `SELECT column, COUNT(*) FROM objects WHERE form_id = … GROUP BY column`. Both stores
    /// Fieldwork opens (SQLite, PostgreSQL) are SQL databases.
    private func groupedCounts<Key: Decodable & Hashable>(
        by column: String, as _: Key.Type, formID: String
    ) async throws
        -> [Key: Int]
    {
        guard let sql = database.database() as? any SQLDatabase else { throw SQLStoreRequired() }
        let query = sql.select()
            .column(SQLIdentifier(column))
            .column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
            .from(ObjectRecord.schema)
            .where(SQLIdentifier("form_id"), .equal, SQLBind(formID))
        var counts: [Key: Int] = [:]
        for row in try await query.groupBy(SQLIdentifier(column)).all() {
            counts[try row.decode(column: column, as: Key.self)] = try row.decode(column: "n", as: Int.self)
        }
        return counts
    }

    struct SQLStoreRequired: Error {}

    /// The record of truth stored beside an object's values (an XForm submission's instance
    /// XML), when it has one.
    package func instance(of objectID: UUID) async throws -> InstanceXML? {
        try await ObjectInstanceRecord.find(objectID, on: database.database()).map {
            InstanceXML(id: $0.instanceID, xml: $0.xml)
        }
    }

    /// The records of truth of several objects, by object id (those that have one).
    package func instances(of objectIDs: [UUID]) async throws -> [UUID: InstanceXML] {
        guard !objectIDs.isEmpty else { return [:] }
        var found: [UUID: InstanceXML] = [:]
        for row in try await ObjectInstanceRecord.query(on: database.database()).filter(\.$id ~~ objectIDs).all() {
            if let id = row.id { found[id] = InstanceXML(id: row.instanceID, xml: row.xml) }
        }
        return found
    }

    /// Replaces an object's values (and its record of truth, when given); returns when it was
    /// changed, nil when it is gone.
    /// - Parameter alongside: runs in the same transaction, as for ``create(formID:version:values:keyText:creator:alongside:)``.
    @discardableResult
    package func update(
        formID: String, id: UUID, values: [String: FieldValue], keyText: String, instance: InstanceXML? = nil,
        alongside: AlongsideWork? = nil
    ) async throws -> Date? {
        try await database.transaction { db in
            guard let record = try await ObjectRecord.find(id, on: db), record.formID == formID else { return nil }
            record.values = StoredValues(values)
            record.keyText = keyText
            try await record.update(on: db)
            if let instance {
                // The new instance replaces the old one, whose id it carries as `deprecatedID`.
                if let row = try await ObjectInstanceRecord.find(id, on: db) {
                    row.instanceID = instance.id
                    row.xml = instance.xml
                    try await row.update(on: db)
                } else {
                    try await ObjectInstanceRecord(objectID: id, instance).create(on: db)
                }
            }
            try await alongside?(StoreTransaction(database: db), id)
            return record.updatedAt ?? Date()
        }
    }

    /// Deletes an object with the one-time keys that made it, in one transaction; false when it
    /// was already gone. A create sent again with one of those keys then makes a new object,
    /// where it would otherwise find its key used and its object gone.
    /// - Parameter alongside: runs in the same transaction before the row goes, so it still
    ///   reads the object (its webhooks announce it).
    @discardableResult
    package func delete(formID: String, id: UUID, alongside: AlongsideWork? = nil) async throws -> Bool {
        try await database.transaction { db in
            guard let record = try await ObjectRecord.find(id, on: db), record.formID == formID else { return false }
            try await alongside?(StoreTransaction(database: db), id)
            try await SubmissionTokenRecord.query(on: db).filter(\.$objectID == id).delete()
            try await ObjectInstanceRecord.query(on: db).filter(\.$id == id).delete()
            try await record.delete(on: db)
            return true
        }
    }

    /// Records what the service answered a create or an edit: the link's new state, key and ETag
    /// and the values as the service holds them (a row that is gone is left so).
    /// - Parameter alongside: runs after the UPDATE in the same transaction (the object's
    ///   webhooks announce it once the service took it); without it there is no transaction.
    @discardableResult
    package func settle(
        formID: String, id: UUID, link: ServiceLink, values: [String: FieldValue]? = nil, keyText: String? = nil,
        alongside: AlongsideWork? = nil
    ) async throws -> Bool {
        let statement = Self.settling(formID: formID, id: id, link: link, values: values, keyText: keyText)
        guard let alongside else {
            // One UPDATE, no transaction around a read: it runs on every create a service takes.
            try await database.write([statement])
            return true
        }
        try await database.transaction { db in
            try await statement.run(on: db)
            try await alongside(StoreTransaction(database: db), id)
        }
        return true
    }

    /// The settle's one `UPDATE`, written out rather than built with Fluent's query builder: it
    /// runs on every create a service takes. The values are bound as Fluent binds the model's
    /// fields, so Fluent reads the row back as it wrote it.
    private static func settling(
        formID: String, id: UUID, link: ServiceLink, values: [String: FieldValue]?, keyText: String?
    ) -> RowStatement {
        var sql = "UPDATE \(RowStatement.quoted(ObjectRecord.schema)) SET "
        var bound: [RowValue] = []
        func set(_ column: String, _ value: RowValue) {
            sql += (bound.isEmpty ? "" : ", ") + RowStatement.quoted(column) + " = ?"
            bound.append(value)
        }
        set("service_state", .text(link.state.rawValue))
        set("service_key", .text(link.key))
        set("service_request", .uuid(link.requestID))
        set("service_etag", .text(link.etag))
        set("service_items", .text(link.itemsText))
        set("updated_at", .date(Date()))
        if let values { set("values", .values(StoredValues(values))) }
        if let keyText { set("key_text", .text(keyText)) }
        sql += " WHERE " + RowStatement.quoted("id") + " = ? AND " + RowStatement.quoted("form_id") + " = ?"
        return RowStatement(sql: sql, values: bound + [.uuid(id), .text(formID)])
    }

    /// Marks creates still `sending` since before `cutoff` as `unknown`: their answer was lost
    /// with a stopped instance. Returns how many.
    @discardableResult
    package func markLostSends(before cutoff: Date) async throws -> Int {
        // Nearly always none: looked for without taking the write lock.
        let any = try await ObjectRecord.query(on: database.database())
            .filter(\.$serviceState == ServiceLink.State.sending.rawValue)
            .filter(\.$createdAt < cutoff)
            .count()
        guard any > 0 else { return 0 }
        return try await database.transaction { db in
            let lost = try await ObjectRecord.query(on: db)
                .filter(\.$serviceState == ServiceLink.State.sending.rawValue)
                .filter(\.$createdAt < cutoff)
                .all()
            for record in lost {
                record.serviceState = ServiceLink.State.unknown.rawValue
                try await record.update(on: db)
            }
            return lost.count
        }
    }

    /// The creates whose outcome is unknown, of the given forms (every form when nil), newest first.
    package func unknownOutcomes(formIDs: [String]? = nil) async throws -> [StoredObject] {
        let query = ObjectRecord.query(on: database.database())
            .filter(\.$serviceState == ServiceLink.State.unknown.rawValue)
        if let formIDs { query.filter(\.$formID ~~ formIDs) }
        return try await query.sort(\.$createdAt, .descending).all().map { try StoredObject($0) }
    }
}
