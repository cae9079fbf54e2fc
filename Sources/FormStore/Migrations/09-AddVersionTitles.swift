import FluentKit
import Foundation

/// Adds `form_versions.title`, filled in from each stored schema, so that lists of forms read
/// titles without decoding schemas.
struct AddVersionTitles: RecordedMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(FormVersionRecord.schema).field("title", .string).update()
        try await Self.fillTitles(on: database)
    }

    /// Sets the title of every version that has none from its schema JSON.
    static func fillTitles(on database: any Database) async throws {
        for row in try await FormVersionRecord.query(on: database).filter(\.$title == nil).field(\.$id).field(
            \.$schemaJSON
        ).all() {
            guard let id = row.id,
                let head = try? JSONDecoder().decode(SchemaHead.self, from: Data(row.schemaJSON.utf8))
            else {
                continue
            }
            try await FormVersionRecord.query(on: database).filter(\.$id == id).set(\.$title, to: head.title).update()
        }
    }

    /// The one key of the canonical JSON this needs.
    private struct SchemaHead: Decodable {
        var title: String
    }

    func revert(on database: any Database) async throws {
        try await database.schema(FormVersionRecord.schema).deleteField("title").update()
    }
}
