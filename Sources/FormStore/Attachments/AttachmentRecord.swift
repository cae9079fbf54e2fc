import FluentKit
import Foundation

/// A row of `attachments`: one received file, staged (owned by the browser that uploaded it)
/// until an object claims it. The bytes live at `<data>/attachments/<id>`.
final class AttachmentRecord: Model, @unchecked Sendable {
    static let schema = "attachments"

    /// A random UUID in lowercase text: the only name the file has on disk.
    @ID(custom: "id", generatedBy: .user)
    var id: String?

    /// The browser id (or session) that uploaded it; only it may see or claim a staged file.
    @Field(key: "owner")
    var owner: String

    @Field(key: "form_id")
    var formID: String

    /// The attachments field it was sent for.
    @Field(key: "field")
    var field: String

    /// The object it belongs to, once claimed.
    @OptionalField(key: "object_id")
    var objectID: UUID?

    /// Sanitised file name.
    @Field(key: "name")
    var name: String

    @Field(key: "size")
    var size: Int

    /// Sniffed from the content; nil when unrecognised.
    @OptionalField(key: "content_type")
    var contentType: String?

    /// Set by the store's clock rather than `@Timestamp`, so the purge can be tested with a
    /// clock that is not the wall clock.
    @Field(key: "created_at")
    var createdAt: Date

    @Field(key: "staged")
    var staged: Bool

    /// Its place among the files of one request, which share a `created_at`.
    @Field(key: "position")
    var position: Int

    init() {}
}
