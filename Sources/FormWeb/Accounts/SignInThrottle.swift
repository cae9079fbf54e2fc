import Foundation
import Synchronization

/// Slows password guessing: after ``limit`` wrong passwords for one user name within
/// ``window``, that name's sign-in is refused, without checking the password, until the oldest
/// of those attempts is older than the window. Counted per instance, in memory, for at most
/// ``capacity`` names (the least recently failed go first), so a guesser spread over several
/// instances gets a few more tries, never an unbounded number. A right password clears the count.
final class SignInThrottle: Sendable {
    static let limit = 5
    static let window: Duration = .seconds(15 * 60)
    static let capacity = 10_000

    private let failures = Mutex<[String: [ContinuousClock.Instant]]>([:])
    private let clock = ContinuousClock()

    /// How long until the name may try again; nil when it may now.
    func wait(for name: String) -> Duration? {
        let now = clock.now
        return failures.withLock { table in
            let recent = (table[Self.key(name)] ?? []).filter { now - $0 < Self.window }
            guard recent.count >= Self.limit, let oldest = recent.first else { return nil }
            return Self.window - (now - oldest)
        }
    }

    func failed(_ name: String) {
        let now = clock.now
        failures.withLock { table in
            let key = Self.key(name)
            var recent = (table[key] ?? []).filter { now - $0 < Self.window }
            recent.append(now)
            table[key] = Array(recent.suffix(Self.limit))
            if table.count > Self.capacity {
                // Drop the names whose last failure is oldest.
                let stale = table.sorted { ($0.value.last ?? now) < ($1.value.last ?? now) }
                    .prefix(table.count - Self.capacity)
                for (name, _) in stale { table[name] = nil }
            }
        }
    }

    func succeeded(_ name: String) {
        _ = failures.withLock { $0.removeValue(forKey: Self.key(name)) }
    }

    private static func key(_ name: String) -> String { name.lowercased() }
}
