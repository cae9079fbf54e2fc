import Synchronization

/// A map that keeps at most `capacity` entries, dropping the least recently used ones when it
/// grows past that. Not thread-safe: hold it in a `Mutex` or an actor.
///
/// Eviction removes the oldest quarter at once (sorted by last use), so its cost spreads over
/// the inserts that filled the room: O(log n) per insert, and a lookup stays one hash.
package struct LRUCache<Key: Hashable, Value> {
    let capacity: Int
    private var entries: [Key: Entry] = [:]
    private var clock: UInt64 = 0

    private struct Entry {
        var value: Value
        var used: UInt64
    }

    package init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
    }

    var count: Int { entries.count }

    /// The value for `key`, marked as just used; nil when absent.
    package mutating func value(for key: Key) -> Value? {
        // One hash lookup: the entry is marked through its index.
        guard let index = entries.index(forKey: key) else { return nil }
        clock += 1
        entries.values[index].used = clock
        return entries.values[index].value
    }

    package mutating func set(_ value: Value, for key: Key) {
        clock += 1
        entries[key] = Entry(value: value, used: clock)
        if entries.count > capacity { evict() }
    }

    mutating func removeValue(for key: Key) {
        entries.removeValue(forKey: key)
    }

    /// Removes every entry whose value matches.
    package mutating func removeAll(where matches: (Key, Value) -> Bool) {
        entries = entries.filter { !matches($0.key, $0.value.value) }
    }

    private mutating func evict() {
        let drop = max(1, capacity / 4) + (entries.count - capacity - 1)
        let oldest = entries.sorted { $0.value.used < $1.value.used }.prefix(drop).map(\.key)
        for key in oldest { entries.removeValue(forKey: key) }
    }
}

/// An ``LRUCache`` behind a lock, for values that stay right once computed (nothing needs to
/// drop them, unlike ``FeedCache``'s): keeps work done on one request for the next.
package final class LockedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let entries: Mutex<LRUCache<Key, Value>>

    package init(capacity: Int) {
        entries = Mutex(LRUCache(capacity: capacity))
    }

    /// The value kept for `key`, or what `make` makes, kept for next time.
    package func value(for key: Key, make: () throws -> Value) rethrows -> Value {
        if let value = entries.withLock({ $0.value(for: key) }) { return value }
        let value = try make()
        entries.withLock { $0.set(value, for: key) }
        return value
    }
}
