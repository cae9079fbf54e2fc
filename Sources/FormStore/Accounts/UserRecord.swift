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

    /// The TOTP secret of the account's second factor, sealed (``SecondFactorStore``); nil while
    /// the account signs in with its password alone.
    @OptionalField(key: "totp_secret")
    var totpSecret: String?

    /// A secret being enrolled, sealed: it replaces ``totpSecret`` once a code made with it is
    /// entered.
    @OptionalField(key: "totp_pending")
    var totpPending: String?

    /// The time step of the last code accepted: a code is accepted once, and none of an earlier step.
    @OptionalField(key: "totp_last_step")
    var totpLastStep: Int64?

    /// The digests of the unused recovery codes, space-separated.
    @OptionalField(key: "recovery_codes")
    var recoveryCodes: String?

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
