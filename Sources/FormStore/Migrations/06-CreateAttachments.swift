import FluentKit
import SQLKit

/// Creates `attachments`, indexed for the two lookups that scan: an object's files and the
/// purge of old staged ones.
struct CreateAttachments: RecordedMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(AttachmentRecord.schema)
            .field("id", .string, .identifier(auto: false))
            .field("owner", .string, .required)
            .field("form_id", .string, .required)
            .field("field", .string, .required)
            .field("object_id", .uuid)
            .field("name", .string, .required)
            .field("size", .int64, .required)
            .field("content_type", .string)
            .field("created_at", .datetime, .required)
            .field("staged", .bool, .required)
            .field("position", .int, .required)
            .create()
        if let sql = database as? any SQLDatabase {
            try await sql.create(index: "attachments_object").on(AttachmentRecord.schema).column("object_id").run()
            try await sql.create(index: "attachments_staged_created").on(AttachmentRecord.schema).column("staged")
                .column("created_at").run()
        }
    }

    func revert(on database: any Database) async throws {
        try await database.schema(AttachmentRecord.schema).delete()
    }
}
