import FluentKit

/// Adds `cache_changes`, the numbered list of changes that every instance's caches follow
/// (``ChangeFeed``).
struct AddCacheChanges: RecordedMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(ChangeRecord.schema)
            .field("seq", .int, .identifier(auto: true))
            .field("kind", .string, .required)
            .field("key", .string, .required)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(ChangeRecord.schema).delete()
    }
}
