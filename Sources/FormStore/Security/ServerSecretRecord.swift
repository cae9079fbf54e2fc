import FluentKit
import Foundation

/// A row of `server_secrets`: `signing-check`, the check of the signing key every instance
/// must hold (``ServerSecret/check``); `csrf`, the key itself as versions before this one kept
/// it, deleted once taken to `<data>/signing.key`.
final class ServerSecretRecord: Model, @unchecked Sendable {
    static let schema = "server_secrets"

    /// `signing-check`, or an earlier version's `csrf`.
    @ID(custom: "name", generatedBy: .user)
    var id: String?

    /// The check, or the earlier key's 32 bytes, base64.
    @Field(key: "key")
    var key: String

    init() {}

    init(name: String, text: String) {
        id = name
        key = text
    }
}
