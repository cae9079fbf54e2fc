import NIOConcurrencyHelpers

/// Whether the server can do its work: the database answers a trivial query in time.
struct Readiness: Sendable {
    /// The check itself; it throws when the database refuses.
    let probe: @Sendable () async throws -> Void
    /// How long `/ready` waits before it answers 503: a load balancer asks again soon, and a
    /// check that hangs as long as the database does would hold its connections too.
    let timeout: Duration

    /// True when ``probe`` returned within ``timeout``; false when it threw or took longer.
    /// Returns by the timeout whatever the probe does (a database driver waiting for a
    /// connection to a stopped server may wait longer): the probe then ends in the background.
    func check() async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let answered = NIOLockedValueBox(false)
            let answer: @Sendable (Bool) -> Void = { ready in
                let first = answered.withLockedValue { done in
                    defer { done = true }
                    return !done
                }
                if first { continuation.resume(returning: ready) }
            }
            let probe = probe
            let timeout = timeout
            let timer = Task {
                // Cancelled once the probe answered; else it answers false when the time is up.
                guard (try? await Task.sleep(for: timeout)) != nil else { return }
                answer(false)
            }
            Task {
                let ready: Bool
                do {
                    try await probe()
                    ready = true
                } catch {
                    ready = false
                }
                timer.cancel()
                answer(ready)
            }
        }
    }
}
