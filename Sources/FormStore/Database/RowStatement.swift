import FluentKit
import Foundation
import SQLKit
import SQLiteNIO

/// A value a written-out statement binds, bound as the drivers bind a model's field of its type,
/// so that Fluent reads the row back as if it had written it.
enum RowValue: Sendable {
    case text(String?)
    case integer(Int)
    case uuid(UUID?)
    case date(Date)
    case values(StoredValues)

    /// As SQLiteKit's `SQLiteDataEncoder` binds it: a UUID as its text, a date as seconds since
    /// 1970, the values as their JSON text.
    var sqlite: SQLiteData {
        switch self {
        case .text(let text): text.map { .text($0) } ?? .null
        case .integer(let number): .integer(number)
        case .uuid(let id): id.map { .text($0.uuidString) } ?? .null
        case .date(let date): .float(date.timeIntervalSince1970)
        case .values(let values): .text(values.jsonText)
        }
    }

    /// The value itself, for the driver's own encoder (PostgreSQL).
    var encodable: any Encodable & Sendable {
        switch self {
        case .text(let text): text
        case .integer(let number): number
        case .uuid(let id): id
        case .date(let date): date
        case .values(let values): values
        }
    }
}

/// One statement written out rather than built by Fluent's query builder, for the writes on
/// every create (its object row; a service create's settle), where the builder, SQLKit's
/// serializer and the drivers' generic encoders cost more than the database's own work. Its SQL
/// has a `?` for each value, in order, and names written as both SQLite and PostgreSQL quote them.
struct RowStatement: Sendable {
    var sql: String
    var values: [RowValue]

    /// The values as SQLite binds them.
    var sqliteBinds: [SQLiteData] { values.map(\.sqlite) }

    /// Runs it on `db`: a transaction's connection, or the pool's (`binds`: ``sqliteBinds``
    /// when already made).
    func run(on db: any Database, binds: [SQLiteData]? = nil) async throws {
        if let sqlite = db as? any SQLiteDatabase {
            try await sqlite.query(sql, binds ?? sqliteBinds) { _ in }
        } else if let database = db as? any SQLDatabase {
            try await database.raw(queryString).run()
        } else {
            throw ObjectStore.SQLStoreRequired()
        }
    }

    /// The statement for SQLKit: the text between the `?`s raw, each value bound in its place
    /// (PostgreSQL numbers its placeholders).
    private var queryString: SQLQueryString {
        var query: SQLQueryString = ""
        for (index, piece) in sql.split(separator: "?", omittingEmptySubsequences: false).enumerated() {
            if index > 0 { query.appendInterpolation(bind: values[index - 1].encodable) }
            query.appendInterpolation(unsafeRaw: String(piece))
        }
        return query
    }

    /// `"name"`: an identifier as both SQLite and PostgreSQL quote it (only Fieldwork's own
    /// column names, which hold no quote, are written so).
    static func quoted(_ name: String) -> String { "\"" + name + "\"" }
}
