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

    @Test("a name takes five wrong passwords, then waits 30 s, a minute, two… never more than 15 minutes")
    func growingDelays() {
        let clock = ManualClock()
        let throttle = SignInThrottle(now: clock.now)
        for _ in 1...5 { #expect(throttle.attempt(name: "admin", address: nil) == nil) }
        #expect(throttle.attempt(name: "ADMIN", address: nil) == .init(subject: .name, wait: .seconds(30)))
        #expect(throttle.attempt(name: "ada", address: nil) == nil, "another name is not held up")
        var waits: [Duration] = []
        for _ in 1...8 {
            let held = throttle.attempt(name: "admin", address: nil)
            waits.append(held?.wait ?? .zero)
            clock.advance(by: held?.wait ?? .zero)
            #expect(throttle.attempt(name: "admin", address: nil) == nil, "let through once the wait is over")
        }
        #expect(waits.map { $0.components.seconds } == [30, 60, 120, 240, 480, 900, 900, 900])
        // A right password after the wait signs in and starts the name afresh.
        clock.advance(by: .seconds(900))
        #expect(throttle.attempt(name: "admin", address: nil) == nil)
        throttle.succeeded(name: "admin")
        for _ in 1...5 { #expect(throttle.attempt(name: "admin", address: nil) == nil) }
        #expect(throttle.attempt(name: "admin", address: nil)?.wait == .seconds(30))
    }

    @Test("one address spraying one password over many names is held after thirty; an hour's quiet forgets it")
    func spraying() {
        let clock = ManualClock()
        let throttle = SignInThrottle(now: clock.now)
        for index in 1...30 { #expect(throttle.attempt(name: "user\(index)", address: "192.0.2.7") == nil) }
        #expect(throttle.attempt(name: "user31", address: "192.0.2.7") == .init(subject: .address, wait: .seconds(30)))
        #expect(throttle.attempt(name: "user31", address: "198.51.100.1") == nil, "another address is not held up")
        // A right password of one's own does not reset the address.
        throttle.succeeded(name: "user1")
        #expect(throttle.attempt(name: "user1", address: "192.0.2.7")?.subject == .address)
        clock.advance(by: .seconds(3600))
        #expect(throttle.attempt(name: "user32", address: "192.0.2.7") == nil)
    }
}
