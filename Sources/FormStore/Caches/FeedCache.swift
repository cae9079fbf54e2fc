import Synchronization

/// A bounded cache (``LRUCache``) that the ``ChangeFeed`` keeps correct: entries go when a
/// change drops them, and a value read from the database while a change came in is not kept.
/// The entries and the count of changes are behind one lock, so "nothing changed since the
/// read began" and "keep the value" are one step: a change cannot land between them.
final class FeedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct State {
        var entries: LRUCache<Key, Value>
        /// Bumped by every drop: a read that began before it keeps nothing.
        var generation: UInt64 = 0
    }

    private let state: Mutex<State>
    /// The hit and miss counters it counts under, if any.
    private let metrics: FieldworkMetrics.Cache?

    init(capacity: Int, metrics: FieldworkMetrics.Cache? = nil) {
        state = Mutex(State(entries: LRUCache(capacity: capacity)))
        self.metrics = metrics
    }

    /// The cached value, or what `read` finds, kept unless a change came in while it was read.
    func value(for key: Key, read: () async throws -> Value?) async throws -> Value? {
        let (cached, before) = state.withLock { ($0.entries.value(for: key), $0.generation) }
        if let cached {
            metrics.map(FieldworkMetrics.cacheHit)
            return cached
        }
        metrics.map(FieldworkMetrics.cacheMiss)
        guard let value = try await read() else { return nil }
        state.withLock { if $0.generation == before { $0.entries.set(value, for: key) } }
        return value
    }

    /// The cached value, without waiting: nil when it is not in memory (counted as a hit only
    /// when found; a miss is counted by the ``value(for:read:)`` that reads it).
    func cached(for key: Key) -> Value? {
        let cached = state.withLock { $0.entries.value(for: key) }
        if cached != nil { metrics.map(FieldworkMetrics.cacheHit) }
        return cached
    }

    /// Where the changes stand: a writer notes it before writing, then ``store(_:for:since:)``.
    var generation: UInt64 { state.withLock { $0.generation } }

    /// Keeps what this instance wrote, unless a change came in after `generation` (a password
    /// reset between a session's write and this would otherwise leave it cached).
    func store(_ value: Value, for key: Key, since generation: UInt64) {
        state.withLock { if $0.generation == generation { $0.entries.set(value, for: key) } }
    }

    /// Drops entries, and keeps any read in flight from keeping what it read.
    func drop(_ change: (inout LRUCache<Key, Value>) -> Void) {
        state.withLock { state in
            state.generation &+= 1
            change(&state.entries)
        }
    }
}
