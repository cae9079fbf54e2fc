import FormModel
import Foundation

/// One stored object, as the pages and the API need it.
public struct StoredObject: Sendable, Hashable {
    public var id: UUID
    public var formID: String
    public var formVersion: Int
    public var values: [String: FieldValue]
    public var keyText: String
    public var creatorUserID: UUID?
    public var creatorBrowser: String?
    public var createdAt: Date?
    public var updatedAt: Date?

    init(_ record: ObjectRecord) throws {
        guard let id = record.id else { throw ObjectStoreError.unsaved }
        self.id = id
        formID = record.formID
        formVersion = record.formVersion
        values = record.values.values
        keyText = record.keyText
        creatorUserID = record.creatorUserID
        creatorBrowser = record.creatorBrowser
        createdAt = record.createdAt
        updatedAt = record.updatedAt
    }
}

/// An object as lists show it: its id and key information.
public struct ObjectSummary: Sendable, Hashable {
    public var id: UUID
    public var keyText: String
    public var createdAt: Date?
}

/// Who created an object: a signed-in account, or an anonymous browser.
public enum Creator: Sendable, Hashable {
    case account(UUID)
    case browser(String)
}

enum ObjectStoreError: Error {
    case unsaved
}
