import FormStore
import Foundation
import Hummingbird

/// Hummingbird's key/value `PersistDriver` over the store's sessions (``SessionStore``): the
/// keys hashed (``SessionKey``: the database, its change feed and the caches never hold a
/// session id a browser could present), the values as JSON text, the durations as expiry dates.
package struct DatabasePersistDriver: PersistDriver {
    let sessions: SessionStore
    /// Sessions as decoded, by their JSON: a signed-in viewer's every page decoded the same few
    /// bytes of JSON again (a tenth of a signed-in create view's instructions). Keyed by the text
    /// itself, so a changed session is a new entry and nothing needs to be dropped.
    private let decoded = LockedCache<DecodedKey, any Sendable>(capacity: 10_000)

    private struct DecodedKey: Hashable, Sendable {
        let type: ObjectIdentifier
        let json: String
    }

    /// The time that expiries are read against: the system's, or a test's own.
    private let now: @Sendable () -> Date

    package init(database: FieldworkDatabase, now: @escaping @Sendable () -> Date = Date.init) {
        sessions = SessionStore(database: database, now: now)
        self.now = now
    }

    package func create<Object: Codable & Sendable>(key: String, value: Object, expires: Duration?) async throws {
        do {
            try await sessions.create(
                key: SessionKey.stored(key), value: try Self.encode(value), expiresAt: date(after: expires))
        } catch is SessionStore.KeyTaken {
            throw PersistError.duplicate
        }
    }

    /// A nil expiry keeps the one already there, as the protocol asks.
    package func set<Object: Codable & Sendable>(key: String, value: Object, expires: Duration?) async throws {
        try await sessions.set(
            key: SessionKey.stored(key), value: try Self.encode(value), expiresAt: date(after: expires))
    }

    package func get<Object: Codable & Sendable>(key: String, as type: Object.Type) async throws -> Object? {
        try await getWithTTL(key: key, as: type)?.object
    }

    package func getWithTTL<Object: Codable & Sendable>(
        key: String, as type: Object.Type
    ) async throws
        -> (object: Object, ttl: Duration?)?
    {
        guard let entry = try await sessions.get(key: SessionKey.stored(key)) else { return nil }
        let object: any Sendable
        do {
            object = try decoded.value(for: DecodedKey(type: ObjectIdentifier(Object.self), json: entry.value)) {
                try JSONDecoder().decode(Object.self, from: Data(entry.value.utf8))
            }
        } catch {
            throw PersistError.invalidConversion
        }
        guard let object = object as? Object else { throw PersistError.invalidConversion }
        let now = now()
        let ttl = entry.expiresAt.map { Duration.seconds(max(0, $0.timeIntervalSince(now))) }
        return (object, ttl)
    }

    /// Deletes the session here and on every instance's cache.
    package func remove(key: String) async throws {
        try await sessions.remove(key: SessionKey.stored(key))
    }

    func date(after duration: Duration?) -> Date? {
        guard let duration else { return nil }
        let (seconds, attoseconds) = duration.components
        return now().addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
    }

    static func encode<Object: Encodable>(_ value: Object) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }
}
