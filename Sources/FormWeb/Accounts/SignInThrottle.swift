import Crypto
import FormModel
import Foundation
import Synchronization

/// Slows password guessing with growing delays, per user name and per client address, never
/// locking either for good (ASVS 4.0 2.2.1): a user name may take ``perName``'s free wrong
/// passwords, then waits 30 s before the next try, then a minute, two, four… at most 15
/// minutes between tries; a client address may take ``perAddress``'s (many people share an
/// address behind one proxy), then the same. A guesser of one name gets a few dozen tries a
/// day; one password sprayed over many names meets the address's limit; someone who keeps the
/// admin's name busy only makes the admin wait a while, and a right password (after the wait)
/// signs in and starts the name afresh. A count starts afresh after ``quiet`` without a wrong
/// password.
///
/// An attempt counts as wrong from the moment it is let through (``attempt(name:address:)``), in
/// one step with the check, so guesses sent all at once cannot pass the check before any is
/// counted; a right password clears the name's count (``succeeded(name:)``), not the address's.
/// Kept by a hash of the lower-case name or the address, at most ``capacity`` keys: past that,
/// the quiet ones go first, then those with the fewest failures, a tenth at a time, so a flood
/// of one-guess names cannot push out a name being guessed. Counted per instance, in memory: a
/// guesser spread over several instances gets a few more tries, never an unbounded number.
final class SignInThrottle: Sendable {
    /// How many wrong passwords go free, and how the wait grows after them.
    struct Policy: Sendable {
        var free: Int
        var firstWait: Duration = .seconds(30)
        var longestWait: Duration = .seconds(15 * 60)

        /// The wait after the `failures`-th wrong password: none while free, then doubling.
        func wait(after failures: Int) -> Duration {
            guard failures >= free else { return .zero }
            let doublings = min(failures - free, 20)
            return min(firstWait * (1 << doublings), longestWait)
        }
    }

    static let perName = Policy(free: 5)
    static let perAddress = Policy(free: 30)
    /// A key's count starts afresh after this long without a wrong password.
    static let quiet: Duration = .seconds(60 * 60)
    static let capacity = 10_000

    /// Whose attempts a count is of.
    enum Subject: Sendable {
        case name
        case address
    }

    /// Why an attempt must wait, and how long.
    struct Held: Sendable, Equatable {
        var subject: Subject
        var wait: Duration

        /// The wait in whole seconds, rounded up (for `Retry-After`), and in words: "30 seconds",
        /// "2 minutes".
        var wording: (seconds: Int, text: String) {
            let seconds = max(1, Int(wait.components.seconds) + (wait.components.attoseconds > 0 ? 1 : 0))
            return (
                seconds, seconds < 60 ? Words.count(seconds, "second") : Words.count((seconds + 59) / 60, "minute")
            )
        }
    }

    private struct Key: Hashable {
        var digest: SHA256Digest
    }

    private struct Count {
        var failures = 0
        var last: ContinuousClock.Instant
        var nextAllowed: ContinuousClock.Instant
    }

    private let counts = Mutex<[Key: Count]>([:])
    /// The time attempts are counted in: the system's, or a test's own.
    private let now: @Sendable () -> ContinuousClock.Instant

    init(now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }) {
        self.now = now
    }

    /// Lets an attempt through, counted as a wrong password of its name and its address until it
    /// succeeds, or says which must wait and how long (the longer of the two).
    func attempt(name: String, address: String?) -> Held? {
        let now = now()
        let keys: [(Subject, Key, Policy)] =
            [(.name, Self.key("name:" + name.lowercased()), Self.perName)]
            + (address.map { [(.address, Self.key("address:" + $0), Self.perAddress)] } ?? [])
        return counts.withLock { table in
            var held: Held?
            for (subject, key, _) in keys {
                guard let count = table[key], now - count.last < Self.quiet, now < count.nextAllowed else { continue }
                let wait = count.nextAllowed - now
                if wait > held?.wait ?? .zero { held = Held(subject: subject, wait: wait) }
            }
            if let held { return held }
            for (_, key, policy) in keys {
                var count =
                    table[key].flatMap { now - $0.last < Self.quiet ? $0 : nil }
                    ?? Count(last: now, nextAllowed: now)
                count.failures += 1
                count.last = now
                count.nextAllowed = now + policy.wait(after: count.failures)
                table[key] = count
            }
            if table.count > Self.capacity { Self.prune(&table, now: now) }
            return nil
        }
    }

    /// The attempt's password was right: the name starts afresh (its address does not: one
    /// account of one's own must not reset a sprayer's count).
    func succeeded(name: String) {
        _ = counts.withLock { $0.removeValue(forKey: Self.key("name:" + name.lowercased())) }
    }

    private static func prune(_ table: inout [Key: Count], now: ContinuousClock.Instant) {
        table = table.filter { _, count in now - count.last < quiet }
        guard table.count > capacity else { return }
        let goners = table.sorted { a, b in
            a.value.failures != b.value.failures ? a.value.failures < b.value.failures : a.value.last < b.value.last
        }
        .prefix(table.count - capacity * 9 / 10)
        for (key, _) in goners { table[key] = nil }
    }

    private static func key(_ text: String) -> Key { Key(digest: SHA256.hash(data: Data(text.utf8))) }
}
