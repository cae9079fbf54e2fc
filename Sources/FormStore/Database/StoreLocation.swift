import Foundation

/// Where the store keeps its data: the data folder (SQLite's file, attachments) and, when set,
/// the PostgreSQL database that holds the rows instead.
package struct StoreLocation: Sendable, Hashable {
    /// Holds `fieldwork.sqlite` and attachment files; created on first start.
    package var dataFolder: URL
    /// `postgres://user:pass@host:port/db` switches the store to PostgreSQL; nil means embedded SQLite.
    package var databaseURL: String?

    package init(dataFolder: URL, databaseURL: String? = nil) {
        self.dataFolder = dataFolder
        self.databaseURL = databaseURL
    }

    /// `<data>/fieldwork.sqlite`.
    package var sqliteFile: URL { dataFolder.appendingPathComponent("fieldwork.sqlite") }
}
