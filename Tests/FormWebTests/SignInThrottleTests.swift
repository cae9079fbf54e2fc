import Synchronization
import Testing

@testable import FormWeb

@Suite("Sign-in throttle")
struct SignInThrottleTests {
    /// A clock that stands still until the test moves it.
    final class ManualClock: Sendable {
        private let current = Mutex(ContinuousClock.now)

        var now: @Sendable () -> ContinuousClock.Instant { { self.current.withLock { $0 } } }

        func advance(by duration: Duration) { current.withLock { $0 += duration } }
    }

    @Test("five wrong passwords hold a name for the window from the first, whatever the case; a right one clears it")
    func window() {
        let clock = ManualClock()
        let throttle = SignInThrottle(now: clock.now)
        for _ in 1...5 {
            #expect(throttle.attempt("admin") == nil)
            clock.advance(by: .seconds(60))
        }
        // Five minutes after the first: ten minutes left.
        #expect(throttle.attempt("ADMIN") == .seconds(600))
        #expect(throttle.attempt("ada") == nil, "another name is not held up")
        clock.advance(by: .seconds(600))
        #expect(throttle.attempt("admin") == nil, "the first guess left the window")
        throttle.succeeded("admin")
        for _ in 1...5 { #expect(throttle.attempt("admin") == nil) }
        #expect(throttle.attempt("admin") == .seconds(900))
    }
}
