import FormModel
import Foundation

/// A file the attachments store keeps: staged (its uploader's until an object claims it) or
/// an object's.
public struct StoredAttachment: Sendable, Hashable {
    public var id: String
    /// The browser id (or session) that uploaded it.
    public var owner: String
    public var formID: String
    public var field: String
    /// The object it belongs to; nil while staged.
    public var objectID: UUID?
    /// Sanitised.
    public var name: String
    public var size: Int
    /// Sniffed from the content; nil when unrecognised.
    public var contentType: String?
    public var createdAt: Date
    public var staged: Bool

    /// The file as a submission and a stored value carry it.
    public var submitted: SubmittedFile { SubmittedFile(id: id, name: name, size: size, contentType: contentType) }

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
