import FluentKit

/// Creates `staged_documents`.
struct AddStagedDocuments: RecordedMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(StagedDocumentRecord.schema)
            .id()
            .field("owner", .uuid, .required)
            .field("name", .string, .required)
            .field("data", .data, .required)
            .field("created_at", .datetime, .required)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(StagedDocumentRecord.schema).delete()
    }
}
