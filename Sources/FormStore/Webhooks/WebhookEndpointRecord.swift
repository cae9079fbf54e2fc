import FluentKit
import Foundation

/// A row of `webhook_endpoints`: a URL an admin registered to hear of a form's objects. The
/// signing secret is kept only sealed (``SealingKey``, the endpoint's id bound in); the key that
/// opens it is never in the database.
final class WebhookEndpointRecord: Model, @unchecked Sendable {
    static let schema = "webhook_endpoints"

    @ID(key: .id)
    var id: UUID?

    @Field(key: "form_id")
    var formID: String

    @Field(key: "url")
    var url: String

    /// The events it hears of, comma-separated: `created,updated,deleted`.
    @Field(key: "events")
    var events: String

    /// The `whsec_…` secret sealed with the sealing key, base64.
    @Field(key: "sealed_secret")
    var sealedSecret: String

    @Timestamp(key: "created_at", on: .create)
    var createdAt: Date?

    @OptionalField(key: "created_by")
    var createdBy: String?

    init() {}
}
