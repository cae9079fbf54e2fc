import FluentKit

/// Adds each version's ``XFormRules`` (an imported ODK XForm's binds, instances and texts, as
/// JSON) to `form_versions`: what the server judges every submission of that version by.
struct AddXFormRules: RecordedMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(FormVersionRecord.schema).field("rules_json", .string).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(FormVersionRecord.schema).deleteField("rules_json").update()
    }
}
