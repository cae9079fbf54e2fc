import Foundation
import Synchronization

/// Accounts kept in memory by id, at most `capacity` (least recently used out), dropped when
/// the ``ChangeFeed`` says an account changed (password reset, deleted). A deleted account is
/// not remembered as absent: its id is never asked for again once its sessions are gone.
final class AccountCache: Sendable {
    private let cache: Mutex<LRUCache<UUID, Account>>
    private let generation = Mutex<UInt64>(0)

    init(feed: ChangeFeed, capacity: Int = 10_000) {
        cache = Mutex(LRUCache(capacity: capacity))
        feed.subscribe { [weak self] change in
            guard case .account(let id) = change, let self else { return }
            generation.withLock { $0 &+= 1 }
            cache.withLock { $0.removeValue(for: id) }
        }
    }

    /// The cached account, or what `read` finds (kept unless a change raced the read).
    func account(id: UUID, read: () async throws -> Account?) async throws -> Account? {
        if let cached = cache.withLock({ $0.value(for: id) }) { return cached }
        let before = generation.withLock { $0 }
        guard let account = try await read() else { return nil }
        if generation.withLock({ $0 }) == before { cache.withLock { $0.set(account, for: id) } }
        return account
    }
}

/// Sessions kept in memory by storage key, as their JSON text and expiry, at most `capacity`
/// (least recently used out). A sign-out drops its session here and, through the
/// ``ChangeFeed``, on every instance; a password reset or a deleted account drops every
/// session that names the account.
final class SessionCache: Sendable {
    struct Entry: Sendable {
        var value: String
        var expiresAt: Date?
    }

    private let cache: Mutex<LRUCache<String, Entry>>
    private let generation = Mutex<UInt64>(0)

    init(feed: ChangeFeed, capacity: Int = 10_000) {
        cache = Mutex(LRUCache(capacity: capacity))
        feed.subscribe { [weak self] change in
            guard let self else { return }
            switch change {
            case .session(let key):
                generation.withLock { $0 &+= 1 }
                cache.withLock { $0.removeValue(for: key) }
            case .account(let id):
                // As the database deletes them: every session whose value names the account.
                generation.withLock { $0 &+= 1 }
                cache.withLock { $0.removeAll { $1.value.contains(id.uuidString) } }
            case .form:
                break
            }
        }
    }

    /// The cached session, or what `read` finds (kept unless a change raced the read).
    func entry(key: String, read: () async throws -> Entry?) async throws -> Entry? {
        if let cached = cache.withLock({ $0.value(for: key) }) {
            FieldworkMetrics.cacheHit(.sessions)
            return cached
        }
        FieldworkMetrics.cacheMiss(.sessions)
        let before = generation.withLock { $0 }
        guard let entry = try await read() else { return nil }
        if generation.withLock({ $0 }) == before { cache.withLock { $0.set(entry, for: key) } }
        return entry
    }

    /// Keeps what this instance just wrote.
    func store(_ entry: Entry, key: String) {
        cache.withLock { $0.set(entry, for: key) }
    }
}
