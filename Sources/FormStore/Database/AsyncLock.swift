/// A lock for async code, taken first come, first served: a task waiting for it is suspended
/// and holds no thread.
package actor AsyncLock {
    private var held = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// How many tasks wait for the lock now (for tests that line tasks up).
    package var waiters: Int { waiting.count }

    /// Returns once this task holds the lock; call ``unlock()`` exactly once after.
    package func lock() async {
        guard held else {
            held = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Hands the lock to the longest waiting task, or frees it.
    package func unlock() {
        if waiting.isEmpty {
            held = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
