import FormService
import FormStore
import Foundation

/// Webhooks, for the admin API (``WebhooksAPIController``), the admin page and the object
/// writes: registering an endpoint (URL and events checked, a secret made and shown once),
/// listing endpoints with their recent deliveries, removing one, sending a delivery again, and
/// the work that writes a change's events in the change's own transaction (``announcing(_:formID:)``).
/// The ``WebhookDeliveryService`` sends them; ``committed()`` wakes it.
struct Webhooks: Sendable {
    let store: WebhookStore
    let wakeup: WebhookWakeup

    /// Recent deliveries listed per endpoint.
    static let recentDeliveries = 20

    /// What became of a registration.
    enum Registered: Sendable {
        /// Stored: the endpoint and its secret, which is never shown again.
        case registered(StoredWebhook, secret: String)
        /// Refused, nothing stored: a message for each field at fault (`url`, `events`).
        case invalid([(field: String, message: String)])
    }

    /// Registers an endpoint for a form after checking its URL and events.
    func register(formID: String, url: String, events: [String], by account: String?) async throws -> Registered {
        let url = url.trimmingCharacters(in: .whitespaces)
        var problems: [(field: String, message: String)] = []
        if let message = Self.problem(url: url) { problems.append(("url", message)) }
        let chosen = Self.events(events)
        if let message = chosen.problem { problems.append(("events", message)) }
        guard problems.isEmpty else { return .invalid(problems) }
        let secret = WebhookSignature.newSecret()
        let webhook = try await store.register(
            formID: formID, url: url, events: chosen.events, secret: secret, by: account)
        return .registered(webhook, secret: secret)
    }

    /// What is wrong with an endpoint's URL, or nil. Any `http` or `https` URL will do, loopback
    /// and private addresses included (company receivers live there); credentials in it would be
    /// shown wherever the URL is, and the signature is what authenticates a delivery.
    static func problem(url: String) -> String? {
        guard !url.isEmpty else {
            return "Enter the URL that receives the events, such as https://example.com/hooks/fieldwork."
        }
        guard url.utf8.count <= 2000 else { return "Enter a URL of at most 2,000 characters." }
        guard let parsed = URLComponents(string: url), let scheme = parsed.scheme?.lowercased(),
            ["http", "https"].contains(scheme)
        else { return "Enter an http or https URL, such as https://example.com/hooks/fieldwork." }
        guard let host = parsed.host, !host.isEmpty else {
            return "Enter a URL with a host name, such as https://example.com/hooks/fieldwork."
        }
        guard parsed.user == nil, parsed.password == nil else {
            return
                "Leave the user name and password out of the URL: the signature of each delivery proves it came from Fieldwork."
        }
        guard parsed.fragment == nil else { return "Leave the #fragment out of the URL: it is never sent." }
        return nil
    }

    /// The events named, in their usual order, or what is wrong with them.
    static func events(_ names: [String]) -> (events: [WebhookEventType], problem: String?) {
        let unknown = names.filter { WebhookEventType(rawValue: $0) == nil }
        if let name = unknown.first {
            return ([], "Use created, updated and deleted as events; “\(name)” is not one.")
        }
        let events = WebhookEventType.allCases.filter { names.contains($0.rawValue) }
        guard !events.isEmpty else { return ([], "Choose at least one event: created, updated or deleted.") }
        return (events, nil)
    }

    /// A form's endpoints with each one's recent deliveries, newest first.
    func endpoints(formID: String) async throws -> [(webhook: StoredWebhook, deliveries: [WebhookDelivery])] {
        let webhooks = try await store.endpoints(formID: formID)
        let deliveries = try await store.deliveries(endpointIDs: webhooks.map(\.id), limit: Self.recentDeliveries)
        return webhooks.map { ($0, deliveries[$0.id] ?? []) }
    }

    /// Removes an endpoint of the form; false when it has none with this id.
    func remove(formID: String, id: UUID) async throws -> Bool {
        try await store.remove(formID: formID, id: id)
    }

    /// Sends an event again at once (an admin's "send again"); false when there is no such event.
    func sendAgain(formID: String, endpointID: UUID, eventID: String) async throws -> Bool {
        guard try await store.sendAgain(formID: formID, endpointID: endpointID, eventID: eventID) else { return false }
        wakeup.signal()
        return true
    }

    /// The work that writes a change's events in the change's transaction: for every endpoint of
    /// the form that hears of `type`, the object as the transaction holds it, as the API shows it;
    /// nil when no endpoint does (``WebhookAudience``), so the change needs no transaction for
    /// them. Call ``committed()`` once a change with this work committed.
    func announcing(_ type: WebhookEventType, formID: String) async throws -> AlongsideWork? {
        guard try await store.audience.hears(type, formID: formID) else { return nil }
        let store = store
        return { transaction, objectID in
            try await store.announce(type, formID: formID, objectID: objectID, in: transaction) { object in
                try Self.payload(type, object: object)
            }
        }
    }

    /// Wakes the delivery worker: a change with events committed.
    func committed() {
        wakeup.signal()
    }

    /// The body of a delivery: `{"type": "object.created", "timestamp": …, "data": <object JSON>}`,
    /// the envelope the Standard Webhooks specification suggests, with the object as the JSON
    /// API shows it.
    static func payload(_ type: WebhookEventType, object: StoredObject, at: Date = Date()) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(
            decoding: try encoder.encode(Payload(type: type.name, timestamp: at, data: ObjectJSON(object))),
            as: UTF8.self)
    }

    struct Payload: Encodable {
        var type: String
        var timestamp: Date
        var data: ObjectJSON
    }
}

extension Optional where Wrapped == Webhooks {
    /// The announcing work of an optional ``Webhooks``; nil without webhooks, or when no endpoint
    /// of the form hears of `type`.
    func announcing(_ type: WebhookEventType, formID: String) async throws -> AlongsideWork? {
        try await self?.announcing(type, formID: formID)
    }

    /// Wakes the worker after a change whose events (`announce`) committed; nothing when there
    /// were none to write.
    func committed(_ announce: AlongsideWork?) {
        if announce != nil { self?.committed() }
    }
}

/// Work that runs `first`, then `then`, in one transaction; nil when there is neither.
func joined(_ first: AlongsideWork?, _ then: AlongsideWork?) -> AlongsideWork? {
    guard let first else { return then }
    guard let then else { return first }
    return { transaction, id in
        try await first(transaction, id)
        try await then(transaction, id)
    }
}
