import FormStore

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
        (try? await DatabaseOutage.withDeadline(timeout, probe)) != nil
    }
}
