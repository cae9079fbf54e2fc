import FluentKit
import Foundation

/// A row of `option_lists`: the options an admin uploaded for a list of a form. They replace the
/// list's options in every version of the form that has a list with this id.
final class OptionListRecord: Model, @unchecked Sendable {
    static let schema = "option_lists"

    @ID(key: .id)
    var id: UUID?

    @Field(key: "form_id")
    var formID: String

    @Field(key: "list_id")
    var listID: String

    @Field(key: "options")
    var options: UploadedOptions

    @Timestamp(key: "uploaded_at", on: .update)
    var uploadedAt: Date?

    @OptionalField(key: "uploaded_by")
    var uploadedBy: String?

    /// For an XForm's external instance, the uploaded file as the instance's XML.
    @OptionalField(key: "instance_xml")
    var instanceXML: String?

    init() {}
}
