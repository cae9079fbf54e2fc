import FluentKit

/// Creates `sessions`.
struct CreateSessions: RecordedMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(SessionRecord.schema)
            .field("id", .string, .identifier(auto: false))
            .field("value", .string, .required)
            .field("expires_at", .datetime)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(SessionRecord.schema).delete()
    }
}
