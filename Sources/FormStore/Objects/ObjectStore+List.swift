import FluentKit
import Foundation
import SQLKit

/// The key the parent page's list is ordered by: newest first by creation time, then by id
/// (objects created in the same instant keep one order).
package struct ObjectListKey: ListKey {
    package var createdAt: Date
    package var id: UUID

    package init(createdAt: Date, id: UUID) {
        self.createdAt = createdAt
        self.id = id
    }

    /// The creation time in microseconds since 1970 (8 bytes, big-endian), then the id's 16 bytes.
    package var listKeyBytes: [UInt8] {
        let micros = Int64((createdAt.timeIntervalSince1970 * 1_000_000).rounded())
        return withUnsafeBytes(of: micros.bigEndian, Array.init) + withUnsafeBytes(of: id.uuid, Array.init)
    }

    package init?(listKeyBytes bytes: ArraySlice<UInt8>) {
        guard bytes.count == 24 else { return nil }
        let micros = bytes.prefix(8).reduce(Int64(0)) { $0 << 8 | Int64($1) }
        // From 1970 to the year 9999: any other time was never an object's.
        guard (0...253_402_300_799_000_000).contains(micros) else { return nil }
        let uuid = Array(bytes.suffix(16))
        createdAt = Date(timeIntervalSince1970: Double(micros) / 1_000_000)
        id = uuid.withUnsafeBytes { UUID(uuid: $0.load(as: uuid_t.self)) }
    }
}

/// A page of the parent page's list.
package typealias ObjectPage = ListPage<ObjectSummary, ObjectListKey>

extension ObjectStore {
    /// A page of the objects of a form the viewer may see, newest first: the first page, or the
    /// one a cursor names. Every page is read from an index in the list's order (see
    /// ``listQuery(formID:visibleTo:direction:from:limit:)``), so the thousandth page costs what
    /// the first does.
    package func page(
        formID: String, visibleTo owners: OwnerFilter, from cursor: ListCursor<ObjectListKey>? = nil, size: Int
    ) async throws -> ObjectPage {
        guard let sql = database.database() as? any SQLDatabase else { throw SQLStoreRequired() }
        return try await ObjectPage.read(cursor, size: size, key: \.listKey) { direction, key, limit in
            let query = Self.listQuery(
                formID: formID, visibleTo: owners, direction: direction, from: key, limit: limit,
                sqlite: database.usesSQLite)
            return try await sql.raw(query).all().map { row in
                ObjectSummary(
                    id: try row.decode(column: "id", as: UUID.self),
                    keyText: try row.decode(column: "key_text", as: String.self),
                    createdAt: try row.decode(column: "created_at", as: Date?.self))
            }
        }
    }

    /// The statement behind a page: up to `limit` objects next to `key` in `direction`, nearest
    /// first. Each way a viewer owns objects is one `SELECT` that an index of `IndexObjectLists`
    /// answers in the list's order (an admin's: `objects_list`; an account's:
    /// `objects_list_user`; a browser's anonymous objects: `objects_list_browser`). A viewer who
    /// owns objects both ways gets the two joined by `UNION ALL`: SQLite merges the two index
    /// reads as they come; on PostgreSQL each is limited to the page on its own (which SQLite's
    /// grammar does not allow), so at most two pages are merged. One `OR` in a single `WHERE`
    /// would defeat the indexes: the database would then read every object of the form and
    /// sort them.
    ///
    /// The key's position is the row of the key's object, read by its primary key, so the
    /// comparison is with exactly what is stored (a time read back from SQLite is rounded to
    /// microseconds); the cursor's time stands in when that object was deleted meanwhile.
    static func listQuery(
        formID: String, visibleTo owners: OwnerFilter, direction: PageDirection, from key: ObjectListKey?, limit: Int,
        sqlite: Bool
    ) -> SQLQueryString {
        var filters: [SQLQueryString?] = [nil]
        if case .createdBy(let account, let browser) = owners {
            // Anonymous objects belong to the browser that created them.
            filters = ["creator_user_id IS NULL AND creator_browser = \(bind: browser)"]
            if let account { filters.insert("creator_user_id = \(bind: account)", at: 0) }
        }
        let (comparison, order) = direction == .after ? ("<", "DESC") : (">", "ASC")
        let selects = filters.map { filter -> SQLQueryString in
            var select: SQLQueryString = "SELECT id, key_text, created_at FROM objects WHERE form_id = \(bind: formID)"
            if let filter { select += " AND \(filter)" }
            if let key {
                let stored: SQLQueryString =
                    "(SELECT created_at FROM objects WHERE id = \(bind: key.id) AND form_id = \(bind: formID))"
                select +=
                    " AND (created_at, id) \(unsafeRaw: comparison) (COALESCE(\(stored), \(bind: key.createdAt)), \(bind: key.id))"
            }
            return select
        }
        let ordered: SQLQueryString =
            " ORDER BY created_at \(unsafeRaw: order), id \(unsafeRaw: order) LIMIT \(literal: limit)"
        guard selects.count > 1, !sqlite else { return selects.joined(separator: " UNION ALL ") + ordered }
        return selects.map { "(\($0)\(ordered))" }.joined(separator: " UNION ALL ") + ordered
    }
}

extension ObjectSummary {
    /// Where the object stands in the parent page's list.
    package var listKey: ObjectListKey {
        ObjectListKey(createdAt: createdAt ?? Date(timeIntervalSince1970: 0), id: id)
    }
}
