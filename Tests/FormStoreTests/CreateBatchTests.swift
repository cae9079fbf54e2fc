import FluentKit
import FormModel
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import TestSupport
import Testing

@testable import FormStore

/// SQLite's group commit (``CreateBatcher``): creates that wait for the writer are written in one
/// transaction, and a batch that fails is written again one create at a time.
@Suite("Creates written together")
struct CreateBatchTests {
    /// Six creates written together whose fourth (index 3) throws `error` from its own work; the
    /// outcomes, and a count of the work's runs.
    static func sixFailingAtThree(
        _ error: any Error & Sendable, on database: FieldworkDatabase
    ) async throws -> ([Result<StoredObject, any Error>], NIOLockedValueBox<Int>) {
        let runs = NIOLockedValueBox(0)
        let outcomes = try await CreateBatch.createTogether(
            6, on: database,
            alongside: { index, _, _ in
                runs.withLockedValue { $0 += 1 }
                if index == 3 { throw error }
            })
        return (outcomes, runs)
    }

    static func storedCount(_ database: FieldworkDatabase) async throws -> Int {
        try await ObjectRecord.query(on: database.database()).count()
    }

    @Test("creates that wait are written in one transaction, each stored once with its own values and time")
    func together() async throws {
        try await AttachmentFixtures.withStore { _, database in
            try await database.forms.store(Fixtures.importResult([CreateBatch.form]))
            let runs = NIOLockedValueBox(0)
            // Each has its own time of creation: within the creates' run, however long it took
            // (a second either side for how the database keeps a time).
            let before = Date().addingTimeInterval(-1)
            let outcomes = try await CreateBatch.createTogether(
                12, on: database, once: { _ in OnceKey.page(Fixtures.onceToken()) },
                alongside: { _, _, _ in runs.withLockedValue { $0 += 1 } })
            let after = Date().addingTimeInterval(1)
            let objects = try outcomes.map { try $0.get() }
            #expect(Set(objects.map(\.id)).count == 12)
            #expect(objects.allSatisfy { $0.createdAt.map { $0 >= before && $0 <= after } == true })
            #expect(try await Self.storedCount(database) == 12)
            #expect(runs.withLockedValue { $0 } == 12, "nothing failed: each create's work ran once")
            for (index, object) in objects.enumerated() {
                #expect(
                    try await database.objects.find(formID: CreateBatch.form.id, id: object.id)?.keyText
                        == "Batch \(index)")
            }
        }
    }

    @Test("one create refused in a batch fails alone; the others are stored, their work run again")
    func oneFails() async throws {
        try await AttachmentFixtures.withStore { _, database in
            try await database.forms.store(Fixtures.importResult([CreateBatch.form]))
            let (outcomes, runs) = try await Self.sixFailingAtThree(Refused(), on: database)
            for (index, outcome) in outcomes.enumerated() {
                if index == 3 {
                    #expect(throws: Refused.self) { try outcome.get() }
                } else {
                    #expect(throws: Never.self) { try outcome.get() }
                }
            }
            #expect(try await Self.storedCount(database) == 5)
            // On SQLite the first create is written alone and the five that waited form one
            // batch: creates 1 and 2 run their work, 3 fails it, and the batch is rolled back and
            // written again one by one. On PostgreSQL every create is alone.
            let expected = database.usesSQLite ? 1 + 3 + 5 : 6
            #expect(runs.withLockedValue { $0 } == expected)
        }
    }

    @Test("one one-time key twice in a batch stores one object; the other create fails")
    func sameKeyInBatch() async throws {
        try await AttachmentFixtures.withStore { _, database in
            try await database.forms.store(Fixtures.importResult([CreateBatch.form]))
            let key = OnceKey.page(Fixtures.onceToken())
            let outcomes = try await CreateBatch.createTogether(
                4, on: database,
                once: { index in index == 1 || index == 2 ? key : OnceKey.page(Fixtures.onceToken()) })
            #expect(outcomes.filter { (try? $0.get()) != nil }.count == 3)
            #expect(try await Self.storedCount(database) == 3)
            let stored = try #require(try await database.objects.object(once: key))
            // Of the two with the key, exactly one stored the key's object. On SQLite they are in
            // one batch, in queue order: the first. On PostgreSQL each create is its own
            // transaction, side by side: under load the second may commit first.
            let pair = [outcomes[1], outcomes[2]].compactMap { try? $0.get() }
            #expect(pair.map(\.id) == [stored.object.id])
            if database.usesSQLite { #expect(try outcomes[1].get().id == stored.object.id) }
        }
    }

    @Test("a batch that meets the database failing fails every create in it at once, without writing each again")
    func databaseFails() async throws {
        try await AttachmentFixtures.withStore { _, database in
            try await database.forms.store(Fixtures.importResult([CreateBatch.form]))
            let (outcomes, runs) = try await Self.sixFailingAtThree(
                IOError(errnoCode: ECONNRESET, reason: "read"), on: database)
            // On SQLite create 0 is alone; 1 to 5 form a batch that fails at 3: all five get the
            // error and no work runs again. On PostgreSQL every create is alone.
            let failed = database.usesSQLite ? Set(1...5) : [3]
            for (index, outcome) in outcomes.enumerated() {
                if failed.contains(index) {
                    #expect(throws: IOError.self) { try outcome.get() }
                } else {
                    #expect(throws: Never.self) { try outcome.get() }
                }
            }
            #expect(try await Self.storedCount(database) == 6 - failed.count)
            #expect(runs.withLockedValue { $0 } == (database.usesSQLite ? 1 + 3 : 6))
        }
        #expect(CreateBatcher.mayBeOneCreates(Refused()))
        #expect(!CreateBatcher.mayBeOneCreates(IOError(errnoCode: ECONNREFUSED, reason: "connect")))
    }

    struct Refused: Error {}
}
