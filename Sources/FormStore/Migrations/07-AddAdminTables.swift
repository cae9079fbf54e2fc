import FluentKit
import SQLKit

/// The tables and columns the admin page needs: `imports`, `import_sources`, `option_lists`, each
/// version's import and sources, and each form's list revision (which makes cached pages of the form stale when it changes).
struct AddAdminTables: RecordedMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(ImportRecord.schema)
            .id()
            .field("source_kind", .string, .required)
            .field("summary", .json, .required)
            .field("imported_at", .datetime)
            .field("imported_by", .string)
            .create()
        try await database.schema(OptionListRecord.schema)
            .id()
            .field("form_id", .string, .required, .references(FormRecord.schema, "id"))
            .field("list_id", .string, .required)
            .field("options", .json, .required)
            .field("uploaded_at", .datetime)
            .field("uploaded_by", .string)
            .unique(on: "form_id", "list_id")
            .create()
        try await database.schema(ImportSourcesRecord.schema)
            .id()
            .field("documents", .json, .required)
            .field("names", .array(of: .string), .required)
            .create()
        try await database.schema(FormVersionRecord.schema)
            .field("import_id", .uuid)
            .update()
        try await database.schema(FormVersionRecord.schema)
            .field("sources_id", .uuid)
            .update()
        try await database.schema(FormRecord.schema)
            .field("lists_revision", .int, .required, .sql(.default(0)))
            .update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(FormRecord.schema).deleteField("lists_revision").update()
        try await database.schema(FormVersionRecord.schema).deleteField("sources_id").update()
        try await database.schema(FormVersionRecord.schema).deleteField("import_id").update()
        try await database.schema(ImportSourcesRecord.schema).delete()
        try await database.schema(OptionListRecord.schema).delete()
        try await database.schema(ImportRecord.schema).delete()
    }
}
