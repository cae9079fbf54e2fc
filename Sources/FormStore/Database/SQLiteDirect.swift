import Foundation
import Logging
import SQLiteNIO
import Synchronization
import VaporCSQLite

/// A SQLite connection of this process's own for its busiest writes (a create's object row, a
/// service create's settle), run on the calling thread. The driver runs every statement on its
/// thread pool: a hop there and one back, each a wake-up of a sleeping thread, which on a small
/// machine cost more than the write itself (an `INSERT` under WAL with `synchronous=NORMAL`
/// writes the log without waiting for the disk).
///
/// It is the driver's own SQLite library (two copies of SQLite in one process would not see each
/// other's locks), opened on the same file. Only statements written out (``RowStatement``) run
/// here, alone or a few in one transaction, in ``FieldworkDatabase/writes``' turn. It never waits: when another process holds the
/// write lock, or the statement fails in any way, nothing was written and ``run(_:_:)`` says so,
/// and the caller runs the statement through the driver, which waits its turn and reports the
/// error as every other write does.
///
/// It does not checkpoint the write-ahead log itself (a checkpoint waits for the disk, and this
/// runs on an event loop): when its commits have grown the log past SQLite's usual threshold,
/// ``logGrew`` is called to checkpoint it through the driver.
final class SQLiteDirect: @unchecked Sendable {
    /// The connection. Used by one writer at a time (``FieldworkDatabase/writes``); SQLite's
    /// serialized mode guards it besides.
    private var handle: OpaquePointer?
    /// Prepared statements by their SQL, kept for the next write: the same few statements run on
    /// every create. Guarded as ``handle`` is.
    private var prepared: [String: OpaquePointer] = [:]
    /// Called (on the writing thread, from SQLite's commit) when the log has grown past
    /// ``checkpointPages`` pages since the last checkpoint.
    private let logGrew: @Sendable () -> Void
    /// The log's size, in pages, past which ``logGrew`` is called after each commit.
    let checkpointPages: Int32
    /// Statements written here (not through the driver), for the tests.
    private(set) var written = 0

    /// SQLite's default automatic checkpoint threshold, in pages.
    static let defaultCheckpointPages: Int32 = 1000
    /// The most statements kept prepared (a batch of n creates is a statement of its own).
    static let preparedLimit = 16

    /// Opens the database file (it exists: the driver created and migrated it); nil when it
    /// cannot, and every write goes through the driver.
    init?(
        path: String, logger: Logger, checkpointPages: Int32 = defaultCheckpointPages,
        logGrew: @escaping @Sendable () -> Void
    ) {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX | SQLITE_OPEN_URI
        guard sqlite_nio_sqlite3_open_v2(path, &handle, flags, nil) == SQLITE_OK, let handle else {
            logger.warning("SQLite: the direct write connection did not open; writes go through the driver")
            if let handle { sqlite_nio_sqlite3_close_v2(handle) }
            return nil
        }
        self.handle = handle
        self.logGrew = logGrew
        self.checkpointPages = checkpointPages
        // As the driver's connections are tuned (FieldworkDatabase.tuneSQLiteConnections), but
        // no busy timeout: it never waits for the lock.
        for pragma in ["PRAGMA synchronous=NORMAL", "PRAGMA foreign_keys=ON"] {
            guard sqlite_nio_sqlite3_exec(handle, pragma, nil, nil, nil) == SQLITE_OK else {
                logger.warning("SQLite: the direct write connection could not be tuned; writes go through the driver")
                sqlite_nio_sqlite3_close_v2(handle)
                return nil
            }
        }
        // In place of the automatic checkpoint (which would run here, on an event loop).
        sqlite_nio_sqlite3_wal_hook(
            handle,
            { context, _, _, pages in
                if let context {
                    let direct = Unmanaged<SQLiteDirect>.fromOpaque(context).takeUnretainedValue()
                    if pages >= direct.checkpointPages { direct.logGrew() }
                }
                return SQLITE_OK
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit { close() }

    /// Closes the connection; every later ``run(_:_:)`` says it did not write.
    func close() {
        guard let handle else { return }
        for statement in prepared.values { sqlite_nio_sqlite3_finalize(statement) }
        prepared = [:]
        sqlite_nio_sqlite3_close_v2(handle)
        self.handle = nil
    }

    /// Runs `sql` with `binds` as one statement of its own (its own transaction). True when it
    /// was written; false when it was not (the write lock held by another process, or any
    /// error): nothing was written then.
    func run(_ sql: String, _ binds: [SQLiteData]) -> Bool {
        guard step(sql, binds) else { return false }
        written += 1
        return true
    }

    /// Runs the statements in one transaction, which takes the write lock as it begins (as
    /// ``FieldworkDatabase/transaction(deadline:_:)`` does). True when it committed; false when
    /// it did not: it was rolled back, nothing was written.
    func run(_ statements: [(sql: String, binds: [SQLiteData])]) -> Bool {
        if statements.count == 1 { return run(statements[0].sql, statements[0].binds) }
        guard step("BEGIN IMMEDIATE", []) else { return false }
        guard statements.allSatisfy({ step($0.sql, $0.binds) }), step("COMMIT", []) else {
            _ = step("ROLLBACK", [])
            return false
        }
        written += statements.count
        return true
    }

    /// Runs one statement; true when it ran to its end.
    private func step(_ sql: String, _ binds: [SQLiteData]) -> Bool {
        guard let statement = statement(for: sql) else { return false }
        defer {
            sqlite_nio_sqlite3_reset(statement)
            sqlite_nio_sqlite3_clear_bindings(statement)
            if prepared[sql] != statement { sqlite_nio_sqlite3_finalize(statement) }
        }
        guard Int(sqlite_nio_sqlite3_bind_parameter_count(statement)) == binds.count else { return false }
        for (index, bind) in binds.enumerated() {
            guard Self.bind(bind, at: Int32(index + 1), to: statement) == SQLITE_OK else { return false }
        }
        return sqlite_nio_sqlite3_step(statement) == SQLITE_DONE
    }

    /// The statement prepared for `sql`, kept while fewer than ``preparedLimit`` are.
    private func statement(for sql: String) -> OpaquePointer? {
        guard let handle else { return nil }
        if let statement = prepared[sql] { return statement }
        var statement: OpaquePointer?
        let keep = prepared.count < Self.preparedLimit
        let flags = keep ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        guard sqlite_nio_sqlite3_prepare_v3(handle, sql, -1, flags, &statement, nil) == SQLITE_OK, let statement
        else {
            if let statement { sqlite_nio_sqlite3_finalize(statement) }
            return nil
        }
        if keep { prepared[sql] = statement }
        return statement
    }

    /// SQLite copies what it binds (`SQLITE_TRANSIENT`), so the Swift values need not outlive the call.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private static func bind(_ value: SQLiteData, at index: Int32, to statement: OpaquePointer) -> Int32 {
        switch value {
        case .integer(let number): return sqlite_nio_sqlite3_bind_int64(statement, index, Int64(number))
        case .float(let number): return sqlite_nio_sqlite3_bind_double(statement, index, number)
        case .text(let text):
            return sqlite_nio_sqlite3_bind_text64(
                statement, index, text, UInt64(text.utf8.count), transient, UInt8(SQLITE_UTF8))
        case .blob(let buffer):
            return buffer.withUnsafeReadableBytes { bytes in
                sqlite_nio_sqlite3_bind_blob64(statement, index, bytes.baseAddress, UInt64(bytes.count), transient)
            }
        case .null: return sqlite_nio_sqlite3_bind_null(statement, index)
        }
    }
}
