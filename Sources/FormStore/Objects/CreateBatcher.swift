import FluentKit
import Foundation
import Synchronization

/// Group commit of creates on SQLite: the creates that arrive while a transaction is being
/// written wait, and are then written together, in one transaction with one `INSERT` for all
/// their objects and one for all their one-time keys.
///
/// SQLite writes one transaction at a time (see ``FieldworkDatabase/transaction(deadline:_:)``),
/// and each statement is a hop to the thread the driver runs it on and back. A create on its own
/// took four statements (`BEGIN IMMEDIATE`, the object, its key, `COMMIT`) in the one writer's
/// turn; under load a batch of n creates takes four for all of them. Alone, a create is written
/// at once, as before: nothing waits for company.
///
/// A batch commits or rolls back whole. When it fails for what may be one create's (a one-time
/// key already used, an error in one create's own work), it is rolled back and every create in
/// it is written again on its own, so each gets its own outcome: one create's refusal never
/// fails its neighbours. When the database itself fails, every create in it gets that error.
/// That is why a create's ``ObjectDraft/alongside`` work must touch only the database: it may
/// run twice, and only the committed run counts; each run writes fresh records of the draft.
package final class CreateBatcher: Sendable {
    /// One create waiting for its batch, and where its committed record goes.
    private struct Create: Sendable {
        let draft: ObjectDraft
        let done: CheckedContinuation<ObjectRecord, any Error>
    }

    private struct State {
        var waiting: [Create] = []
        /// A task is writing batches: a new create joins the queue instead of starting another.
        var writing = false
    }

    private let state = Mutex(State())

    /// How many creates wait for a batch now (for tests that line creates up).
    package var queued: Int { state.withLock { $0.waiting.count } }

    /// The most creates in one transaction: a bound on the statement's size (ten binds a row)
    /// and on how long one failed batch takes to write again one by one.
    static let batchLimit = 64

    /// Writes the create, in a batch with whatever others wait, and returns its record once it
    /// is committed; throws what writing it on its own threw.
    func write(_ draft: ObjectDraft, on database: FieldworkDatabase) async throws -> ObjectRecord {
        // Nobody writing: this create is written at once, in its own task (no task started, no
        // continuation to resume: each is a wake-up of another thread, on every lone create).
        // The creates that arrive meanwhile wait, and are written after it, together.
        let alone = state.withLock { state -> Bool in
            guard !state.writing else { return false }
            state.writing = true
            return true
        }
        if alone {
            let outcome: Result<ObjectRecord, any Error>
            do {
                outcome = .success(try await Self.insert([draft], on: database)[0])
            } catch {
                outcome = .failure(error)
            }
            let waiting = state.withLock { state -> Bool in
                guard !state.waiting.isEmpty else {
                    state.writing = false
                    return false
                }
                return true
            }
            if waiting { Task { await self.writeWaiting(on: database) } }
            return try outcome.get()
        }
        return try await withCheckedThrowingContinuation { (done: CheckedContinuation<ObjectRecord, any Error>) in
            let start = state.withLock { state -> Bool in
                state.waiting.append(Create(draft: draft, done: done))
                guard !state.writing else { return false }
                state.writing = true
                return true
            }
            if start { Task { await self.writeWaiting(on: database) } }
        }
    }

    /// Writes batches until nobody waits.
    private func writeWaiting(on database: FieldworkDatabase) async {
        while let batch = nextBatch() {
            await Self.write(batch, on: database)
        }
    }

    /// The next creates to write, oldest first; nil (and no longer writing) when none wait.
    private func nextBatch() -> [Create]? {
        state.withLock { state in
            guard !state.waiting.isEmpty else {
                state.writing = false
                return nil
            }
            let batch = Array(state.waiting.prefix(Self.batchLimit))
            state.waiting.removeFirst(batch.count)
            return batch
        }
    }

    /// Writes a batch in one transaction; when that fails, each create in its own.
    private static func write(_ batch: [Create], on database: FieldworkDatabase) async {
        do {
            let records = try await insert(batch.map(\.draft), on: database)
            for (create, record) in zip(batch, records) { create.done.resume(returning: record) }
        } catch {
            guard batch.count > 1, Self.mayBeOneCreates(error) else {
                for create in batch { create.done.resume(throwing: error) }
                return
            }
            for create in batch {
                do {
                    let records = try await database.transaction { db in
                        try await ObjectDraft.insert([create.draft], on: db)
                    }
                    create.done.resume(returning: records[0])
                } catch {
                    create.done.resume(throwing: error)
                }
            }
        }
    }

    /// The drafts' rows, committed: a lone create with no work beside it is its written-out
    /// `INSERT`s (``ObjectDraft/insertAlone(_:on:)``: one, or two in a transaction with its key),
    /// any other write a transaction through the driver.
    private static func insert(_ drafts: [ObjectDraft], on database: FieldworkDatabase) async throws -> [ObjectRecord] {
        let lone = drafts.count == 1 && drafts[0].alongside == nil && drafts[0].instance == nil
        return
            lone
            ? [try await ObjectDraft.insertAlone(drafts[0], on: database)]
            : try await database.transaction { db in try await ObjectDraft.insert(drafts, on: db) }
    }

    /// Whether a failed batch may have failed for one create alone, so that writing each again
    /// on its own gives the others their objects: a constraint (a one-time key already used) or
    /// an error of a create's own work. The database itself failing (unreachable, the disk full
    /// or failing, a deadline passed) would fail each of them again, one after another: every
    /// create of the batch gets that error at once.
    static func mayBeOneCreates(_ error: any Error) -> Bool {
        if DatabaseOutage.isOutage(error) { return false }
        if let error = error as? any DatabaseError { return error.isConstraintFailure }
        return true
    }
}
