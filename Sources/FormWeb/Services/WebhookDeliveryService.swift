import FormService
import FormStore
import Foundation
import Logging
import ServiceLifecycle

/// Delivers the outbox of webhook events (``WebhookStore``): claims the due ones, sends each
/// signed (``WebhookSender``), records the answer, and schedules a failed one again
/// (``WebhookSchedule``: back-off with full jitter, the first retry within 10 s, at most an hour
/// apart, for 24 hours, then failed). Woken at once by a commit in this process
/// (``WebhookWakeup``), and polling otherwise: events written by another instance, or claimed by
/// one that stopped mid-send, whose lease ran out. The outbox is the truth, so a restart loses
/// nothing; a delivery may come twice (an instance stopped between sending and recording), never
/// not at all, and receivers drop repeats by `webhook-id`.
struct WebhookDeliveryService: Service {
    let store: WebhookStore
    let sender: WebhookSender
    let wakeup: WebhookWakeup
    let logger: Logger
    var schedule = WebhookSchedule()
    /// The time the worker goes by: claims, signatures, back-off. Tests move it on.
    var now: @Sendable () -> Date = { Date() }
    /// How often it looks for due events when nothing woke it.
    var pollInterval: Duration = .seconds(2)
    /// Events claimed (and sent at once) per round.
    var batch = 16

    /// How long a claimed event is this instance's: its time limit and a margin.
    var lease: TimeInterval { Double(sender.timeLimit.components.seconds) + 50 }

    func run() async throws {
        // Graceful shutdown cancels the wait, and any send under way (recorded as no answer, and
        // tried again by whichever instance runs next).
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                var sent = 0
                do {
                    sent = try await deliverDue()
                } catch {
                    logger.debug("Could not deliver webhook events", metadata: ["error": "\(error)"])
                }
                if sent == 0 { await wakeup.wait(upTo: pollInterval) }
            }
        }
    }

    /// One round: claims the events due now, sends them side by side and records each answer.
    /// - Returns: how many were sent.
    @discardableResult
    func deliverDue() async throws -> Int {
        let due = try await store.claimDue(now: now(), lease: lease, limit: batch)
        await withTaskGroup(of: Void.self) { group in
            for event in due { group.addTask { await deliver(event) } }
        }
        return due.count
    }

    /// Sends one event and records what came of it.
    func deliver(_ event: DueWebhook) async {
        let attempt = await sender.send(
            WebhookMessage(id: event.id, url: event.url, secret: event.secret, body: event.payload), at: now())
        let at = now()
        let next: WebhookAttemptRecord.Next
        if attempt.delivered {
            next = .delivered
        } else if let time = schedule.next(afterFailures: event.roundAttempts + 1, since: event.pendingSince, now: at) {
            next = .retry(at: time)
        } else {
            next = .failed
        }
        let milliseconds =
            attempt.latency.components.seconds * 1000 + attempt.latency.components.attoseconds / 1_000_000_000_000_000
        do {
            try await store.record(
                WebhookAttemptRecord(
                    next: next, at: at, status: attempt.status, answer: attempt.answer, latencyMS: Int(milliseconds)),
                eventID: event.id)
        } catch {
            logger.warning(
                "Could not record a webhook delivery", metadata: ["event": "\(event.id)", "error": "\(error)"])
        }
        // Never the secret: the event, the endpoint and what came back.
        switch next {
        case .delivered:
            logger.debug("Webhook delivered", metadata: ["event": "\(event.id)", "status": "\(attempt.status ?? 0)"])
        case .retry(let time):
            logger.info(
                "Webhook not delivered; trying again",
                metadata: [
                    "event": "\(event.id)", "endpoint": "\(event.endpointID)",
                    "answer": "\(attempt.status.map(String.init) ?? attempt.answer)",
                    "next": "\(time)",
                ])
        case .failed:
            logger.warning(
                "Webhook not delivered in 24 hours; marked failed",
                metadata: ["event": "\(event.id)", "endpoint": "\(event.endpointID)"])
        }
    }
}
