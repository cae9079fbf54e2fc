import FluentKit
import Foundation
import SQLKit

/// A row of `objects`: one object created with a form, with the version it was created with.
final class ObjectRecord: Model, @unchecked Sendable {
    static let schema = "objects"

    @ID(key: .id)
    var id: UUID?

    @Field(key: "form_id")
    var formID: String

    /// The form version the object was created with; edits keep using it.
    @Field(key: "form_version")
    var formVersion: Int

    @Field(key: "values")
    var values: StoredValues

    /// The key information's display text, kept beside the values so lists need no decoding.
    @Field(key: "key_text")
    var keyText: String

    @OptionalField(key: "creator_user_id")
    var creatorUserID: UUID?

    /// The anonymous creator's browser id (the `fieldwork_csrf` cookie).
    @OptionalField(key: "creator_browser")
    var creatorBrowser: String?

    @Timestamp(key: "created_at", on: .create)
    var createdAt: Date?

    @Timestamp(key: "updated_at", on: .update)
    var updatedAt: Date?

    init() {}
}

/// Creates `objects`, indexed for the parent page's per-form, newest-first list.
struct CreateObjects: AsyncMigration {
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
