import FluentKit
import FormModel
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import Testing

@testable import FormPages
@testable import FormStore
@testable import FormWeb

/// SQLite's group commit (``CreateBatcher``): creates that wait for the writer are written in one
/// transaction, and a batch that fails is written again one create at a time.
@Suite("Creates written together")
struct CreateBatchTests {
    static let form = Fixtures.schema([Field(name: "note", kind: .text, label: "Note")])
    static let values: [String: FieldValue] = ["title": .text("Batch"), "note": .text("n")]

    /// Creates `count` objects while the writer is held, so that all but the first wait and are
    /// written as one batch once it is let go; returns each create's outcome, in order. They
    /// queue in index order (each starts once the one before it is in line).
    /// `alongside` is each create's work in its transaction, given the create's index.
    static func createTogether(
        _ count: Int, on database: FieldworkDatabase, once: (Int) -> OnceKey? = { _ in nil },
        alongside: (@Sendable (Int, StoreTransaction, UUID) async throws -> Void)? = nil
    ) async throws -> [Result<StoredObject, any Error>] {
        await database.writes.lock()
        let outcomes = try await withThrowingTaskGroup(of: (Int, Result<StoredObject, any Error>).self) { group in
            for index in 0..<count {
                let key = once(index)
                var work: AlongsideWork?
                if let alongside { work = { transaction, id in try await alongside(index, transaction, id) } }
                group.addTask { [work] in
                    do {
                        let object = try await database.objects.create(
                            formID: Self.form.id, version: 1, values: Self.values, keyText: "Batch \(index)",
                            creator: .browser("b"), once: key, alongside: work)
                        return (index, .success(object))
                    } catch {
                        return (index, .failure(error))
                    }
                }
                // On SQLite each create is in line before the next starts, so they queue in
                // index order: the first waits for the held writer, the others for a batch.
                // (On PostgreSQL every create is its own transaction: nothing to line up.)
                if database.usesSQLite {
                    if index == 0 {
                        try await Fixtures.eventually("the first create waits for the writer") {
                            await database.writes.waiters == 1
                        }
                    } else {
                        try await Fixtures.eventually("create \(index) waits for a batch") {
                            database.creates.queued == index
                        }
                    }
                }
            }
            await database.writes.unlock()
            var outcomes = [Result<StoredObject, any Error>?](repeating: nil, count: count)
            for try await (index, outcome) in group { outcomes[index] = outcome }
            return outcomes.map { $0! }
        }
        return outcomes
    }

    /// Six creates written together whose fourth (index 3) throws `error` from its own work; the
    /// outcomes, and a count of the work's runs.
    static func sixFailingAtThree(
        _ error: any Error & Sendable, on database: FieldworkDatabase
    ) async throws -> ([Result<StoredObject, any Error>], NIOLockedValueBox<Int>) {
        let runs = NIOLockedValueBox(0)
        let outcomes = try await createTogether(
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
            try await database.forms.store(Fixtures.importResult([Self.form]))
            let runs = NIOLockedValueBox(0)
            // Each has its own time of creation: within the creates' run, however long it took
            // (a second either side for how the database keeps a time).
            let before = Date().addingTimeInterval(-1)
            let outcomes = try await Self.createTogether(
                12, on: database, once: { _ in OnceKey.page(SubmissionToken.make()) },
                alongside: { _, _, _ in runs.withLockedValue { $0 += 1 } })
            let after = Date().addingTimeInterval(1)
            let objects = try outcomes.map { try $0.get() }
            #expect(Set(objects.map(\.id)).count == 12)
            #expect(objects.allSatisfy { $0.createdAt.map { $0 >= before && $0 <= after } == true })
            #expect(try await Self.storedCount(database) == 12)
            #expect(runs.withLockedValue { $0 } == 12, "nothing failed: each create's work ran once")
            for (index, object) in objects.enumerated() {
                #expect(
                    try await database.objects.find(formID: Self.form.id, id: object.id)?.keyText == "Batch \(index)")
            }
        }
    }

    @Test("one create refused in a batch fails alone; the others are stored, their work run again")
    func oneFails() async throws {
        try await AttachmentFixtures.withStore { _, database in
            try await database.forms.store(Fixtures.importResult([Self.form]))
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
            try await database.forms.store(Fixtures.importResult([Self.form]))
            let key = OnceKey.page(SubmissionToken.make())
            let outcomes = try await Self.createTogether(
                4, on: database,
                once: { index in index == 1 || index == 2 ? key : OnceKey.page(SubmissionToken.make()) })
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
            try await database.forms.store(Fixtures.importResult([Self.form]))
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
