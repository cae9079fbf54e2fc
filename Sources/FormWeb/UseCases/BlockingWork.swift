import NIOPosix

/// Work of a request that may take milliseconds of CPU, run on NIO's blocking pool, never on
/// a thread that serves requests (Swift's cooperative pool has a thread per core): an XForm's
/// rules, whose `regex()` calls each may take a few milliseconds on a value made to backtrack,
/// a large form's hundreds of expressions, and a value whose pattern needs more work than a
/// request's thread may give.
enum BlockingWork {
    /// `work` on the blocking pool; inline only when the pool has stopped (the server is
    /// stopping).
    static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        if let done = await ifRunning(work) { return done }
        return work()
    }

    /// `work` on the blocking pool, or nil when the pool has stopped.
    @Sendable static func ifRunning<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T? {
        try? await NIOThreadPool.singleton.runIfActive(work)
    }
}
