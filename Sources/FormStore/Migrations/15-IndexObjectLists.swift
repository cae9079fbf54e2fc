import FluentKit
import SQLKit

/// Indexes `objects` for the parent page's keyset pages, one index for each way a viewer sees
/// objects, each ending in the list's order (created, then id), so a page is read from the
/// index wherever it is in the list: an admin's every object of a form (`objects_list`, which
/// takes the place of `objects_form_created`, its prefix), an account's (`objects_list_user`),
/// and a browser's anonymous ones (`objects_list_browser`). The admin's forms list needs
/// nothing new: it pages by the forms' primary key and reads their versions by the unique
/// (form, version) pair.
struct IndexObjectLists: RecordedMigration {
    func prepare(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.create(index: "objects_list").on(ObjectRecord.schema)
            .column("form_id").column("created_at").column("id").run()
        try await sql.create(index: "objects_list_user").on(ObjectRecord.schema)
            .column("form_id").column("creator_user_id").column("created_at").column("id").run()
        try await sql.create(index: "objects_list_browser").on(ObjectRecord.schema)
            .column("form_id").column("creator_browser").column("created_at").column("id").run()
        try await sql.drop(index: "objects_form_created").run()
    }

    func revert(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.create(index: "objects_form_created").on(ObjectRecord.schema)
            .column("form_id").column("created_at").run()
        for index in ["objects_list", "objects_list_user", "objects_list_browser"] {
            try await sql.drop(index: index).run()
        }
    }
}
