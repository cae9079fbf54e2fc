import Crypto
import FluentKit
import FormModel
import Foundation
import SQLKit

/// Keeps the second factor of accounts (a TOTP secret, RFC 6238, and one-time recovery codes);
/// what a code is and when it is right is the sign-in's business, not the store's.
///
/// Secrets are sealed with the ``SealingKey`` (bound to the account's id) and recovery codes are
/// kept as keyed digests (HMAC with a key derived from it), so a copy of the database alone
/// yields neither. Every change that decides a sign-in is made in one transaction with the
/// account's row locked (on PostgreSQL; SQLite's writes take turns): a code's time step
/// recorded once, a recovery code taken once, a secret enrolled once, by whichever of two
/// requests comes first.
package struct SecondFactorStore: Sendable {
    let database: FieldworkDatabase
    let sealing: SealingKey

    package init(database: FieldworkDatabase, sealing: SealingKey) {
        self.database = database
        self.sealing = sealing
    }

    /// The account's second factor as sign-in needs it: its secret and the step of the last code
    /// accepted; nil when it has none.
    package struct Secret: Sendable {
        package var secret: String
        package var lastStep: Int64?
    }

    /// The secret in use, or nil when the account signs in with its password alone.
    package func secret(of id: UUID) async throws -> Secret? {
        guard let record = try await UserRecord.find(id, on: database.database()),
            let sealed = record.totpSecret
        else { return nil }
        return Secret(secret: try sealing.open(sealed, context: Self.context(id)), lastStep: record.totpLastStep)
    }

    /// The secret being enrolled, or nil when none is.
    package func pendingSecret(of id: UUID) async throws -> String? {
        guard let sealed = try await UserRecord.find(id, on: database.database())?.totpPending else { return nil }
        return try sealing.open(sealed, context: Self.context(id))
    }

    /// Keeps `secret` as the one being enrolled (the one in use, if any, stays until it is confirmed).
    package func setPending(_ secret: String, of id: UUID) async throws {
        let sealed = try sealing.seal(secret, context: Self.context(id))
        try await change(id, whenGone: ()) { record, _ in
            record.totpPending = sealed
        }
    }

    /// Makes the pending secret the one in use, with `step` as its last accepted code and the
    /// digests of `recoveryCodes` as its recovery codes; the account's sessions end (each was
    /// opened with a password alone). False when the pending secret is no longer `secret`
    /// (another request enrolled or restarted meanwhile).
    package func activate(_ secret: String, step: Int64, recoveryCodes: [String], of id: UUID) async throws -> Bool {
        let digests = recoveryCodes.map { digest($0, of: id) }.joined(separator: " ")
        return try await change(id, recording: [.account(id)], whenGone: false) { record, db in
            guard let pending = record.totpPending,
                (try? sealing.open(pending, context: Self.context(id))) == secret
            else { return false }
            record.totpSecret = pending
            record.totpPending = nil
            record.totpLastStep = step
            record.recoveryCodes = digests
            try await SessionRecord.query(on: db).filter(\.$value ~~ id.uuidString).delete()
            return true
        }
    }

    /// Records `step` as the last accepted code's; false when a code of this step or a later
    /// one was accepted already (the code is spent).
    package func accept(step: Int64, of id: UUID) async throws -> Bool {
        try await change(id, whenGone: false) { record, _ in
            guard record.totpSecret != nil, (record.totpLastStep ?? .min) < step else { return false }
            record.totpLastStep = step
            return true
        }
    }

    /// Takes a recovery code: the number left after it, or nil when it is not one of the
    /// account's unused codes.
    package func takeRecoveryCode(_ code: String, of id: UUID) async throws -> Int? {
        let wanted = digest(code, of: id)
        return try await change(id, whenGone: nil) { record, _ -> Int? in
            var digests = (record.recoveryCodes ?? "").split(separator: " ").map(String.init)
            guard record.totpSecret != nil,
                let index = digests.firstIndex(where: { ConstantTime.equal($0, wanted) })
            else { return nil }
            digests.remove(at: index)
            record.recoveryCodes = digests.joined(separator: " ")
            return digests.count
        }
    }

    /// How many unused recovery codes the account has.
    package func recoveryCodesLeft(of id: UUID) async throws -> Int {
        let codes = try await UserRecord.find(id, on: database.database())?.recoveryCodes ?? ""
        return codes.split(separator: " ").count
    }

    /// Replaces the recovery codes (the old ones stop working); false when the account has no
    /// second factor.
    package func replaceRecoveryCodes(with codes: [String], of id: UUID) async throws -> Bool {
        let digests = codes.map { digest($0, of: id) }.joined(separator: " ")
        return try await change(id, whenGone: false) { record, _ in
            guard record.totpSecret != nil else { return false }
            record.recoveryCodes = digests
            return true
        }
    }

    /// Removes the second factor (and any enrolment under way): the account signs in with its
    /// password alone.
    package func remove(of id: UUID) async throws {
        try await change(id, recording: [.account(id)], whenGone: ()) { record, _ in
            record.totpSecret = nil
            record.totpPending = nil
            record.totpLastStep = nil
            record.recoveryCodes = nil
        }
    }

    /// Changes the account's row in a transaction that holds it, and saves it; `whenGone` when
    /// the account no longer exists.
    private func change<T: Sendable>(
        _ id: UUID, recording changes: [CacheChange] = [], whenGone: T,
        _ body: @escaping @Sendable (UserRecord, any Database) async throws -> T
    ) async throws -> T {
        let usesSQLite = database.usesSQLite
        return try await database.transaction(recording: changes) { db in
            if !usesSQLite, let sql = db as? any SQLDatabase {
                _ = try await sql.raw("SELECT id FROM users WHERE id = \(bind: id) FOR UPDATE").all()
            }
            guard let record = try await UserRecord.find(id, on: db) else { return whenGone }
            let answer = try await body(record, db)
            if record.hasChanges { try await record.save(on: db) }
            return answer
        }
    }

    /// A recovery code's digest: HMAC-SHA256 under a key derived from the sealing key, bound to
    /// the account, of the code as typed without spaces, hyphens or case.
    func digest(_ code: String, of id: UUID) -> String {
        let normal = Self.normalRecoveryCode(code)
        return sealing.digest(normal, context: "recovery:" + Self.context(id))
    }

    /// A recovery code as compared: lower case, without spaces and hyphens.
    package static func normalRecoveryCode(_ code: String) -> String {
        String(code.lowercased().filter { $0 != " " && $0 != "-" })
    }

    static func context(_ id: UUID) -> String { "totp:" + id.uuidString.lowercased() }
}
