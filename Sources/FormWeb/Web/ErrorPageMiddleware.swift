import FormPages
import FormStore
import Hummingbird
import NIOCore

/// What a browser sees when a request goes wrong, for every route outside `/api` (whose group
/// answers its own errors as JSON, ``APIErrorMiddleware``): an unknown address or form a real
/// HTML 404 page, a retired form a 410 page, other refusals (refused uploads among them) a page
/// that says why, and a database that cannot be reached a 503 page with `Retry-After`.
///
/// The outage: PostgreSQL stopped or unreachable, no connection free within the pool's few
/// seconds (``DatabaseOutage``). Nothing was stored: every write commits before it is
/// acknowledged, so a client may send the same request again (a create view's one-time token
/// makes that safe). The instance recovers by itself once the database answers again; a page
/// read that met a connection PostgreSQL dropped as it restarted is read once more on a fresh one
/// (``DatabaseOutage/isDroppedConnection(_:)``), a write never. Any other
/// unexpected error is logged at error level, where it shows (Hummingbird logs it at debug).
package struct ErrorPageMiddleware<Context: RequestContext>: RouterMiddleware {
    let notFound: RenderPlan
    let gone: RenderPlan
    let unavailable: RenderPlan
    /// Renders other refusals (403, 400, 409, 413, ...) as a page; rare, so per request.
    let renderer: PageRenderer

    package init(notFound: RenderPlan, gone: RenderPlan, unavailable: RenderPlan, renderer: PageRenderer) {
        self.notFound = notFound
        self.gone = gone
        self.unavailable = unavailable
        self.renderer = renderer
    }

    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        do {
            // A page read on a connection PostgreSQL dropped as it restarted is read again.
            guard request.method == .get || request.method == .head else { return try await next(request, context) }
            return try await DatabaseOutage.retryingDropped { try await next(request, context) }
        } catch {
            guard let refusal = Refusal.of(error), refusal.shownAsPage else {
                // Hummingbird's own answer for an error that says its own; any other is a bug.
                if !(error is any HTTPResponseError) { Self.logUnexpected(error, request: request, context: context) }
                throw error
            }
            if refusal.kind == .unavailable {
                context.logger.warning("The database is unavailable", metadata: ["error": "\(error)"])
            }
            return try page(refusal)
        }
    }

    /// A refusal as a page: the 404, 410 and 503 pages from their plans, any other rendered.
    private func page(_ refusal: Refusal) throws -> Response {
        var response: Response
        switch refusal.kind {
        case .notFound:
            response = page(notFound, status: refusal.status)
        case .gone:
            response = page(gone, status: refusal.status)
        case .unavailable:
            response = page(unavailable, status: refusal.status, cacheControl: "no-store")
        case .other:
            let view = PageViewModel.Refusal(
                heading: refusal.heading, message: refusal.pageMessage, backToForm: refusal.backToForm)
            response = try refusalPage(
                view, status: refusal.status, cacheControl: refusal.backToForm ? "no-store" : "no-cache")
        }
        response.headers.append(contentsOf: refusal.headers)
        return response
    }

    private func page(_ plan: RenderPlan, status: HTTPResponse.Status, cacheControl: String = "no-cache") -> Response {
        HTMLResponse.page(
            plan.render(RenderState(values: [:], csrfToken: "")), status: status, cacheControl: cacheControl)
    }

    private func refusalPage(
        _ refusal: PageViewModel.Refusal, status: HTTPResponse.Status, cacheControl: String = "no-cache"
    ) throws -> Response {
        HTMLResponse.page(
            ByteBuffer(string: try renderer.render(refusal, template: "error")), status: status,
            cacheControl: cacheControl)
    }

    /// Hummingbird logs an unexpected error at debug level only: say it where it shows.
    static func logUnexpected(_ error: any Error, request: Request, context: Context) {
        context.logger.error(
            "Request failed",
            metadata: [
                "error": "\(String(reflecting: error))", "method": "\(request.method)", "path": "\(request.uri.path)",
            ])
    }
}
