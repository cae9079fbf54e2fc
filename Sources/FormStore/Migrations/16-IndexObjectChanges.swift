import FluentKit
import SQLKit

/// Indexes `objects` for the walk in change order that the API's object list and the export
/// page through by keyset (`form_id`, then `updated_at`, then `id` to break ties), and gives
/// every object an `updated_at`: a create sets it to its `created_at` (FluentKit touches both),
/// but a row without one would never be reached by that walk.
struct IndexObjectChanges: RecordedMigration {
    func prepare(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.update(ObjectRecord.schema)
            .set(SQLIdentifier("updated_at"), to: SQLIdentifier("created_at"))
            .where(SQLIdentifier("updated_at"), .is, SQLLiteral.null)
            .run()
        try await sql.create(index: "objects_form_changed").on(ObjectRecord.schema)
            .column("form_id").column("updated_at").column("id")
            .run()
    }

    func revert(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.drop(index: "objects_form_changed").run()
    }
}
