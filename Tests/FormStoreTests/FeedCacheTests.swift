import Testing

@testable import FormStore

@Suite("A cache the change feed keeps")
struct FeedCacheTests {
    @Test("a value read while a change came in is returned but not kept; one read after it is kept")
    func readRacingAChange() async throws {
        let cache = FeedCache<String, Int>(capacity: 4)
        let first = try await cache.value(for: "a") {
            cache.drop { $0.removeValue(for: "a") }  // a change lands while the database is read
            return 1
        }
        #expect(first == 1)
        #expect(try await cache.value(for: "a") { 2 } == 2, "the raced value was not kept")
        #expect(try await cache.value(for: "a") { 3 } == 2, "the next one was")
    }

    @Test("what this instance wrote is kept only when no change came in since it began writing")
    func storeSince() async throws {
        let cache = FeedCache<String, Int>(capacity: 4)
        let before = cache.generation
        cache.drop { $0.removeAll { _, _ in true } }  // a password reset between the write and the store
        cache.store(1, for: "s", since: before)
        #expect(try await cache.value(for: "s") { nil } == nil)
        cache.store(2, for: "s", since: cache.generation)
        #expect(try await cache.value(for: "s") { nil } == 2)
    }
}
