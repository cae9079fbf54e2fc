import FormModel
import FormStore
import Foundation

/// Creates written while the writer is held, so that they are written together (SQLite's group
/// commit, ``CreateBatcher``): the store's tests and the webhook outbox's use them.
package enum CreateBatch {
    package static let form = Fixtures.schema([Field(name: "note", kind: .text, label: "Note")])
    package static let values: [String: FieldValue] = ["title": .text("Batch"), "note": .text("n")]

    /// Creates `count` objects while the writer is held, so that all but the first wait and are
    /// written as one batch once it is let go; returns each create's outcome, in order. They
    /// queue in index order (each starts once the one before it is in line).
    /// `alongside` is each create's work in its transaction, given the create's index.
    package static func createTogether(
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
}
