import FluentKit
import Foundation

/// A row of `sessions`: one key of HummingbirdAuth's session storage with its JSON value.
final class SessionRecord: Model, @unchecked Sendable {
    static let schema = "sessions"

    /// The storage key: the middleware's prefix plus the random session id from the cookie.
    @ID(custom: "id", generatedBy: .user)
    var id: String?

    /// The session encoded as JSON text.
    @Field(key: "value")
    var value: String

    /// After this the row counts as gone; nil never expires.
    @OptionalField(key: "expires_at")
    var expiresAt: Date?

    init() {}

    init(id: String, value: String, expiresAt: Date?) {
        self.id = id
        self.value = value
        self.expiresAt = expiresAt
    }
}
