import FluentKit

/// Adds `object_instances`: each object of an imported XForm as its ODK instance XML, the record
/// of truth ODK tools read, written in the object's own transaction (``ObjectInstanceRecord``).
struct AddObjectInstances: RecordedMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(ObjectInstanceRecord.schema)
            .field(
                "object_id", .uuid, .identifier(auto: false),
                .references(ObjectRecord.schema, "id", onDelete: .cascade)
            )
            .field("instance_id", .string, .required)
            .field("xml", .string, .required)
            .field("updated_at", .datetime)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(ObjectInstanceRecord.schema).delete()
    }
}
