import FluentKit
import FluentPostgresDriver
import FluentSQLiteDriver
import Foundation
import Logging
import NIOCore
import NIOPosix
import SQLKit

/// The open database: FluentKit's `Databases` on the shared thread pool and event loops, migrated.
///
/// Open it once per process with ``open(_:logger:)``; close it with ``shutdown()`` or let a
/// ``DatabaseService`` do that under a `ServiceGroup`.
public struct FieldworkDatabase: Sendable {
    public let databases: Databases
    let logger: Logger

    /// Opens SQLite `<data>/fieldwork.sqlite` (or PostgreSQL when the configuration has a URL),
    /// creating the data folder, and runs the migrations.
    public static func open(_ configuration: FieldworkConfiguration, logger: Logger) async throws -> FieldworkDatabase {
        try FileManager.default.createDirectory(at: configuration.dataFolder, withIntermediateDirectories: true)
        let databases = Databases(threadPool: NIOThreadPool.singleton, on: MultiThreadedEventLoopGroup.singleton)
        let usesSQLite: Bool
        if let url = configuration.databaseURL {
            databases.use(try .postgres(url: url), as: .psql)
            usesSQLite = false
        } else {
            databases.use(.sqlite(.file(configuration.sqliteFile.path)), as: .sqlite)
            usesSQLite = true
        }
        let database = FieldworkDatabase(databases: databases, logger: logger)
        do {
            if usesSQLite { try await database.tuneSQLiteConnections() }
            try await database.migrate()
        } catch {
            await databases.shutdownAsync()
            throw error
        }
        return database
    }

    /// A database handle for one unit of work, on the current event loop when there is one.
    public func database() -> any Database {
        databases.database(logger: logger, on: databases.eventLoopGroup.any())!
    }

    /// The form store on this database.
    public var forms: FormStore { FormStore(database: self) }

    /// The object store on this database.
    public var objects: ObjectStore { ObjectStore(database: self) }

    /// A trivial query (`SELECT 1`), for `/ready`: throws when the database does not answer.
    public func ping() async throws {
        guard let sql = database() as? any SQLDatabase else { throw PingUnsupported() }
        try await sql.raw("SELECT 1").run()
    }

    /// A database driver without SQL: none that Fieldwork opens.
    struct PingUnsupported: Error {}

    /// Closes every connection; call once, at the end.
    public func shutdown() async {
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
            try await sql.raw("PRAGMA busy_timeout=5000").run()
            try await sql.raw("PRAGMA foreign_keys=ON").run()
        }
    }

    /// Every migration, in the order they run (`Storage/Migrations/`, numbered alike). A database
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
    ]

    private func migrate() async throws {
        let migrations = Migrations()
        migrations.add(Self.migrations)
        let migrator = Migrator(
            databases: databases, migrations: migrations, logger: logger, on: databases.eventLoopGroup.any())
        try await migrator.setupIfNeeded().get()
        try await migrator.prepareBatch().get()
    }
}
