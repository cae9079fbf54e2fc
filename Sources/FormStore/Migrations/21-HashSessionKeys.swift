import FluentKit

/// Sessions are kept under a hash of their cookie's value from now on (`DatabasePersistDriver`),
/// so a copy of the database opens none. Rows of earlier versions, kept under the value itself,
/// are deleted rather than hashed: whoever had a copy of the database already has those ids.
/// Everyone signed in signs in once more.
struct HashSessionKeys: RecordedMigration {
    func prepare(on database: any Database) async throws {
        try await SessionRecord.query(on: database).filter(\.$id !=~ SessionKey.prefix).delete()
    }

    func revert(on database: any Database) async throws {
        try await SessionRecord.query(on: database).delete()
    }
}
