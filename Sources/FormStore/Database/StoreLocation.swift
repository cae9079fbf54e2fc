import Foundation

/// Where the store keeps its data: the data folder (SQLite's file, attachments) and, when set,
/// the PostgreSQL database that holds the rows instead.
package struct StoreLocation: Sendable, Hashable {
    /// Holds `fieldwork.sqlite` and attachment files; created on first start.
    package var dataFolder: URL
    /// `postgres://user:pass@host:port/db` switches the store to PostgreSQL; nil means embedded SQLite.
    package var databaseURL: String?
    /// How long PostgreSQL calls may take before they count as an outage.
    package var deadlines: DatabaseDeadlines

    package init(dataFolder: URL, databaseURL: String? = nil, deadlines: DatabaseDeadlines = DatabaseDeadlines()) {
        self.dataFolder = dataFolder
        self.databaseURL = databaseURL
        self.deadlines = deadlines
    }

    /// `<data>/fieldwork.sqlite`.
    package var sqliteFile: URL { dataFolder.appendingPathComponent("fieldwork.sqlite") }
}

/// How long a call to the database may take before it is taken for an outage (503, "it may not have
/// been saved"): far more than a create takes on a busy production server, far less than a client
/// waits. A test suite that shares one server between hundreds of tests on two cores is busier
/// than that and sets its own (``generous``), so no test meets a limit meant for production.
package struct DatabaseDeadlines: Sendable, Hashable {
    /// A transaction, waiting for a connection included (``DatabaseOutage/withDeadline(_:_:)``).
    package var transaction: Duration = .seconds(2)
    /// A transaction that stores an import: a big one writes many rows.
    package var importTransaction: Duration = .seconds(60)
    /// Waiting for a free connection of the pool.
    package var connectionWait: Duration = .seconds(2)
    /// Opening a new connection (a request waiting on one is not bounded by the pool's wait).
    package var connect: Duration = .seconds(2)
    /// SQLite's busy timeout: how long a write waits for another process's write lock.
    package var sqliteBusy: Duration = .seconds(5)

    package init() {}

    /// Limits for a machine that runs many tests at once: a database call that takes this long
    /// is stuck, not slow.
    package static var generous: DatabaseDeadlines {
        var deadlines = DatabaseDeadlines()
        deadlines.transaction = .seconds(60)
        deadlines.importTransaction = .seconds(120)
        deadlines.connectionWait = .seconds(60)
        deadlines.connect = .seconds(30)
        deadlines.sqliteBusy = .seconds(60)
        return deadlines
    }
}
