import Synchronization

/// Wakes the webhook worker at once when a change with events committed in this process; the
/// worker otherwise polls (events written by other instances, or left by a stopped one).
final class WebhookWakeup: Sendable {
    private struct State {
        /// A signal came while nobody waited: the next wait returns at once.
        var signalled = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    init() {}

    /// Wakes the waiting worker, or the next wait.
    func signal() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.signalled = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Returns on a signal, after `timeout`, or when the task is cancelled. One waiter at a time.
    func wait(upTo timeout: Duration) async {
        let timer = Task {
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            self.signal()
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.signalled {
                        state.signalled = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            self.signal()
        }
        timer.cancel()
    }
}
