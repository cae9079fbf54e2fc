import Testing

@testable import FormStore

@Suite("Bounded caches")
struct LRUCacheTests {
    @Test("a lookup marks an entry as used: past capacity the least recently used go first")
    func evictsLeastRecentlyUsed() {
        var cache = LRUCache<String, Int>(capacity: 4)
        for (index, key) in ["a", "b", "c", "d"].enumerated() { cache.set(index, for: key) }
        #expect(cache.value(for: "a") == 0)
        cache.set(4, for: "e")
        #expect(cache.count <= 4)
        #expect(cache.value(for: "a") == 0, "used last, kept")
        #expect(cache.value(for: "b") == nil, "used least, gone")
        #expect(cache.value(for: "e") == 4)
    }

    @Test("a locked cache makes a value once and keeps it")
    func lockedCacheKeeps() {
        let cache = LockedCache<String, Int>(capacity: 2)
        var made = 0
        let first = cache.value(for: "a") {
            made += 1
            return 1
        }
        let second = cache.value(for: "a") {
            made += 1
            return 2
        }
        #expect(first == 1 && second == 1 && made == 1)
    }
}
