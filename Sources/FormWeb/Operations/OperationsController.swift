import FormStore
import HTTPTypes
import Hummingbird
import NIOCore

/// The routes for whoever runs the server: `GET /health` (the process answers), `GET /ready`
/// (the database answers too) and `GET /metrics` (Prometheus text, behind the admin token).
struct OperationsController {
    let readiness: Readiness

    /// `/health` and `/ready`, on the router before the session middleware: they never read a
    /// session or set a cookie, whatever the caller sends.
    func addProbes(to router: Router<AppRequestContext>) {
        router.get("/health", use: health)
        router.get("/ready", use: ready)
    }

    /// `/metrics`, on a group behind ``AdminOnlyMiddleware``: the admin token, or an admin's
    /// session.
    func addMetrics(to gated: RouterGroup<AppRequestContext>) {
        gated.get("/metrics", use: metrics)
    }

    /// `GET /health`: 200 `ok` while the process serves requests. No database.
    @Sendable func health(_ request: Request, context: AppRequestContext) async throws -> Response {
        Self.text("ok\n", status: .ok)
    }

    /// `GET /ready`: 200 when the database answers `SELECT 1` within the readiness timeout, else
    /// 503 (by the timeout, not after the database's own).
    @Sendable func ready(_ request: Request, context: AppRequestContext) async throws -> Response {
        if await readiness.check() { return Self.text("ready\n", status: .ok) }
        context.logger.warning("Not ready: the database did not answer", metadata: ["timeout": "\(readiness.timeout)"])
        return Self.text("not ready: the database does not answer\n", status: .serviceUnavailable)
    }

    /// `GET /metrics`: every metric of ``FieldworkMetrics/registry`` in Prometheus's text format.
    @Sendable func metrics(_ request: Request, context: AppRequestContext) async throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(
            status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: FieldworkMetrics.exposition())))
    }

    static func text(_ text: String, status: HTTPResponse.Status) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
