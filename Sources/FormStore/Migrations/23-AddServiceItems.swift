import FluentKit

/// Adds `objects.service_items`: where each item of an object kept in its OData service lives
/// there (``ServiceLink/items``), so that an edit can change, add and remove items one by one.
struct AddServiceItems: RecordedMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(ObjectRecord.schema).field("service_items", .string).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(ObjectRecord.schema).deleteField("service_items").update()
    }
}
