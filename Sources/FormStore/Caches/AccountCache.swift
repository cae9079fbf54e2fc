import Foundation
import Synchronization

/// Accounts kept in memory by id, at most `capacity` (least recently used out), dropped when
/// the ``ChangeFeed`` says an account changed (password reset, deleted). A deleted account is
/// not remembered as absent: its id is never asked for again once its sessions are gone.
final class AccountCache: Sendable {
    private let cache: FeedCache<UUID, Account>

    init(feed: ChangeFeed, capacity: Int = 10_000) {
        cache = FeedCache(capacity: capacity, metrics: .accounts)
        feed.subscribe { [weak self] change in
            guard case .account(let id) = change, let self else { return }
            cache.drop { $0.removeValue(for: id) }
        }
    }

    /// The cached account, or what `read` finds (kept unless a change raced the read).
    func account(id: UUID, read: () async throws -> Account?) async throws -> Account? {
        try await cache.value(for: id, read: read)
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

    private let cache: FeedCache<String, Entry>

    init(feed: ChangeFeed, capacity: Int = 10_000) {
        cache = FeedCache(capacity: capacity, metrics: .sessions)
        feed.subscribe { [weak self] change in
            guard let self else { return }
            switch change {
            case .session(let key):
                cache.drop { $0.removeValue(for: key) }
            case .account(let id):
                // As the database deletes them: every session whose value names the account.
                cache.drop { $0.removeAll { $1.value.contains(id.uuidString) } }
            case .form:
                break
            }
        }
    }

    /// The cached session, or what `read` finds (kept unless a change raced the read).
    func entry(key: String, read: () async throws -> Entry?) async throws -> Entry? {
        try await cache.value(for: key, read: read)
    }

    /// Where the changes stand; note it before writing a session, for ``store(_:key:since:)``.
    var generation: UInt64 { cache.generation }

    /// Keeps what this instance just wrote, unless a change came in since `generation`.
    func store(_ entry: Entry, key: String, since generation: UInt64) {
        cache.store(entry, for: key, since: generation)
    }
}
