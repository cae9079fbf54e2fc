import FluentKit

/// Adds `server_secrets`, the secret all instances share (``ServerSecretRecord``).
struct AddServerSecrets: RecordedMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(ServerSecretRecord.schema)
            .field("name", .string, .identifier(auto: false))
            .field("key", .string, .required)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(ServerSecretRecord.schema).delete()
    }
}
