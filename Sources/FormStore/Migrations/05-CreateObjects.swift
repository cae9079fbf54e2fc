import FluentKit
import SQLKit

/// Creates `objects`, indexed for the parent page's per-form, newest-first list.
struct CreateObjects: RecordedMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(ObjectRecord.schema)
            .id()
            .field("form_id", .string, .required, .references(FormRecord.schema, "id"))
            .field("form_version", .int, .required)
            .field("values", .json, .required)
            .field("key_text", .string, .required)
            .field("creator_user_id", .uuid, .references(UserRecord.schema, "id", onDelete: .setNull))
            .field("creator_browser", .string)
            .field("created_at", .datetime)
            .field("updated_at", .datetime)
            .create()
        if let sql = database as? any SQLDatabase {
            try await sql.create(index: "objects_form_created").on(ObjectRecord.schema).column("form_id")
                .column("created_at").run()
        }
    }

    func revert(on database: any Database) async throws {
        try await database.schema(ObjectRecord.schema).delete()
    }
}
