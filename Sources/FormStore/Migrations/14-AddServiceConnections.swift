import FluentKit

/// Adds what connects OData forms to their services (`../shared/spec/odata-service.md`):
/// `service_connections` (the URL and sealed credentials), each form's connection and mode on
/// `forms`, each version's ``ServiceBinding`` on `form_versions`, and each object's link to the
/// entity it stands for in the service on `objects`.
struct AddServiceConnections: RecordedMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(ServiceConnectionRecord.schema)
            .id()
            .field("url", .string, .required)
            .field("auth_kind", .string, .required)
            .field("auth_user", .string)
            .field("header_name", .string)
            .field("sealed_secret", .string)
            .field("sap_client", .string)
            .field("sap_language", .string)
            .field("ca_file", .string)
            .field("timeout_seconds", .int)
            .field("drift", .string)
            .field("tested_at", .datetime)
            .field("updated_at", .datetime)
            .field("updated_by", .string)
            .create()
        // SQLite adds one column a statement.
        let columns: [(String, String, DatabaseSchema.DataType)] = [
            (FormRecord.schema, "service_connection_id", .uuid), (FormRecord.schema, "service_mode", .string),
            (FormVersionRecord.schema, "binding_json", .string), (ObjectRecord.schema, "service_state", .string),
            (ObjectRecord.schema, "service_key", .string), (ObjectRecord.schema, "service_request", .uuid),
            (ObjectRecord.schema, "service_etag", .string),
        ]
        for (table, column, type) in columns {
            try await database.schema(table).field(
                .definition(name: .key(.init(stringLiteral: column)), dataType: type, constraints: [])
            ).update()
        }
    }

    func revert(on database: any Database) async throws {
        for (table, column) in [
            (ObjectRecord.schema, "service_etag"), (ObjectRecord.schema, "service_request"),
            (ObjectRecord.schema, "service_key"), (ObjectRecord.schema, "service_state"),
            (FormVersionRecord.schema, "binding_json"), (FormRecord.schema, "service_mode"),
            (FormRecord.schema, "service_connection_id"),
        ] {
            try await database.schema(table).deleteField(.key(.init(stringLiteral: column))).update()
        }
        try await database.schema(ServiceConnectionRecord.schema).delete()
    }
}
