import FluentKit

/// Creates `forms`.
struct CreateForms: RecordedMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(FormRecord.schema)
            .field("id", .string, .identifier(auto: false))
            .field("access", .string, .required)
            .field("state", .string, .required)
            .field("created_at", .datetime)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(FormRecord.schema).delete()
    }
}
