import FluentKit
import Foundation
import SQLKit

/// Where a walk over a form's objects in change order stands: the last object it gave, by its
/// `updated_at` exactly as the database holds it and its id (which breaks ties).
package struct ChangePosition: Sendable, Hashable {
    /// `updated_at` as stored, in text: SQLite's REAL (seconds since 1970, as Swift writes a
    /// `Double`, which reads back to the same bits) or PostgreSQL's whole microseconds since 1970.
    /// Not a `Date`: SQLite's driver rounds a date it reads to the microsecond, so a date read and
    /// bound again would no longer equal its own row's, and the walk would skip or repeat it.
    package var mark: String
    package var id: UUID

    package init(mark: String, id: UUID) {
        self.mark = mark
        self.id = id
    }
}

/// Which objects a walk takes: those created or changed from `since` (inclusive) to `until`
/// (exclusive); either end may be open.
package struct ChangeWindow: Sendable, Hashable {
    package var since: Date?
    package var until: Date?

    package init(since: Date? = nil, until: Date? = nil) {
        self.since = since
        self.until = until
    }
}

/// An object met on a walk in change order, with the position to go on from after it.
package struct ObjectChange: Sendable {
    package var object: StoredObject
    package var position: ChangePosition
}

/// A position this database cannot have written (a cursor of another kind of store).
package struct UnreadableChangePosition: Error, Sendable {}

extension ObjectStore {
    /// The next objects of a form in change order (oldest `updated_at` first, then by id),
    /// after `position`, within `window`: one keyset query on the index `(form_id, updated_at,
    /// id)`, so any page costs what the first one does. An object changed during a walk moves to
    /// its end and is met again there; a removed one is not met.
    /// - Parameters:
    ///   - position: where the last page ended; nil starts at the oldest change.
    ///   - limit: how many objects at most.
    package func changes(
        formID: String, after position: ChangePosition?, window: ChangeWindow = ChangeWindow(), limit: Int
    ) async throws -> [ObjectChange] {
        guard let sql = database.database() as? any SQLDatabase else { throw SQLStoreRequired() }
        let rows = try await changesQuery(on: sql, formID: formID, after: position, window: window, limit: limit).all()
        return try rows.map { row in
            let record = try Self.record(from: row)
            let mark =
                database.usesSQLite
                ? try row.decode(column: "change_mark", as: Double.self).description
                : String(try row.decode(column: "change_mark", as: Int64.self))
            let object = try StoredObject(record)
            return ObjectChange(object: object, position: ChangePosition(mark: mark, id: object.id))
        }
    }

    /// The walk's query: every column of `objects` and the raw `updated_at` as `change_mark`.
    func changesQuery(
        on sql: any SQLDatabase, formID: String, after position: ChangePosition?, window: ChangeWindow, limit: Int
    ) throws -> SQLSelectBuilder {
        let updated = SQLIdentifier("updated_at")
        let created = SQLIdentifier("created_at")
        let mark: any SQLExpression =
            database.usesSQLite
            ? updated : SQLRaw("(EXTRACT(EPOCH FROM updated_at) * 1000000)::bigint")
        let query = sql.select()
            .column(SQLLiteral.all)
            .column(mark, as: "change_mark")
            .from(ObjectRecord.schema)
            .where(SQLIdentifier("form_id"), .equal, SQLBind(formID))
        if let position {
            // A row value, which both databases match against the index as one range.
            let stored: any SQLExpression
            if database.usesSQLite {
                guard let seconds = Double(position.mark), seconds.isFinite else { throw UnreadableChangePosition() }
                stored = SQLBind(seconds)
            } else {
                guard let microseconds = Int64(position.mark) else { throw UnreadableChangePosition() }
                stored = SQLRaw("(TIMESTAMPTZ 'epoch' + \(microseconds) * INTERVAL '1 microsecond')")
            }
            query.where(
                SQLGroupExpression([updated, SQLIdentifier("id")]), .greaterThan,
                SQLGroupExpression([stored, SQLBind(position.id)]))
        }
        // Created or changed in [since, until): since an object's `updated_at` is never before its
        // `created_at`, that is `updated_at >= since AND created_at < until`, less the objects
        // created before the window and last changed after it.
        if let since = window.since { query.where(updated, .greaterThanOrEqual, SQLBind(since)) }
        if let until = window.until { query.where(created, .lessThan, SQLBind(until)) }
        if let since = window.since, let until = window.until {
            query.where(group: { either in
                either.where(created, .greaterThanOrEqual, SQLBind(since)).orWhere(updated, .lessThan, SQLBind(until))
            })
        }
        return query.orderBy("updated_at").orderBy("id").limit(limit)
    }

    /// An `objects` row read by plain SQL, as FluentKit would have read it.
    private static func record(from row: any SQLRow) throws -> ObjectRecord {
        let record = ObjectRecord()
        record.id = try row.decode(column: "id", as: UUID.self)
        record.formID = try row.decode(column: "form_id", as: String.self)
        record.formVersion = try row.decode(column: "form_version", as: Int.self)
        record.values = try row.decode(column: "values", as: StoredValues.self)
        record.keyText = try row.decode(column: "key_text", as: String.self)
        record.creatorUserID = try row.decode(column: "creator_user_id", as: UUID?.self)
        record.creatorBrowser = try row.decode(column: "creator_browser", as: String?.self)
        record.createdAt = try row.decode(column: "created_at", as: Date?.self)
        record.updatedAt = try row.decode(column: "updated_at", as: Date?.self)
        record.serviceState = try row.decode(column: "service_state", as: String?.self)
        record.serviceKey = try row.decode(column: "service_key", as: String?.self)
        record.serviceRequest = try row.decode(column: "service_request", as: UUID?.self)
        record.serviceETag = try row.decode(column: "service_etag", as: String?.self)
        record.serviceItems = try row.decode(column: "service_items", as: String?.self)
        return record
    }
}
