import FluentKit

/// Creates `form_versions`; the unique (form, version) pair stops two concurrent imports from
/// both taking the same number.
struct CreateFormVersions: RecordedMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(FormVersionRecord.schema)
            .id()
            .field("form_id", .string, .required, .references(FormRecord.schema, "id"))
            .field("version", .int, .required)
            .field("source_kind", .string, .required)
            .field("source_documents", .json, .required)
            .field("schema_json", .string, .required)
            .field("imported_at", .datetime)
            .field("imported_by", .string)
            .unique(on: "form_id", "version")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(FormVersionRecord.schema).delete()
    }
}
