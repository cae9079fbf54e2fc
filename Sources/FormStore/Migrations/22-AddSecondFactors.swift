import FluentKit

/// Adds what a second factor needs to `users` (``SecondFactorStore``): the sealed TOTP secret in
/// use and the one being enrolled, the last time step a code was accepted for (a code works
/// once), and the digests of the recovery codes. One column per statement: SQLite adds one at a
/// time.
struct AddSecondFactors: RecordedMigration {
    static let columns: [(String, DatabaseSchema.DataType)] = [
        ("totp_secret", .string), ("totp_pending", .string), ("totp_last_step", .int64),
        ("recovery_codes", .string),
    ]

    func prepare(on database: any Database) async throws {
        for (name, type) in Self.columns {
            try await database.schema(UserRecord.schema).field(.string(name), type).update()
        }
    }

    func revert(on database: any Database) async throws {
        for (name, _) in Self.columns.reversed() {
            try await database.schema(UserRecord.schema).deleteField(.string(name)).update()
        }
    }
}
