import FluentKit
import Foundation

/// A row of `objects`: one object created with a form, with the version it was created with.
final class ObjectRecord: Model, @unchecked Sendable {
    static let schema = "objects"

    @ID(key: .id)
    var id: UUID?

    @Field(key: "form_id")
    var formID: String

    /// The form version the object was created with; edits keep using it.
    @Field(key: "form_version")
    var formVersion: Int

    @Field(key: "values")
    var values: StoredValues

    /// The key information's display text, kept beside the values so lists need no decoding.
    @Field(key: "key_text")
    var keyText: String

    @OptionalField(key: "creator_user_id")
    var creatorUserID: UUID?

    /// The anonymous creator's browser id (the `fieldwork_csrf` cookie).
    @OptionalField(key: "creator_browser")
    var creatorBrowser: String?

    @Timestamp(key: "created_at", on: .create)
    var createdAt: Date?

    @Timestamp(key: "updated_at", on: .update)
    var updatedAt: Date?

    /// For an object of a form in mode `service`: `sending`, `created` or `unknown`
    /// (``ServiceLink/State``); nil for an object kept here.
    @OptionalField(key: "service_state")
    var serviceState: String?

    /// The entity's key in the service, as JSON (``ServiceLink/key``).
    @OptionalField(key: "service_key")
    var serviceKey: String?

    /// The `Repeatability-Request-ID` the create was sent with.
    @OptionalField(key: "service_request")
    var serviceRequest: UUID?

    /// The entity's ETag as the service last gave it.
    @OptionalField(key: "service_etag")
    var serviceETag: String?

    /// Where each item lives in the service, as JSON (``ServiceLink/items``).
    @OptionalField(key: "service_items")
    var serviceItems: String?

    init() {}

    /// The columns, in the order of ``properties``: the raw `INSERT` of a create writes them
    /// (``ObjectDraft``), and a test checks them against the model's own field keys.
    static let columns = [
        "id", "form_id", "form_version", "values", "key_text", "creator_user_id", "creator_browser", "created_at",
        "updated_at", "service_state", "service_key", "service_request", "service_etag",
        "service_items",
    ]

    /// The stored properties in declaration order, named rather than found by reflection:
    /// FluentKit's default walks the object with `Mirror` several times a query, which made a
    /// third of a create's instructions. A test checks this list against reflection.
    var properties: [any AnyProperty] {
        [
            _id, _formID, _formVersion, _values, _keyText, _creatorUserID, _creatorBrowser, _createdAt, _updatedAt,
            _serviceState, _serviceKey, _serviceRequest, _serviceETag, _serviceItems,
        ]
    }
}
