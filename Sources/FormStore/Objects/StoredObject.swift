import FormModel
import Foundation

/// One stored object, as the pages and the API need it.
package struct StoredObject: Sendable, Hashable {
    package var id: UUID
    package var formID: String
    package var formVersion: Int
    package var values: [String: FieldValue]
    package var keyText: String
    package var creatorUserID: UUID?
    package var creatorBrowser: String?
    package var createdAt: Date?
    package var updatedAt: Date?
    /// The entity in the service this object stands for, for a form in mode `service`.
    package var service: ServiceLink?

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
        service = ServiceLink(record)
    }
}

/// An object as lists show it: its id and key information.
package struct ObjectSummary: Sendable, Hashable {
    package var id: UUID
    package var keyText: String
    package var createdAt: Date?
}

/// Whose objects a list shows: every object (an admin's list), or those one person created,
/// signed in or not.
package enum OwnerFilter: Sendable, Hashable {
    case everyone
    /// The objects created by the account, if any, and those the browser created anonymously.
    case createdBy(account: UUID?, browser: String)
}

/// Who created an object: a signed-in account, or an anonymous browser.
package enum Creator: Sendable, Hashable {
    case account(UUID)
    case browser(String)
}

enum ObjectStoreError: Error {
    case unsaved
}
