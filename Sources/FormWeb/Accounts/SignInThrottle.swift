import Crypto
import Foundation
import Synchronization

/// Slows password guessing: after ``limit`` wrong passwords for one user name within
/// ``window``, that name's sign-in is refused, without checking the password, until the oldest
/// of those attempts is older than the window. Anyone can so hold a name up for a while; the
/// account's own user waits too, which is the price of the limit.
///
/// An attempt counts as wrong from the moment it is let through (``attempt(_:)``), in one step
/// with the check, so guesses sent all at once cannot pass the check before any is counted; a
/// right password clears the name's count (``succeeded(_:)``). Names are kept by a hash of
/// their lower-case form, at most ``capacity`` of them: past that, expired counts go first, then
/// the names with the fewest recent failures, a tenth at a time, so a flood of one-guess names
/// cannot push out a name that is being guessed. Counted per instance, in memory: a guesser
/// spread over several instances gets a few more tries, never an unbounded number.
final class SignInThrottle: Sendable {
    static let limit = 5
    static let window: Duration = .seconds(15 * 60)
    static let capacity = 10_000

    private let failures = Mutex<[SHA256Digest: [ContinuousClock.Instant]]>([:])
    /// The time attempts are counted in: the system's, or a test's own.
    private let now: @Sendable () -> ContinuousClock.Instant

    init(now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }) {
        self.now = now
    }

    /// Lets an attempt through, counted as a failure until it succeeds, or says how long until
    /// the name may try again.
    func attempt(_ name: String) -> Duration? {
        let now = now()
        let key = Self.key(name)
        return failures.withLock { table in
            var recent = (table[key] ?? []).filter { now - $0 < Self.window }
            if recent.count >= Self.limit, let oldest = recent.first { return Self.window - (now - oldest) }
            recent.append(now)
            table[key] = recent
            if table.count > Self.capacity { Self.prune(&table, now: now) }
            return nil
        }
    }

    /// The attempt's password was right: the name starts afresh.
    func succeeded(_ name: String) {
        _ = failures.withLock { $0.removeValue(forKey: Self.key(name)) }
    }

    private static func prune(_ table: inout [SHA256Digest: [ContinuousClock.Instant]], now: ContinuousClock.Instant) {
        table = table.filter { _, times in times.contains { now - $0 < window } }
        guard table.count > capacity else { return }
        let goners = table.sorted { a, b in
            a.value.count != b.value.count
                ? a.value.count < b.value.count : (a.value.last ?? now) < (b.value.last ?? now)
        }
        .prefix(table.count - capacity * 9 / 10)
        for (key, _) in goners { table[key] = nil }
    }

    private static func key(_ name: String) -> SHA256Digest { SHA256.hash(data: Data(name.lowercased().utf8)) }
}
