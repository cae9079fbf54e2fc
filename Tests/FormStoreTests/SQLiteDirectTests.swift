import FluentKit
import FormModel
import Foundation
import NIOConcurrencyHelpers
import NIOPosix
import SQLiteNIO
import TestSupport
import Testing

@testable import FormStore

/// SQLite's connection for single-statement writes on the calling thread (``SQLiteDirect``).
@Suite("SQLite writes on the calling thread")
struct SQLiteDirectTests {
    static let form = Fixtures.schema([Field(name: "note", kind: .text, label: "Note")])

    static func create(_ database: FieldworkDatabase, _ note: String) async throws -> StoredObject {
        try await database.objects.create(
            formID: form.id, version: 1, values: ["title": .text("Direct"), "note": .text(note)], keyText: note,
            creator: .browser("b"), service: ServiceLink(state: .sending, requestID: UUID()))
    }

    /// Runs `test` on a fresh SQLite store with the form, and its direct connection (on
    /// PostgreSQL, which has none, nothing runs).
    static func withDirect(
        _ test: (URL, FieldworkDatabase, SQLiteDirect) async throws -> Void
    ) async throws {
        try await TestDatabases.run { data, databases in
            let database = databases[0]
            guard database.usesSQLite else { return }
            let direct = try #require(database.direct)
            try await database.forms.store(Fixtures.importResult([Self.form]))
            try await test(data, database, direct)
        }
    }

    @Test("a lone create and its settle are written by the direct connection, and Fluent reads them as written")
    func written() async throws {
        try await Self.withDirect { _, database, direct in
            let before = direct.written
            let object = try await Self.create(database, "n-1")
            let link = ServiceLink(state: .created, key: "Product='P/1'", requestID: UUID(), etag: "W/\"1\"")
            var values = object.values
            values["note"] = .text("from the \"service\"")
            try await database.objects.settle(
                formID: Self.form.id, id: object.id, link: link, values: values, keyText: "n-1 (P/1)")
            #expect(direct.written == before + 2)
            let read = try #require(try await database.objects.find(formID: Self.form.id, id: object.id))
            #expect(read.values == values)
            #expect(read.service == link)
            #expect(read.keyText == "n-1 (P/1)")
            #expect(read.createdAt.map { abs($0.timeIntervalSince(object.createdAt!)) < 0.001 } == true)
            #expect(read.updatedAt! >= read.createdAt!)
        }
    }

    @Test(
        "a create with a one-time key is written with its key in one transaction; the key again is refused, one object stored"
    )
    func withKey() async throws {
        try await Self.withDirect { _, database, direct in
            let key = OnceKey.page(Fixtures.onceToken())
            let before = direct.written
            let first = try await database.objects.create(
                formID: Self.form.id, version: 1, values: ["title": .text("Keyed")], keyText: "keyed",
                creator: .browser("b"), once: key)
            #expect(direct.written == before + 2, "the object and its key")
            #expect(try await database.objects.object(once: key)?.object.id == first.id)
            // The same key again: the direct transaction is rolled back, and the driver reports
            // the key's constraint as it always did.
            await #expect(throws: (any Error).self) {
                _ = try await database.objects.create(
                    formID: Self.form.id, version: 1, values: ["title": .text("Again")], keyText: "again",
                    creator: .browser("b"), once: key)
            }
            #expect(direct.written == before + 2)
            #expect(try await ObjectRecord.query(on: database.database()).count() == 1)
        }
    }

    @Test(
        "while another connection holds the write lock, the create waits for it through the driver and is written once")
    func lockHeld() async throws {
        try await Self.withDirect { data, database, direct in
            let path = data.appendingPathComponent("fieldwork.sqlite").path
            // Another writer, on threads of its own (as another process would be): the driver's
            // few threads may all be taken by writes waiting for its lock.
            let threads = NIOThreadPool(numberOfThreads: 1)
            threads.start()
            let other = try await SQLiteConnection.open(
                storage: .file(path: path), threadPool: threads, logger: Fixtures.logger,
                on: MultiThreadedEventLoopGroup.singleton.any())
            let before = direct.written
            do {
                _ = try await other.query("BEGIN IMMEDIATE")
                let done = NIOLockedValueBox(false)
                let create = Task {
                    defer { done.withLockedValue { $0 = true } }
                    return try await Self.create(database, "waited")
                }
                // (Not read through the driver meanwhile: its connection on this event loop may be
                // the one waiting.)
                try await Task.sleep(for: .milliseconds(300))
                #expect(!done.withLockedValue { $0 }, "not written while the lock is held")
                _ = try await other.query("COMMIT")
                let object = try await create.value
                #expect(direct.written == before, "the driver wrote it, after waiting")
                #expect(
                    try await ObjectRecord.query(on: database.database()).filter(\.$keyText == "waited").count() == 1)
                #expect(try await database.objects.find(formID: Self.form.id, id: object.id)?.keyText == "waited")
            } catch {
                try await other.close()
                try await threads.shutdownGracefully()
                throw error
            }
            try await other.close()
            try await threads.shutdownGracefully()
            // The lock free again, the next create is the direct connection's.
            _ = try await Self.create(database, "after")
            #expect(direct.written == before + 1)
        }
    }

    @Test("a statement the direct connection cannot run says so and writes nothing")
    func refusedStatement() async throws {
        try await TestDatabases.run { data, databases in
            guard databases[0].usesSQLite else { return }
            let path = data.appendingPathComponent("fieldwork.sqlite").path
            let grew = NIOLockedValueBox(0)
            let probe = try #require(
                SQLiteDirect(path: path, logger: Fixtures.logger, checkpointPages: 1) {
                    grew.withLockedValue { $0 += 1 }
                })
            #expect(probe.run("CREATE TABLE probe (x INTEGER NOT NULL)", []))
            #expect(probe.run("INSERT INTO probe (x) VALUES (?)", [.integer(1)]))
            #expect(!probe.run("INSERT INTO probe (x) VALUES (?)", [.null]), "a constraint")
            #expect(!probe.run("INSERT INTO probe (x) VALUES (?)", []), "a value missing")
            #expect(!probe.run("INSERT INTO nowhere (x) VALUES (?)", [.integer(1)]), "no such table")
            #expect(probe.written == 2)
            // Its commits grew the log past its threshold (one page): it asked for a checkpoint.
            #expect(grew.withLockedValue { $0 } >= 1)
            probe.close()
            #expect(!probe.run("INSERT INTO probe (x) VALUES (?)", [.integer(2)]), "closed")
        }
    }
}
