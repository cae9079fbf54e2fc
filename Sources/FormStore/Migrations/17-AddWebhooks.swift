import FluentKit
import SQLKit

/// Adds webhooks: `webhook_endpoints` (each form's registered URLs, their secrets sealed) and
/// `webhook_events`, the outbox the object writes fill in their own transactions, indexed for
/// the worker's claim of due events and for each endpoint's recent deliveries.
struct AddWebhooks: RecordedMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(WebhookEndpointRecord.schema)
            .id()
            .field("form_id", .string, .required)
            .field("url", .string, .required)
            .field("events", .string, .required)
            .field("sealed_secret", .string, .required)
            .field("created_at", .datetime)
            .field("created_by", .string)
            .create()
        try await database.schema(WebhookEventRecord.schema)
            .field("id", .string, .identifier(auto: false))
            .field("endpoint_id", .uuid, .required)
            .field("form_id", .string, .required)
            .field("object_id", .uuid, .required)
            .field("type", .string, .required)
            .field("payload", .string, .required)
            .field("status", .string, .required)
            .field("attempts", .int, .required)
            .field("round_attempts", .int, .required)
            .field("pending_since", .datetime, .required)
            .field("next_attempt_at", .datetime)
            .field("last_attempt_at", .datetime)
            .field("last_status", .int)
            .field("last_answer", .string)
            .field("last_latency_ms", .int)
            .field("created_at", .datetime, .required)
            .field("delivered_at", .datetime)
            .create()
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.create(index: "webhook_endpoints_form").on(WebhookEndpointRecord.schema).column("form_id").run()
        // The worker's claim: pending events by when they are due.
        try await sql.create(index: "webhook_events_due").on(WebhookEventRecord.schema)
            .column("status").column("next_attempt_at").run()
        // An endpoint's recent deliveries, newest first.
        try await sql.create(index: "webhook_events_endpoint").on(WebhookEventRecord.schema)
            .column("endpoint_id").column("created_at").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(WebhookEventRecord.schema).delete()
        try await database.schema(WebhookEndpointRecord.schema).delete()
    }
}
