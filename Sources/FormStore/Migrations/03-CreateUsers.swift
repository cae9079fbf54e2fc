import FluentKit

/// Creates `users`; the unique name keeps two first starts from both creating `admin`.
struct CreateUsers: RecordedMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(UserRecord.schema)
            .id()
            .field("name", .string, .required)
            .field("password_hash", .string, .required)
            .field("is_admin", .bool, .required)
            .field("created_at", .datetime)
            .unique(on: "name")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(UserRecord.schema).delete()
    }
}
