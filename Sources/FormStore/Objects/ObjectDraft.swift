import FluentKit
import Foundation
import SQLKit

/// A create about to be written: what its rows will hold. Each attempt to write it makes fresh
/// records (``record()``) and statements, so a create written again after its batch failed
/// (``CreateBatcher``) starts clean.
struct ObjectDraft: Sendable {
    let id: UUID
    let formID: String
    let version: Int
    let values: StoredValues
    let keyText: String
    let creator: Creator
    /// The create's one-time key, stored in the same transaction.
    let once: OnceKey?
    /// Work in the same transaction with the new object's id (the attachments claim their
    /// files there). Database work only: it may run again when a batch is written again.
    let alongside: AlongsideWork?
    /// The link to the service entity, for a create sent to the service.
    var service: ServiceLink? = nil
    /// The record of truth beside the values (an XForm submission's instance XML).
    var instance: InstanceXML? = nil

    /// The object's row.
    func record() -> ObjectRecord {
        let record = ObjectRecord()
        record.id = id
        record.formID = formID
        record.formVersion = version
        record.values = values
        record.keyText = keyText
        switch creator {
        case .account(let id): record.creatorUserID = id
        case .browser(let id): record.creatorBrowser = id
        }
        if let service {
            record.serviceState = service.state.rawValue
            record.serviceKey = service.key
            record.serviceRequest = service.requestID
            record.serviceETag = service.etag
            record.serviceItems = service.itemsText
        }
        return record
    }

    /// The statements of a batch, in its transaction: every object in one `INSERT`, every key in
    /// one, then each create's own work; returns the objects' records, in the drafts' order.
    static func insert(_ drafts: [ObjectDraft], on db: any Database) async throws -> [ObjectRecord] {
        let records = drafts.map { $0.record() }
        try await insertRows(records, on: db)
        if let tokens = tokenRows(drafts) { try await tokens.run(on: db) }
        let instances = drafts.compactMap { draft in draft.instance.map { ObjectInstanceRecord(objectID: draft.id, $0) }
        }
        if !instances.isEmpty { try await instances.create(on: db) }
        for draft in drafts {
            try await draft.alongside?(StoreTransaction(database: db), draft.id)
        }
        return records
    }

    /// A lone create with no work beside it: its row and its one-time key's in one `INSERT`
    /// each, on SQLite through the direct connection (``FieldworkDatabase/write(_:)``).
    static func insertAlone(_ draft: ObjectDraft, on database: FieldworkDatabase) async throws -> ObjectRecord {
        let record = draft.record()
        try await database.write([rows([record])] + (tokenRows([draft]).map { [$0] } ?? []))
        record.$id.exists = true
        return record
    }

    /// The `INSERT` of the drafts' one-time keys, when any has one: written out as the objects'
    /// rows are (``rows(_:)``), with the time Fluent would set on create.
    static func tokenRows(_ drafts: [ObjectDraft]) -> RowStatement? {
        let keyed = drafts.filter { $0.once != nil }
        guard !keyed.isEmpty else { return nil }
        let columns = ["key", "form_id", "object_id", "fingerprint", "created_at"]
        let placeholders = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        var statement = RowStatement(
            sql: "INSERT INTO \(RowStatement.quoted(SubmissionTokenRecord.schema)) ("
                + columns.map(RowStatement.quoted).joined(separator: ", ") + ") VALUES "
                + Array(repeating: placeholders, count: keyed.count).joined(separator: ", "),
            values: [])
        let now = Date()
        for draft in keyed {
            guard let once = draft.once else { continue }
            statement.values += [
                .text(once.storageKey), .text(draft.formID), .uuid(draft.id), .text(once.fingerprint), .date(now),
            ]
        }
        return statement
    }

    /// The objects' rows in one `INSERT`.
    private static func insertRows(_ records: [ObjectRecord], on db: any Database) async throws {
        try await rows(records).run(on: db)
        for record in records { record.$id.exists = true }
    }

    /// The `INSERT` of the objects' rows, written out rather than built by Fluent
    /// (`create(on:)`), which spent more on its query builder and the model's property wrappers
    /// than the database spent writing: this runs on every create. Timestamps are set as Fluent
    /// sets them on create, and every value is bound as Fluent binds the model's fields.
    static func rows(_ records: [ObjectRecord]) -> RowStatement {
        let now = Date()
        let placeholders = "(" + Array(repeating: "?", count: ObjectRecord.columns.count).joined(separator: ", ") + ")"
        var statement = RowStatement(
            sql: "INSERT INTO \(RowStatement.quoted(ObjectRecord.schema)) ("
                + ObjectRecord.columns.map(RowStatement.quoted).joined(separator: ", ") + ") VALUES "
                + Array(repeating: placeholders, count: records.count).joined(separator: ", "),
            values: [])
        statement.values.reserveCapacity(records.count * ObjectRecord.columns.count)
        for record in records {
            record.createdAt = now
            record.updatedAt = now
            statement.values += [
                .uuid(record.id), .text(record.formID), .integer(record.formVersion), .values(record.values),
                .text(record.keyText), .uuid(record.creatorUserID), .text(record.creatorBrowser), .date(now),
                .date(now),
                .text(record.serviceState), .text(record.serviceKey), .uuid(record.serviceRequest),
                .text(record.serviceETag), .text(record.serviceItems),
            ]
        }
        return statement
    }
}
