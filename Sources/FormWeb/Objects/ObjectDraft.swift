import FluentKit
import Foundation

/// A create about to be written: what its rows will hold. Each attempt to write it makes fresh
/// records (``record()``, ``tokenRecord()``), so a create written again after its batch failed
/// (``CreateBatcher``) starts clean.
struct ObjectDraft: Sendable {
    let id: UUID
    let formID: String
    let version: Int
    let values: StoredValues
    let keyText: String
    let creator: Creator
    /// The create's one-time key, stored in the same transaction.
    let once: OnceKey?
    /// Work in the same transaction with the new object's id (the attachments claim their
    /// files there). Database work only: it may run again when a batch is written again.
    let alongside: (@Sendable (any Database, UUID) async throws -> Void)?

    /// The object's row.
    func record() -> ObjectRecord {
        let record = ObjectRecord()
        record.id = id
        record.formID = formID
        record.formVersion = version
        record.values = values
        record.keyText = keyText
        switch creator {
        case .account(let id): record.creatorUserID = id
        case .browser(let id): record.creatorBrowser = id
        }
        return record
    }

    /// The one-time key's row, when the create has a key.
    func tokenRecord() -> SubmissionTokenRecord? {
        once.map { SubmissionTokenRecord($0, formID: formID, objectID: id) }
    }
}
