import FluentKit
import Foundation
import Hummingbird

/// Hummingbird's key/value `PersistDriver` over the `sessions` table, so sign-ins survive a
/// restart and work across several server processes on one database.
///
/// Sessions are read from memory in the steady state (``SessionCache``): a sign-out, a password
/// reset or a deleted account drops them on every instance within a second (``ChangeFeed``).
/// Expired rows read as absent; each write also deletes a few expired rows, which keeps the
/// table from growing without a separate sweeper task.
public struct DatabasePersistDriver: PersistDriver {
    let database: FieldworkDatabase
    let sessions: SessionCache

    public init(database: FieldworkDatabase) {
        self.database = database
        sessions = SessionCache(feed: database.feed)
    }

    public func create<Object: Codable & Sendable>(key: String, value: Object, expires: Duration?) async throws {
        let entry = SessionCache.Entry(value: try Self.encode(value), expiresAt: Self.date(after: expires))
        let before = sessions.generation
        try await database.transaction { db in
            if let existing = try await SessionRecord.find(key, on: db), !Self.isExpired(existing.expiresAt) {
                throw PersistError.duplicate
            }
            try await SessionRecord.query(on: db).filter(\.$id == key).delete()
            try await SessionRecord(id: key, value: entry.value, expiresAt: entry.expiresAt).create(on: db)
            try await Self.sweep(on: db)
        }
        sessions.store(entry, key: key, since: before)
    }

    public func set<Object: Codable & Sendable>(key: String, value: Object, expires: Duration?) async throws {
        let text = try Self.encode(value)
        let expiresAt = Self.date(after: expires)
        // Dropped here and on every instance; the next read takes the new value.
        try await database.transaction(recording: [.session(key)]) { db in
            if let existing = try await SessionRecord.find(key, on: db) {
                existing.value = text
                // A nil expiry keeps the one already there, as the protocol asks.
                if expires != nil { existing.expiresAt = expiresAt }
                try await existing.update(on: db)
            } else {
                try await SessionRecord(id: key, value: text, expiresAt: expiresAt).create(on: db)
                try await Self.sweep(on: db)
            }
        }
    }

    public func get<Object: Codable & Sendable>(key: String, as type: Object.Type) async throws -> Object? {
        try await getWithTTL(key: key, as: type)?.object
    }

    public func getWithTTL<Object: Codable & Sendable>(
        key: String, as type: Object.Type
    ) async throws
        -> (object: Object, ttl: Duration?)?
    {
        let entry = try await sessions.entry(key: key) {
            try await SessionRecord.find(key, on: database.database()).map {
                SessionCache.Entry(value: $0.value, expiresAt: $0.expiresAt)
            }
        }
        guard let entry, !Self.isExpired(entry.expiresAt) else { return nil }
        do {
            let object = try JSONDecoder().decode(Object.self, from: Data(entry.value.utf8))
            let ttl = entry.expiresAt.map { Duration.seconds(max(0, Int64($0.timeIntervalSinceNow))) }
            return (object, ttl)
        } catch {
            throw PersistError.invalidConversion
        }
    }

    /// Deletes the session here and on every instance's cache.
    public func remove(key: String) async throws {
        try await database.transaction(recording: [.session(key)]) { db in
            try await SessionRecord.query(on: db).filter(\.$id == key).delete()
        }
    }

    /// Deletes expired rows; bounded so one request never pays for a long backlog.
    private static func sweep(on db: any Database) async throws {
        let stale = try await SessionRecord.query(on: db).filter(\.$expiresAt < Date()).limit(20).all(\.$id)
        guard !stale.isEmpty else { return }
        try await SessionRecord.query(on: db).filter(\.$id ~~ stale).delete()
    }

    static func isExpired(_ expiresAt: Date?, now: Date = Date()) -> Bool {
        expiresAt.map { $0 <= now } ?? false
    }

    static func date(after duration: Duration?) -> Date? {
        guard let duration else { return nil }
        let (seconds, attoseconds) = duration.components
        return Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) / 1e18)
    }

    static func encode<Object: Encodable>(_ value: Object) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }
}
