import Foundation

/// When a delivery that was not answered with a 2xx is tried again: exponential back-off with
/// full jitter, for 24 hours. After the n-th failed attempt since the event became due, the next
/// one comes after a random wait between one second and `min(10 s · 2ⁿ⁻¹, 1 h)`: the first retry
/// within 10 s, then 20 s, 40 s, … at most, never more than an hour apart. The last one is at the
/// end of the 24 hours; a failure then marks the event failed.
package struct WebhookSchedule: Sendable {
    package var first: TimeInterval = 10
    package var ceiling: TimeInterval = 60 * 60
    package var window: TimeInterval = 24 * 60 * 60
    /// The least wait: a receiver that fails at once is not asked again in the same breath.
    package var floor: TimeInterval = 1

    package init() {}

    /// What follows a failed attempt: the time of the next one, or nil when the retries are over.
    /// - Parameters:
    ///   - failures: the failed attempts since the event became due, this one included.
    ///   - since: when it became due (written, or sent again by an admin).
    ///   - random: a number in `0...1` (the jitter), injected by tests.
    package func next(
        afterFailures failures: Int, since: Date, now: Date, random: Double = Double.random(in: 0...1)
    ) -> Date? {
        let end = since.addingTimeInterval(window)
        guard now < end else { return nil }
        return min(now.addingTimeInterval(wait(afterFailures: failures, random: random)), end)
    }

    /// The wait after the n-th failure: full jitter under the exponential cap.
    package func wait(afterFailures failures: Int, random: Double) -> TimeInterval {
        let cap = self.cap(afterFailures: failures)
        return max(floor, min(cap, cap * random))
    }

    /// The longest wait after the n-th failure: 10 s, 20 s, 40 s, … 1 h.
    package func cap(afterFailures failures: Int) -> TimeInterval {
        // 2⁹ · 10 s is past an hour already: no overflow, however many failures.
        min(ceiling, first * pow(2, Double(min(max(failures, 1) - 1, 20))))
    }
}
