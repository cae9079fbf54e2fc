import FormModel
import Foundation

/// A file the attachments store keeps: staged (its uploader's until an object claims it) or
/// an object's.
package struct StoredAttachment: Sendable, Hashable {
    package var id: String
    /// The browser id (or session) that uploaded it.
    package var owner: String
    package var formID: String
    package var field: String
    /// The object it belongs to; nil while staged.
    package var objectID: UUID?
    /// Sanitised.
    package var name: String
    package var size: Int
    /// Sniffed from the content; nil when unrecognised.
    package var contentType: String?
    package var createdAt: Date
    package var staged: Bool

    /// The file as a submission and a stored value carry it.
    package var submitted: SubmittedFile { SubmittedFile(id: id, name: name, size: size, contentType: contentType) }

    init(_ record: AttachmentRecord) {
        id = record.id ?? ""
        owner = record.owner
        formID = record.formID
        field = record.field
        objectID = record.objectID
        name = record.name
        size = record.size
        contentType = record.contentType
        createdAt = record.createdAt
        staged = record.staged
    }
}
