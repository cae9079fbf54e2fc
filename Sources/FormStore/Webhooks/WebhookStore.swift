import FluentKit
import FormModel
import Foundation
import SQLKit

/// The webhook endpoints of forms and the outbox of their events. Secrets are sealed with the
/// ``SealingKey`` before they reach the database and opened only to sign a delivery. Events are
/// written by ``announce(_:formID:objectID:in:payload:)`` in the transaction of the object's
/// change, so a committed change is never lost and a rolled-back one never announced; a worker
/// claims the due ones (``claimDue(now:lease:limit:)``), sends them and records the outcome.
package struct WebhookStore: Sendable {
    let database: FieldworkDatabase
    let sealing: SealingKey
    /// Which forms' changes some endpoint hears of; ask it before writing an object's change.
    package let audience: WebhookAudience

    package init(database: FieldworkDatabase, sealing: SealingKey) {
        self.database = database
        self.sealing = sealing
        self.audience = WebhookAudience(database: database)
    }

    /// Registers an endpoint for a form, its secret sealed (with the endpoint's id bound in).
    package func register(
        formID: String, url: String, events: [WebhookEventType], secret: String, by account: String?
    ) async throws -> StoredWebhook {
        let id = UUID()
        let record = WebhookEndpointRecord()
        record.id = id
        record.formID = formID
        record.url = url
        record.events = events.map(\.rawValue).joined(separator: ",")
        record.sealedSecret = try sealing.seal(secret, context: id.uuidString)
        record.createdBy = account
        // Recorded as a change of its form: every instance's ``WebhookAudience`` reads the endpoints again.
        try await database.transaction(recording: [.form(formID)]) { db in try await record.create(on: db) }
        return Self.webhook(record, id: id)
    }

    /// A form's endpoints, oldest first.
    package func endpoints(formID: String) async throws -> [StoredWebhook] {
        try await WebhookEndpointRecord.query(on: database.database())
            .filter(\.$formID == formID).sort(\.$createdAt).sort(\.$id).all()
            .compactMap { record in record.id.map { Self.webhook(record, id: $0) } }
    }

    /// Removes an endpoint of a form with its events, delivered or not; false when it is not there.
    @discardableResult
    package func remove(formID: String, id: UUID) async throws -> Bool {
        try await database.transaction(recording: [.form(formID)]) { db in
            guard let record = try await WebhookEndpointRecord.find(id, on: db), record.formID == formID else {
                return false
            }
            try await WebhookEventRecord.query(on: db).filter(\.$endpointID == id).delete()
            try await record.delete(on: db)
            return true
        }
    }

    /// Each endpoint's most recent events, newest first, at most `limit` each.
    package func deliveries(endpointIDs: [UUID], limit: Int) async throws -> [UUID: [WebhookDelivery]] {
        var found: [UUID: [WebhookDelivery]] = [:]
        for id in endpointIDs {
            found[id] = try await WebhookEventRecord.query(on: database.database())
                .filter(\.$endpointID == id).sort(\.$createdAt, .descending).sort(\.$id, .descending)
                .limit(limit).all().compactMap(Self.delivery)
        }
        return found
    }

    /// Writes an event for each endpoint of the form that hears of `type`, in the transaction of
    /// the object's change; nothing when none does (ask ``audience`` first: a change no endpoint
    /// hears of needs neither this read nor a transaction).
    /// - Parameters:
    ///   - objectID: the object as the transaction holds it now (for a delete: before its row goes).
    ///   - payload: the body every delivery of the event sends, made from the object once.
    /// - Returns: how many events were written.
    @discardableResult
    package func announce(
        _ type: WebhookEventType, formID: String, objectID: UUID, in transaction: StoreTransaction,
        payload: @Sendable (StoredObject) throws -> String
    ) async throws -> Int {
        let db = transaction.database
        let endpoints = try await WebhookEndpointRecord.query(on: db).filter(\.$formID == formID).all()
            .filter { $0.events.split(separator: ",").contains(Substring(type.rawValue)) }
        guard !endpoints.isEmpty, let object = try await ObjectRecord.find(objectID, on: db) else { return 0 }
        let body = try payload(try StoredObject(object))
        let now = Date()
        let events = endpoints.compactMap { endpoint -> WebhookEventRecord? in
            guard let endpointID = endpoint.id else { return nil }
            let event = WebhookEventRecord()
            event.id = Self.messageID()
            event.endpointID = endpointID
            event.formID = formID
            event.objectID = objectID
            event.type = type.rawValue
            event.payload = body
            event.status = WebhookDelivery.Status.pending.rawValue
            event.attempts = 0
            event.roundAttempts = 0
            event.pendingSince = now
            event.nextAttemptAt = now
            event.createdAt = now
            return event
        }
        try await events.create(on: db)
        return events.count
    }

    /// Claims up to `limit` events due at `now` for this instance: each one's next attempt moves
    /// to `now + lease`, so no other worker takes it while this one sends it (and any takes it
    /// after the lease, should this instance die mid-send). On PostgreSQL the rows are locked
    /// with `FOR UPDATE SKIP LOCKED`: two instances claiming at once take different events. On
    /// SQLite the claim is a write transaction of the one instance on the file.
    package func claimDue(now: Date, lease: TimeInterval, limit: Int) async throws -> [DueWebhook] {
        // Nearly always none: looked for without taking the write lock (every instance asks
        // every few seconds).
        let any = try await WebhookEventRecord.query(on: database.database())
            .filter(\.$status == WebhookDelivery.Status.pending.rawValue)
            .filter(\.$nextAttemptAt <= now).limit(1).count()
        guard any > 0 else { return [] }
        let usesSQLite = database.usesSQLite
        let claimed: [WebhookEventRecord] = try await database.transaction { db in
            let ids: [String]
            if !usesSQLite, let sql = db as? any SQLDatabase {
                ids = try await sql.raw(
                    """
                    SELECT id FROM webhook_events WHERE status = 'pending' AND next_attempt_at <= \(bind: now) \
                    ORDER BY next_attempt_at LIMIT \(literal: limit) FOR UPDATE SKIP LOCKED
                    """
                ).all().map { try $0.decode(column: "id", as: String.self) }
            } else {
                ids = try await WebhookEventRecord.query(on: db)
                    .filter(\.$status == WebhookDelivery.Status.pending.rawValue)
                    .filter(\.$nextAttemptAt <= now).sort(\.$nextAttemptAt).limit(limit)
                    .field(\.$id).all().compactMap(\.id)
            }
            guard !ids.isEmpty else { return [] }
            try await WebhookEventRecord.query(on: db).filter(\.$id ~~ ids)
                .set(\.$nextAttemptAt, to: now.addingTimeInterval(lease)).update()
            return try await WebhookEventRecord.query(on: db).filter(\.$id ~~ ids).all()
        }
        guard !claimed.isEmpty else { return [] }
        let endpointIDs = Set(claimed.map(\.endpointID))
        let endpoints = try await WebhookEndpointRecord.query(on: database.database())
            .filter(\.$id ~~ endpointIDs).all()
        var byID: [UUID: WebhookEndpointRecord] = [:]
        for endpoint in endpoints { if let id = endpoint.id { byID[id] = endpoint } }
        return try claimed.compactMap { event in
            // An endpoint removed meanwhile took its events with it.
            guard let id = event.id, let endpoint = byID[event.endpointID] else { return nil }
            return DueWebhook(
                id: id, endpointID: event.endpointID, url: endpoint.url,
                secret: try sealing.open(endpoint.sealedSecret, context: event.endpointID.uuidString),
                payload: event.payload, roundAttempts: event.roundAttempts, pendingSince: event.pendingSince)
        }
    }

    /// Records an attempt at an event: delivered, due again at a time, or failed. In a write
    /// transaction, so that on SQLite it queues with this process's other writers rather than
    /// waiting in SQLite's busy handler (see ``FieldworkDatabase/transaction(deadline:_:)``).
    package func record(_ attempt: WebhookAttemptRecord, eventID: String) async throws {
        try await database.transaction { db in
            // Gone: its endpoint was removed meanwhile.
            guard let event = try await WebhookEventRecord.find(eventID, on: db) else { return }
            Self.apply(attempt, to: event)
            try await event.update(on: db)
        }
    }

    private static func apply(_ attempt: WebhookAttemptRecord, to event: WebhookEventRecord) {
        event.attempts += 1
        event.roundAttempts += 1
        event.lastAttemptAt = attempt.at
        event.lastStatus = attempt.status
        event.lastAnswer = attempt.answer
        event.lastLatencyMS = attempt.latencyMS
        switch attempt.next {
        case .delivered:
            event.status = WebhookDelivery.Status.delivered.rawValue
            event.nextAttemptAt = nil
            event.deliveredAt = attempt.at
        case .retry(let at):
            event.nextAttemptAt = at
        case .failed:
            event.status = WebhookDelivery.Status.failed.rawValue
            event.nextAttemptAt = nil
        }
    }

    /// "Send again": the event is due at once, with 24 hours of retries from now; false when the
    /// form has no such endpoint or the endpoint no such event.
    @discardableResult
    package func sendAgain(formID: String, endpointID: UUID, eventID: String, now: Date = Date()) async throws -> Bool {
        try await database.transaction { db in
            guard let endpoint = try await WebhookEndpointRecord.find(endpointID, on: db), endpoint.formID == formID,
                let event = try await WebhookEventRecord.find(eventID, on: db), event.endpointID == endpointID
            else { return false }
            event.status = WebhookDelivery.Status.pending.rawValue
            event.roundAttempts = 0
            event.pendingSince = now
            event.nextAttemptAt = now
            event.deliveredAt = nil
            try await event.update(on: db)
            return true
        }
    }

    /// `msg_` and 32 random hex digits.
    static func messageID() -> String {
        var generator = SystemRandomNumberGenerator()
        return "msg_" + Hex.encode((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    private static func webhook(_ record: WebhookEndpointRecord, id: UUID) -> StoredWebhook {
        StoredWebhook(
            id: id, formID: record.formID, url: record.url,
            events: record.events.split(separator: ",").compactMap { WebhookEventType(rawValue: String($0)) },
            createdAt: record.createdAt, createdBy: record.createdBy)
    }

    private static func delivery(_ record: WebhookEventRecord) -> WebhookDelivery? {
        guard let id = record.id, let type = WebhookEventType(rawValue: record.type),
            let status = WebhookDelivery.Status(rawValue: record.status)
        else { return nil }
        return WebhookDelivery(
            id: id, endpointID: record.endpointID, objectID: record.objectID, type: type, status: status,
            attempts: record.attempts, nextAttemptAt: record.nextAttemptAt, lastAttemptAt: record.lastAttemptAt,
            lastStatus: record.lastStatus, lastAnswer: record.lastAnswer, lastLatencyMS: record.lastLatencyMS,
            createdAt: record.createdAt, deliveredAt: record.deliveredAt)
    }
}
