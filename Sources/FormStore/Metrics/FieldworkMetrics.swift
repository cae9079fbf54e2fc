import Metrics
import Prometheus

/// Fieldwork's own counters and the Prometheus registry behind `/metrics`.
///
/// Call sites use the typed functions (``objectCreated()``, ``cacheHit(_:)``…), never metric
/// names: the names, labels and help texts live here only. The counters are made on this
/// registry directly, so they count from the first call whether or not a server has started;
/// the web layer's request metrics (requests by route and status, the latency histogram) reach
/// the same registry through swift-metrics once ``bootstrap()`` ran.
package enum FieldworkMetrics {
    /// Every metric the process records; `/metrics` prints it.
    package static let registry = PrometheusCollectorRegistry()

    /// The in-memory caches whose hits and misses are counted (`cache` label).
    package enum Cache: String, Sendable, CaseIterable {
        /// A form's head (its latest version, access and state), or the list of every form.
        case forms
        /// A form version's prepared create and edit views.
        case plans
        /// A signed-in session.
        case sessions
        /// A signed-in session's account.
        case accounts
    }

    /// What a submission was for (`action` label of refusals).
    package enum Action: String, Sendable, CaseIterable {
        case create
        case update
    }

    /// Where an import came from (`via` label).
    package enum ImportChannel: String, Sendable, CaseIterable {
        /// `POST /admin/import`, the admin page.
        case admin
        /// `POST /api/forms`, the admin JSON API.
        case api
        /// `fieldwork import`, and the demo form seeded on first start: counted in a process
        /// whose `/metrics` nobody reads, or once at start.
        case commandLine = "command-line"
    }

    /// A stored object, from the browser or the JSON API.
    package static func objectCreated() { created.increment() }

    /// A changed object.
    package static func objectUpdated() { updated.increment() }

    /// A submission refused by validation: nothing stored, the form shown again or 422 JSON.
    package static func submissionRefused(_ action: Action) { refused[action]?.increment() }

    /// An import batch stored (every form in it).
    package static func importStored(via channel: ImportChannel) { imports[channel]?.stored.increment() }

    /// An import batch refused (nothing stored).
    package static func importRefused(via channel: ImportChannel) { imports[channel]?.refused.increment() }

    /// A lookup the named cache answered without the database.
    package static func cacheHit(_ cache: Cache) { cacheHits[cache]?.increment() }

    /// A lookup the named cache had to pass to the database.
    package static func cacheMiss(_ cache: Cache) { cacheMisses[cache]?.increment() }

    /// Points swift-metrics (the request metrics, and any library using it) at
    /// ``registry``, once per process: later calls do nothing, so every app a test builds
    /// shares the one registry.
    package static func bootstrap() { _ = bootstrapped }

    /// The registry as Prometheus text (exposition format 0.0.4).
    package static func exposition() -> [UInt8] { registry.emitToBuffer() }

    private static let bootstrapped: Void = {
        var factory = PrometheusMetricsFactory(registry: registry)
        // Pages take well under a millisecond; the library's default buckets start at 5 ms.
        factory.defaultDurationHistogramBuckets = [
            .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5),
            .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
            .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
        ]
        factory.nameAndLabelSanitizer = { name, labels in
            (renamed[name] ?? name, labels.map { (renamedLabels[$0.0] ?? $0.0, $0.1) })
        }
        MetricsSystem.bootstrap(factory)
        // Every series of ours from the start, at 0, rather than from its first event.
        _ = (created, updated, refused, imports, cacheHits, cacheMisses)
    }()

    /// Hummingbird's swift-metrics names, in Prometheus's own conventions.
    static let renamed = [
        "hb.requests": "http_requests_total",
        "hb.request.errors": "http_request_errors_total",
        "http.server.request.duration": "http_request_duration_seconds",
        "http.server.active_requests": "http_active_requests",
    ]

    /// The `route` of every answer from the public files (stylesheets, scripts, images), where a
    /// route's answers have its pattern: never the path, so the label's values stay few.
    package static let publicFilesRoute = "PublicFiles"

    static let renamedLabels = [
        "http.route": "route",
        "http.request.method": "method",
        "http.response.status_code": "status",
        "error.type": "status",
    ]

    private static let created = counter("fieldwork_objects_created", help: "Objects stored by a create.")
    private static let updated = counter("fieldwork_objects_updated", help: "Objects changed by an edit.")
    private static let refused = counters(
        "fieldwork_submissions_refused", by: "action", of: Action.self,
        help: "Submissions refused by validation; nothing was stored.")
    private static let imports = Dictionary(
        uniqueKeysWithValues: ImportChannel.allCases.map { channel in
            let byOutcome = { (outcome: String) in
                counter(
                    "fieldwork_imports", labels: [("via", channel.rawValue), ("outcome", outcome)],
                    help: "Import batches, stored whole or refused whole.")
            }
            return (channel, (stored: byOutcome("stored"), refused: byOutcome("refused")))
        })
    private static let cacheHits = counters(
        "fieldwork_cache_hits", by: "cache", of: Cache.self, help: "Lookups an in-memory cache answered.")
    private static let cacheMisses = counters(
        "fieldwork_cache_misses", by: "cache", of: Cache.self,
        help: "Lookups an in-memory cache passed to the database.")

    /// A counter `NAME_total`.
    private static func counter(_ name: String, labels: [(String, String)] = [], help: String) -> Prometheus.Counter {
        registry.makeCounter(
            descriptor: MetricNameDescriptor(metricName: name, unitName: "total", helpText: help), labels: labels)
    }

    /// One counter per value of a label, each `NAME_total`.
    private static func counters<Label: CaseIterable & RawRepresentable & Hashable>(
        _ name: String, by label: String, of _: Label.Type, help: String
    ) -> [Label: Prometheus.Counter] where Label.RawValue == String {
        Dictionary(
            uniqueKeysWithValues: Label.allCases.map {
                ($0, counter(name, labels: [(label, $0.rawValue)], help: help))
            })
    }
}
