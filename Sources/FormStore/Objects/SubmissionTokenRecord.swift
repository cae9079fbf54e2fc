import FluentKit
import Foundation

/// A row of `submission_tokens`: a create that was stored, by the one-time key it came with (a
/// create view's token, or an API client's `Idempotency-Key`), and the object it made. The key
/// is the primary key, so two requests with one key store one object: the second one's
/// transaction fails on it and is answered with the first one's object.
final class SubmissionTokenRecord: Model, @unchecked Sendable {
    static let schema = "submission_tokens"

    /// ``OnceKey/storageKey``: the key with its scope.
    @ID(custom: "key", generatedBy: .user)
    var id: String?

    @Field(key: "form_id")
    var formID: String

    @Field(key: "object_id")
    var objectID: UUID

    /// A hash of an API request's body, to refuse the key with another body; nil for a create view's token.
    @OptionalField(key: "fingerprint")
    var fingerprint: String?

    @Timestamp(key: "created_at", on: .create)
    var createdAt: Date?

    init() {}

    init(_ key: OnceKey, formID: String, objectID: UUID) {
        id = key.storageKey
        self.formID = formID
        self.objectID = objectID
        fingerprint = key.fingerprint
    }

    /// The stored properties, named rather than found by reflection (see ``ObjectRecord/properties``).
    var properties: [any AnyProperty] { [_id, _formID, _objectID, _fingerprint, _createdAt] }
}

/// What makes a create happen once: a create view's one-time token, or an API client's
/// `Idempotency-Key` with the body it came with, scoped to who sent it.
package struct OnceKey: Sendable, Hashable {
    let storageKey: String
    package let fingerprint: String?

    /// A create view's token (``SubmissionToken``): random, so it needs no scope.
    package static func page(_ token: String) -> OnceKey {
        OnceKey(storageKey: "page:\(token)", fingerprint: nil)
    }

    /// An `Idempotency-Key` in a scope (an account, or anonymous) and form, with a hash of the body.
    package static func api(_ key: String, scope: String, formID: String, fingerprint: String) -> OnceKey {
        OnceKey(storageKey: "api:\(scope):\(formID):\(key)", fingerprint: fingerprint)
    }
}
