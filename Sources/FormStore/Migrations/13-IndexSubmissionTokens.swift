import FluentKit
import SQLKit

/// Indexes `submission_tokens` for the two lookups that would scan it: the hourly purge of keys
/// older than a day (`created_at`), and the keys of an object being deleted (`object_id`).
struct IndexSubmissionTokens: RecordedMigration {
    func prepare(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.create(index: "submission_tokens_created").on(SubmissionTokenRecord.schema).column("created_at")
            .run()
        try await sql.create(index: "submission_tokens_object").on(SubmissionTokenRecord.schema).column("object_id")
            .run()
    }

    func revert(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.drop(index: "submission_tokens_created").run()
        try await sql.drop(index: "submission_tokens_object").run()
    }
}
