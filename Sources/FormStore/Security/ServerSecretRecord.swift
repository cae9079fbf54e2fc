import FluentKit
import Foundation

/// A row of `server_secrets`: the one secret every instance signs with (CSRF tokens, sealed
/// prefill values), so a page from one instance is accepted by another.
final class ServerSecretRecord: Model, @unchecked Sendable {
    static let schema = "server_secrets"

    /// `csrf`: the only one so far.
    @ID(custom: "name", generatedBy: .user)
    var id: String?

    /// The 32 bytes, base64.
    @Field(key: "key")
    var key: String

    init() {}

    init(name: String, key: Data) {
        id = name
        self.key = key.base64EncodedString()
    }
}
