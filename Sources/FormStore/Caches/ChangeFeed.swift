import FluentKit
import Foundation
import Logging
import NIOPosix
import ServiceLifecycle
import Synchronization

/// Something a cache may hold that a write can make stale.
package enum CacheChange: Sendable, Hashable {
    /// A form's head: its latest version, access, state or uploaded lists.
    case form(String)
    /// A session, by its storage key: signed out.
    case session(String)
    /// An account: its password was reset or it was deleted; its sessions end with it.
    case account(UUID)
}

/// How every instance's caches stay correct: a write records what it changed in
/// `cache_changes` (``ChangeRecord``), in the transaction that makes the change, and once that
/// commits drops the entries here (``apply(_:)``). Every instance reads the rows after the last
/// it saw every quarter of a second (``ChangeFeedService``), so a change made on one instance
/// reaches every other within about half a second: inside the one second the README promises.
///
/// Rows are read again from a few before the last one seen, since PostgreSQL numbers a row when
/// it is inserted, not when its transaction commits: a lower number can become visible after a
/// higher one. Each row is read and applied once: the numbers in that window already applied
/// are kept. An instance's own changes are applied at once after their commit (``apply(_:recorded:)``),
/// and their rows are then marked as applied, so reading them back does not drop the entries a
/// second time (which would throw away what was cached again since, and race a request that just
/// filled it). A commit whose answer never came is still followed: its rows were never marked.
package final class ChangeFeed: Sendable {
    private let listeners = Mutex<[@Sendable (CacheChange) -> Void]>([])
    private let position = Mutex<Position?>(nil)

    /// The newest row this instance has read (nil before its first read): what a test waits for
    /// to know every change made so far has reached the caches.
    package var lastRead: Int? { position.withLock { $0?.last } }

    /// The newest row in the feed now, as any instance may write it.
    package func newest(on db: any Database) async throws -> Int {
        try await ChangeRecord.query(on: db).max(\.$id) ?? 0
    }

    /// The newest row seen, and the rows of the window before it already applied.
    private struct Position {
        var last: Int
        var applied: Set<Int> = []
    }
    /// How far back each read starts before the last row seen.
    static let overlap = 64
    /// Rows older than this many behind the newest are deleted now and then.
    static let kept = 10_000

    package init() {}

    /// Calls `listener` with every change, made here or on another instance.
    package func subscribe(_ listener: @escaping @Sendable (CacheChange) -> Void) {
        listeners.withLock { $0.append(listener) }
    }

    /// Records changes for the other instances; call inside the transaction that makes them,
    /// then ``apply(_:recorded:)`` with the rows' numbers after it commits. A transaction whose
    /// caller never heard it commit (a deadline passed, a COMMIT with no answer) is followed all
    /// the same: this instance reads its own rows from the feed too, and applies those it has not.
    /// - Returns: the numbers of the rows written.
    func record(_ changes: [CacheChange], on db: any Database) async throws -> [Int] {
        var recorded: [Int] = []
        for change in changes {
            let row = ChangeRecord(change)
            try await row.create(on: db)
            if let id = row.id { recorded.append(id) }
        }
        return recorded
    }

    /// Drops what the changes made stale from this instance's caches; `recorded`, the feed's rows
    /// of those changes, are not applied again when the feed reads them.
    func apply(_ changes: [CacheChange], recorded: [Int] = []) {
        if !recorded.isEmpty {
            position.withLock { position in
                guard var current = position else { return }
                // Rows at or below the window's start are never read again; the others are skipped.
                current.applied.formUnion(recorded.filter { $0 > current.last - Self.overlap })
                position = current
            }
        }
        let listeners = listeners.withLock { $0 }
        for change in changes {
            for listener in listeners { listener(change) }
        }
    }

    /// Reads and applies the rows after the last one seen. The first call only notes where the
    /// list ends: caches start empty, so nothing before that can be stale in them.
    /// - Returns: how many changes were applied.
    @discardableResult
    package func catchUp(on db: any Database) async throws -> Int {
        guard let last = position.withLock({ $0?.last }) else {
            let newest = try await ChangeRecord.query(on: db).max(\.$id) ?? 0
            position.withLock { $0 = $0 ?? Position(last: newest) }
            return 0
        }
        let from = max(0, last - Self.overlap)
        let rows = try await ChangeRecord.query(on: db)
            .filter(\.$id > from)
            .sort(\.$id)
            .limit(5_000)
            .all()
        let fresh = position.withLock { position -> [ChangeRecord] in
            guard var current = position else { return [] }
            let fresh = rows.filter { row in row.id.map { !current.applied.contains($0) } ?? false }
            current.last = max(current.last, rows.last?.id ?? 0)
            current.applied.formUnion(fresh.compactMap(\.id))
            // Kept: the window's rows, and own rows applied at commit that were not read yet.
            current.applied = current.applied.filter { $0 > current.last - Self.overlap }
            position = current
            return fresh
        }
        apply(fresh.compactMap(\.change))
        return fresh.count
    }

    /// Deletes rows far behind the newest one.
    func trim(on db: any Database) async throws {
        guard let newest = try await ChangeRecord.query(on: db).max(\.$id), newest > Self.kept else { return }
        try await ChangeRecord.query(on: db).filter(\.$id < newest - Self.kept).delete()
    }
}

/// Follows the ``ChangeFeed`` every quarter of a second until shutdown, and trims it every minute.
package struct ChangeFeedService: Service {
    let feed: ChangeFeed
    let database: FieldworkDatabase
    let logger: Logger
    var interval: Duration = .milliseconds(250)
    /// How long the database may not answer before the connection pool is replaced.
    var reopenAfter: Duration = .seconds(10)

    package init(feed: ChangeFeed, database: FieldworkDatabase, logger: Logger) {
        self.feed = feed
        self.database = database
        self.logger = logger
    }

    package func run() async throws {
        try? await cancelWhenGracefulShutdown { try await follow() }
    }

    private func follow() async throws {
        var polls = 0
        var failingSince: ContinuousClock.Instant?
        var lastReopen: ContinuousClock.Instant?
        while !Task.isCancelled {
            do {
                try await feed.catchUp(on: database.database())
                if polls % 240 == 0 { try await feed.trim(on: database.database()) }
                if failingSince != nil { logger.notice("The database answers again") }
                failingSince = nil
            } catch {
                // Logged once per outage; the caches cannot go stale meanwhile, since no
                // instance can write the changes either.
                let now = ContinuousClock.now
                if failingSince == nil { logger.warning("The database does not answer: \(error)") }
                let since = failingSince ?? now
                failingSince = since
                // A PostgreSQL pool can stay stuck after the server restarted under it (a
                // connection that failed while the server was starting up keeps its slot):
                // after ten seconds without an answer, and every ten seconds after, it is
                // replaced by a new one, which connects afresh once the server is back.
                if !database.usesSQLite, now - since >= reopenAfter, now - (lastReopen ?? since) >= reopenAfter {
                    lastReopen = now
                    logger.notice("Reopening the database connection pool")
                    // The old pool's shutdown waits for its connections to close: on the thread
                    // pool, not on one of the few threads every request runs on.
                    let databases = database.databases
                    try? await NIOThreadPool.singleton.runIfActive { databases.reinitialize(.psql) }
                }
            }
            polls += 1
            try await Task.sleep(for: interval)
        }
    }
}
