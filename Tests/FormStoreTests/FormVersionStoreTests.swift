import FluentKit
import FormImport
import FormModel
import Foundation
import SQLKit
import TestSupport
import Testing

@testable import FormStore

@Suite("Form store on SQLite")
struct FormVersionStoreTests {
    @Test("an import's documents are stored once however many forms it gives; each version finds them and its report")
    func sourcesOnce() async throws {
        let data = Fixtures.temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        let database = try await FieldworkDatabase.open(
            Fixtures.storeLocation(data: data), logger: Fixtures.logger)
        do {
            let a = Fixtures.schema([], id: "a-set", title: "New A")
            let b = Fixtures.schema([], id: "b-set", title: "New B")
            let stored = try await database.forms.storeImport(
                [Fixtures.importResult([a, b], source: "<edmx/>")], importedBy: "admin")
            #expect(
                stored.versions == [
                    StoredVersion(formID: "a-set", version: 1), StoredVersion(formID: "b-set", version: 1),
                ])
            #expect(try await ImportSourcesRecord.query(on: database.database()).count() == 1)
            for id in ["a-set", "b-set"] {
                let documents = try #require(try await database.forms.sourceDocuments(formID: id, version: 1))
                #expect(documents.map(\.name) == ["test.xml"])
                #expect(documents.map { String(decoding: $0.data, as: UTF8.self) } == ["<edmx/>"])
                #expect(try await database.forms.latest(formID: id)?.importID == stored.id)
            }
            #expect(try await database.forms.sourceDocumentNames(formID: "a-set") == [1: ["test.xml"]])
            let report = try #require(try await database.forms.importSummary(id: stored.id))
            #expect(report.summary.forms.map(\.id) == ["a-set", "b-set"])
            #expect(report.by == "admin")
        } catch {
            await database.shutdown()
            throw error
        }
        await database.shutdown()
    }

    @Test("a new form becomes version 1 with users access, a re-import becomes version 2")
    func versions() async throws {
        let data = Fixtures.temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        let database = try await FieldworkDatabase.open(
            Fixtures.storeLocation(data: data), logger: Fixtures.logger)
        let store = database.forms
        do {
            let schema = Fixtures.schema([Field(name: "due", kind: .date)])
            let first = try await store.store(Fixtures.importResult([schema]))
            #expect(first == [StoredVersion(formID: "test-form", version: 1)])
            var changed = schema
            changed.title = "New Changed Thing"
            let second = try await store.store(Fixtures.importResult([changed]), importedBy: "admin")
            #expect(second == [StoredVersion(formID: "test-form", version: 2)])

            let latest = try #require(try await store.latest(formID: "test-form"))
            #expect(latest.version == 2)
            #expect(latest.access == .users)
            #expect(latest.state == .active)
            #expect(latest.importedBy == "admin")
            #expect(try latest.schema() == changed)
            #expect(latest.schemaJSON == String(decoding: try changed.canonicalJSON(), as: UTF8.self))
            #expect(try await store.latest(formID: "nope") == nil)
        } catch {
            await database.shutdown()
            throw error
        }
        await database.shutdown()
    }

    @Test("the list holds every form once with its latest version, ordered by id")
    func list() async throws {
        let data = Fixtures.temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        let database = try await FieldworkDatabase.open(
            Fixtures.storeLocation(data: data), logger: Fixtures.logger)
        do {
            let b = Fixtures.schema([], id: "b-form")
            let a = Fixtures.schema([], id: "a-form")
            try await database.forms.store(Fixtures.importResult([b, a]), access: .public)
            try await database.forms.store(Fixtures.importResult([b]))
            let list = try await database.forms.list()
            #expect(list.map(\.id) == ["a-form", "b-form"])
            #expect(list.map(\.version) == [1, 2])
            #expect(list.map(\.access) == [.public, .public])
            #expect(list.map(\.title) == [a.title, b.title])

            // Versions stored before titles had a column get theirs from the schema.
            let sql = try #require(database.database() as? any SQLDatabase)
            try await sql.raw("UPDATE form_versions SET title = NULL").run()
            #expect(try await database.forms.list().map(\.title) == ["a-form", "b-form"])
            try await AddVersionTitles.fillTitles(on: database.database())
            #expect(try await database.forms.list() == list)
        } catch {
            await database.shutdown()
            throw error
        }
        await database.shutdown()
    }

    @Test("an import that fails half-way stores nothing")
    func atomic() async throws {
        let data = Fixtures.temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        let database = try await FieldworkDatabase.open(
            Fixtures.storeLocation(data: data), logger: Fixtures.logger)
        do {
            try await database.forms.store(Fixtures.importResult([Fixtures.schema([], id: "good-form")]))
            // A trigger makes the database refuse the second form's version, after the first
            // form of the same import has been written inside the transaction.
            let sql = try #require(database.database() as? any SQLDatabase)
            try await sql.raw(
                "CREATE TRIGGER refuse BEFORE INSERT ON form_versions WHEN NEW.form_id = 'bad-form' BEGIN SELECT RAISE(ABORT, 'refused'); END"
            ).run()
            let before = try await database.forms.list()
            await #expect(throws: (any Error).self) {
                try await database.forms.store(
                    Fixtures.importResult([Fixtures.schema([], id: "new-form"), Fixtures.schema([], id: "bad-form")]))
            }
            #expect(try await database.forms.list() == before)
            #expect(try await database.forms.latest(formID: "new-form") == nil)
        } catch {
            await database.shutdown()
            throw error
        }
        await database.shutdown()
    }

    @Test("SQLite runs in WAL mode with synchronous NORMAL")
    func walMode() async throws {
        let data = Fixtures.temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        let database = try await FieldworkDatabase.open(
            Fixtures.storeLocation(data: data), logger: Fixtures.logger)
        do {
            // Every event loop has its own connection; each must have been tuned.
            for eventLoop in database.databases.eventLoopGroup.makeIterator() {
                let sql = try #require(
                    database.databases.database(logger: Fixtures.logger, on: eventLoop) as? any SQLDatabase)
                let journal = try await sql.raw("PRAGMA journal_mode").first()?.decode(
                    column: "journal_mode", as: String.self)
                let synchronous = try await sql.raw("PRAGMA synchronous").first()?.decode(
                    column: "synchronous", as: Int.self)
                let timeout = try await sql.raw("PRAGMA busy_timeout").first()?.decode(column: "timeout", as: Int.self)
                #expect(journal == "wal")
                #expect(synchronous == 1)  // NORMAL
                // The configuration's: 5 s in production (DatabaseDeadlines), a minute in the tests.
                #expect(timeout == 60_000)
            }
            #expect(FileManager.default.fileExists(atPath: data.appendingPathComponent("fieldwork.sqlite").path))
        } catch {
            await database.shutdown()
            throw error
        }
        await database.shutdown()
    }
}
