import Foundation

/// What happened to an object that an endpoint may hear of.
package enum WebhookEventType: String, Sendable, Hashable, CaseIterable {
    case created
    case updated
    case deleted

    /// The payload's `type`: `object.created`, `object.updated`, `object.deleted`.
    package var name: String { "object.\(rawValue)" }
}

/// A registered endpoint, as the admin sees it: never its secret.
package struct StoredWebhook: Sendable, Hashable {
    package var id: UUID
    package var formID: String
    package var url: String
    package var events: [WebhookEventType]
    package var createdAt: Date?
    package var createdBy: String?
}

/// One event for one endpoint and what became of its deliveries.
package struct WebhookDelivery: Sendable, Hashable {
    package enum Status: String, Sendable, Hashable {
        /// Not delivered yet: an attempt is due at ``WebhookDelivery/nextAttemptAt``.
        case pending
        /// An attempt was answered with a 2xx status.
        case delivered
        /// 24 hours of attempts went unanswered or refused; "send again" tries once more.
        case failed
    }

    package var id: String
    package var endpointID: UUID
    package var objectID: UUID
    package var type: WebhookEventType
    package var status: Status
    package var attempts: Int
    package var nextAttemptAt: Date?
    package var lastAttemptAt: Date?
    package var lastStatus: Int?
    package var lastAnswer: String?
    package var lastLatencyMS: Int?
    package var createdAt: Date
    package var deliveredAt: Date?
}

/// An event claimed for sending: where to, with what secret, what body, and how far along its
/// retries are.
package struct DueWebhook: Sendable, Hashable {
    package var id: String
    package var endpointID: UUID
    package var url: String
    /// The endpoint's `whsec_…` secret, opened for signing.
    package var secret: String
    package var payload: String
    /// Attempts since it became due (the back-off's exponent).
    package var roundAttempts: Int
    package var pendingSince: Date
}

/// What an attempt ended in, and so what the event becomes.
package struct WebhookAttemptRecord: Sendable, Hashable {
    package enum Next: Sendable, Hashable {
        case delivered
        /// Not delivered: the next attempt at this time.
        case retry(at: Date)
        /// Not delivered, and the retries are over.
        case failed
    }

    package var next: Next
    package var at: Date
    package var status: Int?
    package var answer: String
    package var latencyMS: Int

    package init(next: Next, at: Date, status: Int?, answer: String, latencyMS: Int) {
        self.next = next
        self.at = at
        self.status = status
        self.answer = answer
        self.latencyMS = latencyMS
    }
}
