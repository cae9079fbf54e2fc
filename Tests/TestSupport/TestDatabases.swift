import FluentKit
import FluentPostgresDriver
import FormModel
import FormStore
import Foundation
import NIOPosix
import SQLKit
import Synchronization

/// Stores for tests below the HTTP layer, on a fresh data folder.
package enum TestDatabases {
    /// Opens `instances` stores on one fresh data folder, each with its own caches and change
    /// feed as that many server processes have, runs `test` with the folder and the stores,
    /// then closes them and removes everything.
    ///
    /// With `FIELDWORK_TEST_POSTGRES` set to a server's maintenance database
    /// (`postgres://postgres@127.0.0.1:5432/postgres`), the stores share a fresh PostgreSQL
    /// database there (``ScratchPostgres``) instead of SQLite, dropped afterwards.
    package static func run(
        instances: Int = 1, _ test: (URL, [FieldworkDatabase]) async throws -> Void
    ) async throws {
        let data = Fixtures.temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        let scratch = try await ScratchPostgres.create()
        let location = Fixtures.storeLocation(data: data, databaseURL: scratch?.url)
        var opened: [FieldworkDatabase] = []
        do {
            for _ in 0..<instances {
                opened.append(try await FieldworkDatabase.open(location, logger: Fixtures.logger))
            }
            try await test(data, opened)
        } catch {
            for database in opened { await database.shutdown() }
            try await scratch?.drop()
            throw PostgresDetail.explained(error)
        }
        for database in opened { await database.shutdown() }
        try await scratch?.drop()
    }
}

/// A throwaway PostgreSQL database for one test, when `FIELDWORK_TEST_POSTGRES` names a server.
package struct ScratchPostgres {
    let maintenanceURL: String
    let name: String

    package var url: String {
        var components = URLComponents(string: maintenanceURL)!
        components.path = "/\(name)"
        return components.string!
    }

    package static func create() async throws -> ScratchPostgres? {
        guard let url = ProcessInfo.processInfo.environment["FIELDWORK_TEST_POSTGRES"], !url.isEmpty else { return nil }
        let scratch = ScratchPostgres(
            maintenanceURL: url,
            name: "fw_test_\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))")
        // Many tests make their databases at once: PostgreSQL may refuse a CREATE DATABASE while
        // another copies the template ("source database is being accessed by other users"), for
        // as long as a busy machine takes, so a refused one is tried again, a little later (at a
        // random moment, so that the tests that collided do not collide again), for a minute.
        // Any other refusal (a wrong address or password) is the test's answer at once.
        let deadline = ContinuousClock.now + .seconds(60)
        while true {
            do {
                try await scratch.run("CREATE DATABASE \(scratch.name)")
                return scratch
            } catch let error as PSQLError
                where error.serverInfo?[.sqlState] == "55006" && ContinuousClock.now < deadline
            {
                try await Task.sleep(for: .milliseconds(Int.random(in: 50...400)))
            }
        }
    }

    package func drop() async throws {
        try await run("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    private func run(_ statement: String) async throws {
        let databases = Databases(threadPool: NIOThreadPool.singleton, on: MultiThreadedEventLoopGroup.singleton)
        databases.use(try .postgres(url: maintenanceURL), as: .psql)
        do {
            let sql =
                databases.database(logger: Fixtures.logger, on: databases.eventLoopGroup.any())! as! any SQLDatabase
            try await sql.raw(SQLQueryString(statement)).run()
        } catch {
            await databases.shutdownAsync()
            throw error
        }
        await databases.shutdownAsync()
    }
}

/// A PostgreSQL error as the test log should show it: PostgresNIO's own description hides the
/// server's message ("Generic description to prevent accidental leakage"), which a test's
/// failure needs.
package struct PostgresDetail: Error, CustomStringConvertible {
    package let description: String

    package static func explained(_ error: any Error) -> any Error {
        guard String(describing: type(of: error)).hasPrefix("PSQL") else { return error }
        return PostgresDetail(description: String(reflecting: error))
    }
}

/// A clock tests move by hand.
package final class TestClock: Sendable {
    private let time = Mutex(Date(timeIntervalSince1970: 1_795_000_000))
    package init() {}
    package var now: Date { time.withLock { $0 } }
    package func advance(by seconds: TimeInterval) { time.withLock { $0 += seconds } }
}
