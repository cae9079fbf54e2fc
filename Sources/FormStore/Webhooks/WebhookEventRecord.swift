import FluentKit
import Foundation

/// A row of `webhook_events`, the outbox: one event for one endpoint, written in the transaction
/// of the object's change, and what became of its deliveries.
final class WebhookEventRecord: Model, @unchecked Sendable {
    static let schema = "webhook_events"

    /// `msg_` and 32 hex digits: the `webhook-id` every attempt sends.
    @ID(custom: "id", generatedBy: .user)
    var id: String?

    @Field(key: "endpoint_id")
    var endpointID: UUID

    @Field(key: "form_id")
    var formID: String

    @Field(key: "object_id")
    var objectID: UUID

    /// `created`, `updated` or `deleted` (``WebhookEventType``).
    @Field(key: "type")
    var type: String

    /// The body every attempt sends, JSON.
    @Field(key: "payload")
    var payload: String

    /// `pending`, `delivered` or `failed` (``WebhookDelivery/Status``).
    @Field(key: "status")
    var status: String

    /// Every attempt made, "send again" included.
    @Field(key: "attempts")
    var attempts: Int

    /// The attempts since ``pendingSince``: the back-off's exponent.
    @Field(key: "round_attempts")
    var roundAttempts: Int

    /// When it became due: written, or sent again by an admin. Retries end 24 hours later.
    @Field(key: "pending_since")
    var pendingSince: Date

    /// When the next attempt is due; while an instance sends it, the end of that instance's
    /// lease. Nil once delivered or failed.
    @OptionalField(key: "next_attempt_at")
    var nextAttemptAt: Date?

    @OptionalField(key: "last_attempt_at")
    var lastAttemptAt: Date?

    /// The last answer's status; nil when none came (refused, timed out).
    @OptionalField(key: "last_status")
    var lastStatus: Int?

    /// The start of the last answer's body, or why there was no answer.
    @OptionalField(key: "last_answer")
    var lastAnswer: String?

    /// How long the last attempt took, in milliseconds.
    @OptionalField(key: "last_latency_ms")
    var lastLatencyMS: Int?

    @Field(key: "created_at")
    var createdAt: Date

    @OptionalField(key: "delivered_at")
    var deliveredAt: Date?

    init() {}
}
