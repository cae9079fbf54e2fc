import FluentKit
import Foundation
import Logging

/// Reads and writes accounts.
package struct UserStore: Sendable {
    let database: FieldworkDatabase
    let hasher: PasswordHasher
    /// A hash of a random password at the configured cost, checked when the user name is
    /// unknown so the answer takes as long as for a known name.
    let decoy: String
    let accounts: AccountCache

    /// Prepares the store; hashes the decoy once, so it takes one bcrypt round.
    package init(database: FieldworkDatabase, hasher: PasswordHasher) async throws {
        self.database = database
        self.hasher = hasher
        accounts = AccountCache(feed: database.feed)
        self.decoy = try await hasher.hash(Self.generatePassword())
    }

    /// The account with a name whose password matches, or nil; takes the same time either way.
    package func authenticate(name: String, password: String) async throws -> Account? {
        let record = try await UserRecord.query(on: database.database()).filter(\.$name == name).first()
        let matches = try await hasher.verify(password, hash: record?.passwordHash ?? decoy)
        guard let record, matches else { return nil }
        if hasher.needsRehash(record.passwordHash) {
            // An earlier version's hash: replaced now that the password is known. Its sessions
            // stay (the password did not change); a failure leaves the old hash, still valid.
            record.passwordHash = try await hasher.hash(password)
            try? await record.save(on: database.database())
        }
        return Self.account(record)
    }

    /// The account with an id, or nil when it was deleted.
    /// Kept in memory (``AccountCache``) until the ``ChangeFeed`` says the account changed.
    package func account(id: UUID) async throws -> Account? {
        try await accounts.account(id: id) {
            try await UserRecord.find(id, on: database.database()).flatMap(Self.account)
        }
    }

    /// Adds an account; fails when the name is taken.
    @discardableResult
    package func create(name: String, password: String, isAdmin: Bool) async throws -> Account {
        let record = UserRecord(name: name, passwordHash: try await hasher.hash(password), isAdmin: isAdmin)
        try await record.create(on: database.database())
        return Self.account(record)!
    }

    /// Every account, by name.
    package func list() async throws -> [Account] {
        try await UserRecord.query(on: database.database()).sort(\.$name).all().compactMap(Self.account)
    }

    /// Whether an account has the name, in any case: `bob` and `Bob` would be two people to
    /// the server and one to everyone else.
    package func exists(name: String) async throws -> Bool {
        let wanted = name.lowercased()
        return try await UserRecord.query(on: database.database()).all(\.$name).contains { $0.lowercased() == wanted }
    }

    /// Sets a new password; the account's sessions end, so an old sign-in stops working.
    package func setPassword(_ password: String, for id: UUID) async throws {
        let hash = try await hasher.hash(password)
        try await database.transaction(recording: [.account(id)]) { db in
            guard let record = try await UserRecord.find(id, on: db) else { return }
            record.passwordHash = hash
            try await record.save(on: db)
            try await SessionRecord.query(on: db).filter(\.$value ~~ id.uuidString).delete()
        }
    }

    /// Removes an account and its sessions; the objects it created stay, visible to admins.
    package func delete(id: UUID) async throws {
        try await database.transaction(recording: [.account(id)]) { db in
            try await SessionRecord.query(on: db).filter(\.$value ~~ id.uuidString).delete()
            try await UserRecord.query(on: db).filter(\.$id == id).delete()
        }
    }

    /// Creates `admin` on first start with the given password, or a generated one that is
    /// logged once: it is never stored in clear anywhere else.
    package func ensureAdmin(password: String?, logger: Logger) async throws {
        let db = database.database()
        guard try await UserRecord.query(on: db).filter(\.$name == "admin").first() == nil else { return }
        let chosen = password.flatMap { $0.isEmpty ? nil : $0 } ?? Self.generatePassword()
        do {
            try await create(name: "admin", password: chosen, isAdmin: true)
        } catch {
            // Another process on the same database won the race; its admin stands.
            if try await UserRecord.query(on: db).filter(\.$name == "admin").first() != nil { return }
            throw error
        }
        if password?.isEmpty ?? true {
            logger.notice("Created the admin account; sign in as admin with this password (shown once): \(chosen)")
        } else {
            logger.notice("Created the admin account with the password from FIELDWORK_ADMIN_PASSWORD")
        }
    }

    /// 20 characters from an alphabet without look-alikes: about 115 bits.
    static func generatePassword() -> String {
        let alphabet = Array("abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<20).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
    }

    static func account(_ record: UserRecord) -> Account? {
        guard let id = record.id else { return nil }
        return Account(
            id: id, name: record.name, isAdmin: record.isAdmin, hasSecondFactor: record.totpSecret != nil)
    }
}
