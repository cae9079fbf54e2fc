import Dispatch
import Hummingbird
import Metrics
import Synchronization

/// Requests by route, method and status, their latency, the errors thrown and the requests in
/// flight: the series of Hummingbird's `MetricsMiddleware`, under the same names and labels
/// (``FieldworkMetrics`` renames them for Prometheus), counted when the response is ready.
///
/// Hummingbird's counts once the body is written, by wrapping the body in a closure: a body that
/// is one buffer then goes out as its own write, after the head, and every page cost two system
/// calls and two TCP pushes instead of one. Fieldwork's bodies are in memory (pages, JSON, the
/// public files), or files read from disk as they are sent (attachments), whose latency here is
/// the time to their first byte.
package struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    package init() {}

    private let series = Series()

    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        let start = DispatchTime.now().uptimeNanoseconds
        let active = series.active(request.method)
        active.increment()
        defer { active.decrement() }
        do {
            let response = try await next(request, context)
            let handles = series.handles(
                Series.Key(route: context.endpointPath ?? "Unknown", method: request.method, status: response.status))
            handles.requests.increment()
            handles.duration.recordNanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - start))
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            let handles = series.handles(
                Series.Key(route: context.endpointPath ?? "NotFound", method: request.method, status: status))
            handles.requests.increment()
            handles.errors.increment()
            throw error
        }
    }

    /// The counters and timers made so far, by route, method and status: made once each.
    private final class Series: Sendable {
        struct Key: Hashable, Sendable {
            let route: String
            let method: HTTPRequest.Method
            let status: HTTPResponse.Status
        }

        struct Handles: Sendable {
            let requests: Counter
            let errors: Counter
            let duration: Timer
        }

        private let byKey = Mutex<[Key: Handles]>([:])
        private let byMethod = Mutex<[HTTPRequest.Method: Meter]>([:])

        func handles(_ key: Key) -> Handles {
            if let handles = byKey.withLock({ $0[key] }) { return handles }
            let route = ("http.route", key.route)
            let method = ("http.request.method", key.method.rawValue)
            let status = String(key.status.code)
            let handles = Handles(
                requests: Counter(
                    label: "hb.requests", dimensions: [route, method, ("http.response.status_code", status)]),
                errors: Counter(label: "hb.request.errors", dimensions: [route, method, ("error.type", status)]),
                duration: Timer(
                    label: "http.server.request.duration",
                    dimensions: [route, method, ("http.response.status_code", status)], preferredDisplayUnit: .seconds))
            byKey.withLock { $0[key] = handles }
            return handles
        }

        func active(_ method: HTTPRequest.Method) -> Meter {
            if let meter = byMethod.withLock({ $0[method] }) { return meter }
            let meter = Meter(
                label: "http.server.active_requests", dimensions: [("http.request.method", method.rawValue)])
            byMethod.withLock { $0[method] = meter }
            return meter
        }
    }
}
