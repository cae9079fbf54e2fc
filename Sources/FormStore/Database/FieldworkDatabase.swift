import FluentKit
import FluentPostgresDriver
import FluentSQLiteDriver
import Foundation
import Logging
import NIOCore
import NIOPosix
import SQLKit
import Synchronization

/// The open database: FluentKit's `Databases` on the shared thread pool and event loops, migrated.
///
/// Open it once per process with ``open(_:logger:)``; close it with ``shutdown()`` or let a
/// ``DatabaseService`` do that under a `ServiceGroup`.
package struct FieldworkDatabase: Sendable {
    package let databases: Databases
    let logger: Logger
    /// SQLite (one instance per file) rather than PostgreSQL (any number of instances).
    package let usesSQLite: Bool
    /// How long PostgreSQL calls may take before they count as an outage.
    package let deadlines: DatabaseDeadlines
    /// What every write that can make a cache stale records, and every cache follows.
    package let feed = ChangeFeed()
    /// SQLite's write transactions in this process, one at a time (see ``transaction(deadline:_:)``).
    package let writes = AsyncLock()
    /// SQLite's creates, written in batches while they wait for a transaction (group commit).
    package let creates = CreateBatcher()
    /// SQLite's connection for the busiest writes, on the calling thread (see ``write(_:)``).
    private(set) var direct: SQLiteDirect?

    /// Opens SQLite `<data>/fieldwork.sqlite` (or PostgreSQL when the location has a URL),
    /// creating the data folder, and runs the migrations.
    package static func open(_ location: StoreLocation, logger: Logger) async throws -> FieldworkDatabase {
        // Owner-only: the folder holds every submission, the keys and the sessions.
        try PrivateFiles.folder(location.dataFolder)
        let databases = Databases(threadPool: NIOThreadPool.singleton, on: MultiThreadedEventLoopGroup.singleton)
        let usesSQLite: Bool
        if let url = location.databaseURL {
            // A few connections per event loop (work holding a lock still finds one), and a
            // short wait for one: while PostgreSQL is down, requests answer 503 within seconds.
            // Opening a connection gets as long: a request waiting on a new one is not bounded
            // by the pool's wait.
            var postgres = try SQLPostgresConfiguration(url: url)
            postgres.coreConfiguration.options.connectTimeout = TimeAmount(location.deadlines.connect)
            databases.use(
                .postgres(
                    configuration: postgres, maxConnectionsPerEventLoop: 4,
                    connectionPoolTimeout: TimeAmount(location.deadlines.connectionWait)),
                as: .psql)
            usesSQLite = false
        } else {
            try PrivateFiles.sqlite(location.sqliteFile)
            databases.use(.sqlite(.file(location.sqliteFile.path)), as: .sqlite)
            usesSQLite = true
        }
        var database = FieldworkDatabase(
            databases: databases, logger: logger, usesSQLite: usesSQLite, deadlines: location.deadlines)
        do {
            if usesSQLite { try await database.tuneSQLiteConnections() }
            try await database.migrate()
        } catch {
            await databases.shutdownAsync()
            throw error
        }
        if usesSQLite {
            let checkpoint = Checkpointer(databases: databases, logger: logger)
            database.direct = SQLiteDirect(path: location.sqliteFile.path, logger: logger) { checkpoint.start() }
        }
        return database
    }

    /// Checkpoints SQLite's write-ahead log through the driver (on its thread pool) when the
    /// direct connection's commits have grown it: one checkpoint at a time, `PASSIVE` (it waits
    /// for no reader or writer; what it could not copy, the next one does).
    private final class Checkpointer: Sendable {
        let databases: Databases
        let logger: Logger
        let running = Atomic(false)

        init(databases: Databases, logger: Logger) {
            self.databases = databases
            self.logger = logger
        }

        func start() {
            guard running.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else {
                return
            }
            Task {
                defer { running.store(false, ordering: .releasing) }
                do {
                    guard
                        let sql = databases.database(logger: logger, on: databases.eventLoopGroup.any())
                            as? any SQLDatabase
                    else { return }
                    try await sql.raw("PRAGMA wal_checkpoint(PASSIVE)").run()
                } catch {
                    logger.warning(
                        "SQLite: a checkpoint failed; the next one tries again", metadata: ["error": "\(error)"])
                }
            }
        }
    }

    /// A database handle for one unit of work, on the current event loop when there is one.
    package func database() -> any Database {
        databases.database(logger: logger, on: databases.eventLoopGroup.any())!
    }

    /// The form store on this database.
    package var forms: FormStore { FormStore(database: self) }

    /// The object store on this database.
    package var objects: ObjectStore { ObjectStore(database: self) }

    /// A trivial query (`SELECT 1`), for `/ready`: throws when the database does not answer.
    package func ping() async throws {
        guard let sql = database() as? any SQLDatabase else { throw PingUnsupported() }
        try await sql.raw("SELECT 1").run()
    }

    /// A database driver without SQL: none that Fieldwork opens.
    struct PingUnsupported: Error {}

    /// Closes every connection; call once, at the end.
    package func shutdown() async {
        if let direct {
            await writes.lock()
            direct.close()
            await writes.unlock()
        }
        await databases.shutdownAsync()
    }

    /// WAL lets readers run beside the one writer, and `synchronous=NORMAL` is safe under WAL;
    /// together they took concurrent inserts from ~65/s with timeouts to ~2,500/s. The journal
    /// mode persists in the file, but `synchronous` and the busy timeout are per connection and
    /// the driver has no connection hook. It keeps exactly one connection per event loop, so
    /// running the pragmas once on every loop reaches every connection.
    private func tuneSQLiteConnections() async throws {
        for eventLoop in databases.eventLoopGroup.makeIterator() {
            guard let sql = databases.database(logger: logger, on: eventLoop) as? any SQLDatabase else { continue }
            try await sql.raw("PRAGMA journal_mode=WAL").run()
            try await sql.raw("PRAGMA synchronous=NORMAL").run()
            try await sql.raw(
                "PRAGMA busy_timeout=\(unsafeRaw: String(deadlines.sqliteBusy.components.seconds * 1000))"
            )
            .run()
            try await sql.raw("PRAGMA foreign_keys=ON").run()
        }
    }

    /// Every migration, in the order they run (`Migrations/`, numbered alike). A database
    /// records each one it ran by name (the type's name), so never rename, reorder or remove one:
    /// new migrations go at the end.
    static let migrations: [any Migration] = [
        CreateForms(),
        CreateFormVersions(),
        CreateUsers(),
        CreateSessions(),
        CreateObjects(),
        CreateAttachments(),
        AddAdminTables(),
        AddStagedDocuments(),
        AddVersionTitles(),
        AddCacheChanges(),
        AddSubmissionTokens(),
        AddServerSecrets(),
        IndexSubmissionTokens(),
        AddServiceConnections(),
        IndexObjectLists(),
        IndexObjectChanges(),
        AddWebhooks(),
        AddXFormRules(),
        AddObjectInstances(),
        AddListInstances(),
        HashSessionKeys(),
        AddSecondFactors(),
        AddServiceItems(),
    ]

    /// Runs the migrations not run yet; an instance starting beside another waits for its turn,
    /// then finds them done.
    private func migrate() async throws {
        let migrations = Migrations()
        migrations.add(Self.migrations)
        let migrator = Migrator(
            databases: databases, migrations: migrations, logger: logger, on: databases.eventLoopGroup.any())
        try await exclusively(.migrations, wait: true) {
            try await migrator.setupIfNeeded().get()
            try await migrator.prepareBatch().get()
        }
    }

    /// Runs `body` in a transaction. On SQLite the transaction takes the write lock when it
    /// begins (`BEGIN IMMEDIATE`): a transaction that read before it wrote would otherwise fail
    /// when another committed in between (`SQLITE_BUSY_SNAPSHOT`, which no busy timeout waits
    /// out). The writers of this process queue for it in ``writes`` first, suspended: a writer
    /// waiting in SQLite's busy handler would hold one of the few threads the driver runs
    /// statements on, which the writer it waits for may need to commit.
    ///
    /// On PostgreSQL the transaction has `deadline` to finish, ``DatabaseDeadlines/transaction``
    /// when nil (see ``DatabaseOutage/withDeadline(_:_:)``); imports pass a longer one.
    func transaction<T: Sendable>(
        deadline: Duration? = nil, _ body: @escaping @Sendable (any Database) async throws -> T
    ) async throws -> T {
        guard usesSQLite else {
            let database = database()
            return try await DatabaseOutage.withDeadline(deadline ?? deadlines.transaction) {
                try await database.transaction(body)
            }
        }
        await writes.lock()
        do {
            let result = try await immediateTransaction(body)
            await writes.unlock()
            return result
        } catch {
            await writes.unlock()
            throw error
        }
    }

    /// Runs written-out statements: one on its own (SQLite and PostgreSQL make it a transaction
    /// of its own), several in one transaction. On SQLite they run in ``writes``' turn, on this
    /// thread through the direct connection (``SQLiteDirect``: no hop to the driver's threads and
    /// back), or through the driver when that did not write them (another process holding the
    /// write lock, an error the driver then reports as it does for every write); on PostgreSQL
    /// they have ``DatabaseDeadlines/transaction``.
    func write(_ statements: [RowStatement]) async throws {
        guard usesSQLite else {
            guard statements.count == 1 else {
                try await transaction { db in for statement in statements { try await statement.run(on: db) } }
                return
            }
            let database = database()
            try await DatabaseOutage.withDeadline(deadlines.transaction) {
                try await statements[0].run(on: database)
            }
            return
        }
        let bound = statements.map { (sql: $0.sql, binds: $0.sqliteBinds) }
        await writes.lock()
        do {
            if direct?.run(bound) != true {
                if bound.count == 1 {
                    try await statements[0].run(on: database(), binds: bound[0].binds)
                } else {
                    try await immediateTransaction { db in
                        for (statement, binds) in zip(statements, bound) {
                            try await statement.run(on: db, binds: binds.binds)
                        }
                    }
                }
            }
            await writes.unlock()
        } catch {
            await writes.unlock()
            throw error
        }
    }

    /// A transaction whose changes the caches follow: `changes` are recorded in it for every
    /// instance (``ChangeFeed/record(_:on:)``), and dropped here once it committed, once.
    func transaction<T: Sendable>(
        recording changes: [CacheChange], deadline: Duration? = nil,
        _ body: @escaping @Sendable (any Database) async throws -> T
    ) async throws -> T {
        let feed = feed
        let (result, recorded) = try await transaction(deadline: deadline) { db in
            let result = try await body(db)
            return (result, try await feed.record(changes, on: db))
        }
        feed.apply(changes, recorded: recorded)
        return result
    }

    /// A SQLite transaction that takes the write lock as it begins.
    private func immediateTransaction<T: Sendable>(
        _ body: @escaping @Sendable (any Database) async throws -> T
    ) async throws -> T {
        try await database().withConnection { connection in
            guard let sql = connection as? any SQLDatabase else { return try await connection.transaction(body) }
            try await sql.raw("BEGIN IMMEDIATE").run()
            let result: T
            do {
                result = try await body(connection)
            } catch {
                try? await sql.raw("ROLLBACK").run()
                throw error
            }
            do {
                try await sql.raw("COMMIT").run()
            } catch {
                try? await sql.raw("ROLLBACK").run()
                throw error
            }
            return result
        }
    }

    /// Work that one instance at a time does: the key of its PostgreSQL advisory lock.
    package enum ExclusiveWork: Int64 {
        case migrations = 0x4657_0001
        case seeding = 0x4657_0002
        case purge = 0x4657_0003
    }

    /// Runs `body` holding the work's lock across every instance on the database: a PostgreSQL
    /// advisory lock taken by a transaction, so it ends with it, even when the instance dies.
    /// With `wait`, waits for the lock; without, returns nil at once when another instance holds
    /// it. SQLite serves one instance per file: `body` just runs.
    @discardableResult
    package func exclusively<T: Sendable>(
        _ work: ExclusiveWork, wait: Bool, _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T? {
        guard !usesSQLite else { return try await body() }
        return try await database().transaction { transaction -> T? in
            guard let sql = transaction as? any SQLDatabase else { return try await body() }
            if wait {
                try await sql.raw("SELECT pg_advisory_xact_lock(\(literal: work.rawValue))").run()
            } else {
                let row = try await sql.raw("SELECT pg_try_advisory_xact_lock(\(literal: work.rawValue)) AS locked")
                    .first()
                guard try row?.decode(column: "locked", as: Bool.self) == true else { return nil }
            }
            return try await body()
        }
    }
}
