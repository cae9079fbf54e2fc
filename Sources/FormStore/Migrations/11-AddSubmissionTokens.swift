import FluentKit

/// Adds `submission_tokens`: the one-time keys of stored creates (``SubmissionTokenRecord``).
struct AddSubmissionTokens: RecordedMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(SubmissionTokenRecord.schema)
            .field("key", .string, .identifier(auto: false))
            .field("form_id", .string, .required)
            .field("object_id", .uuid, .required)
            .field("fingerprint", .string)
            .field("created_at", .datetime)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(SubmissionTokenRecord.schema).delete()
    }
}
