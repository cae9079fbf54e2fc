import FluentKit
import Foundation

/// A row of `users`: an account that can sign in.
final class UserRecord: Model, @unchecked Sendable {
    static let schema = "users"

    @ID(key: .id)
    var id: UUID?

    /// The sign-in name, unique; `admin` is created on first start.
    @Field(key: "name")
    var name: String

    /// bcrypt hash of the password.
    @Field(key: "password_hash")
    var passwordHash: String

    @Field(key: "is_admin")
    var isAdmin: Bool

    @Timestamp(key: "created_at", on: .create)
    var createdAt: Date?

    init() {}

    init(id: UUID? = nil, name: String, passwordHash: String, isAdmin: Bool) {
        self.id = id
        self.name = name
        self.passwordHash = passwordHash
        self.isAdmin = isAdmin
    }
}
