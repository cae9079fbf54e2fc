import FluentKit
import Foundation
import Synchronization

/// Which forms have webhook endpoints, and for which events. Every change of an object asks it
/// first, so that a change no endpoint hears of writes no event, needs no transaction around its
/// row and wakes no delivery worker: the usual case, a form without endpoints, costs nothing more
/// than its own statement.
///
/// Read from the endpoints in one query when first asked, and kept until an endpoint is
/// registered or removed: at once on this instance (the change is recorded as a change of its
/// form, ``CacheChange/form(_:)``), and on every other through the change feed, within about half
/// a second. A create on another instance in that half second is not announced to an endpoint
/// just registered, as the README says; an endpoint's events start from then.
package final class WebhookAudience: Sendable {
    private struct State {
        /// Form id → the events some endpoint of it hears of; nil until read, and after a change.
        var known: [String: Set<String>]?
        /// Counts the changes, so that a read that began before one is not kept after it.
        var generation = 0
    }

    private let state = Mutex(State())
    private let database: FieldworkDatabase

    init(database: FieldworkDatabase) {
        self.database = database
        database.feed.subscribe { [weak self] change in
            guard case .form = change else { return }
            self?.forget()
        }
    }

    /// Forgets what was read: an endpoint (of some form) was registered or removed.
    func forget() {
        state.withLock { state in
            state.known = nil
            state.generation += 1
        }
    }

    /// Whether some endpoint of the form hears of `type`.
    package func hears(_ type: WebhookEventType, formID: String) async throws -> Bool {
        try await audience()[formID]?.contains(type.rawValue) ?? false
    }

    private func audience() async throws -> [String: Set<String>] {
        let (known, generation) = state.withLock { ($0.known, $0.generation) }
        if let known { return known }
        var read: [String: Set<String>] = [:]
        // Asked before a create's own transaction, so bounded as that is: a PostgreSQL that does
        // not answer (an outage, a pool stuck after its restart) gives 503 in time, never a hang.
        let db = database.database()
        let endpoints = try await DatabaseOutage.withDeadline(database.deadlines.transaction) {
            try await WebhookEndpointRecord.query(on: db).field(\.$formID).field(\.$events).all()
        }
        for endpoint in endpoints {
            read[endpoint.formID, default: []].formUnion(endpoint.events.split(separator: ",").map(String.init))
        }
        state.withLock { state in
            if state.generation == generation { state.known = read }
        }
        return read
    }
}
