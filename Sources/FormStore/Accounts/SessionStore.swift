import FluentKit
import Foundation

/// Signed-in sessions in the `sessions` table, by storage key, each a JSON text and an expiry,
/// so sign-ins survive a restart and work across several server processes on one database.
///
/// Sessions are read from memory in the steady state (``SessionCache``): a sign-out, a password
/// reset or a deleted account drops them on every instance within a second (``ChangeFeed``).
/// Expired rows read as absent; each write also deletes a few expired rows, which keeps the
/// table from growing without a separate sweeper task.
package struct SessionStore: Sendable {
    let database: FieldworkDatabase
    let sessions: SessionCache
    /// The time that expiries are read against: the system's, or a test's own.
    let now: @Sendable () -> Date

    package init(database: FieldworkDatabase, now: @escaping @Sendable () -> Date = Date.init) {
        self.database = database
        self.now = now
        sessions = SessionCache(feed: database.feed)
    }

    /// A session key is taken by a session that has not expired.
    package struct KeyTaken: Error {}

    /// Stores a new session; throws ``KeyTaken`` when a live one has the key.
    package func create(key: String, value: String, expiresAt: Date?) async throws {
        let entry = SessionCache.Entry(value: value, expiresAt: expiresAt)
        let before = sessions.generation
        let now = now()
        try await database.transaction { db in
            if let existing = try await SessionRecord.find(key, on: db), !Self.isExpired(existing.expiresAt, now: now) {
                throw KeyTaken()
            }
            try await SessionRecord.query(on: db).filter(\.$id == key).delete()
            try await SessionRecord(id: key, value: entry.value, expiresAt: entry.expiresAt).create(on: db)
            try await Self.sweep(on: db, now: now)
        }
        sessions.store(entry, key: key, since: before)
    }

    /// Replaces a session's value, or stores it when there is none.
    /// - Parameter expiresAt: the new expiry; nil keeps the one a stored session has.
    package func set(key: String, value: String, expiresAt: Date?) async throws {
        // Dropped here and on every instance; the next read takes the new value.
        let now = now()
        try await database.transaction(recording: [.session(key)]) { db in
            if let existing = try await SessionRecord.find(key, on: db) {
                existing.value = value
                if let expiresAt { existing.expiresAt = expiresAt }
                try await existing.update(on: db)
            } else {
                try await SessionRecord(id: key, value: value, expiresAt: expiresAt).create(on: db)
                try await Self.sweep(on: db, now: now)
            }
        }
    }

    /// A live session's value and expiry; nil when there is none or it has expired.
    package func get(key: String) async throws -> (value: String, expiresAt: Date?)? {
        let entry = try await sessions.entry(key: key) {
            try await SessionRecord.find(key, on: database.database()).map {
                SessionCache.Entry(value: $0.value, expiresAt: $0.expiresAt)
            }
        }
        guard let entry, !Self.isExpired(entry.expiresAt, now: now()) else { return nil }
        return (entry.value, entry.expiresAt)
    }

    /// Deletes the session here and on every instance's cache.
    package func remove(key: String) async throws {
        try await database.transaction(recording: [.session(key)]) { db in
            try await SessionRecord.query(on: db).filter(\.$id == key).delete()
        }
    }

    /// Deletes expired rows; bounded so one request never pays for a long backlog.
    private static func sweep(on db: any Database, now: Date) async throws {
        let stale = try await SessionRecord.query(on: db).filter(\.$expiresAt < now).limit(20).all(\.$id)
        guard !stale.isEmpty else { return }
        try await SessionRecord.query(on: db).filter(\.$id ~~ stale).delete()
    }

    package static func isExpired(_ expiresAt: Date?, now: Date) -> Bool {
        expiresAt.map { $0 <= now } ?? false
    }
}
