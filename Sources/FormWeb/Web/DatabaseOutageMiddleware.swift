import Hummingbird
import NIOCore

/// Answers a request the database cannot serve right now (PostgreSQL stopped or unreachable, no
/// connection free within the pool's few seconds) with 503 and `Retry-After`, quickly, instead
/// of a bare 500: a page for browsers, JSON under `/api`. Nothing was stored: every write
/// commits before it is acknowledged, so a client may send the same request again (a create
/// view's one-time token makes that safe). The instance recovers by itself once the database
/// answers again; its pool reconnects.
struct DatabaseOutageMiddleware<Context: RequestContext>: RouterMiddleware {
    let page: RenderPlan

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let error where DatabaseOutage.isOutage(error) {
            context.logger.warning("The database is unavailable", metadata: ["error": "\(error)"])
            var response: Response
            if request.isForAPI {
                response = JSONResponse.response(
                    ByteBuffer(string: #"{"error":"the database is unavailable; try again in a few seconds"}"#),
                    status: .serviceUnavailable)
            } else {
                response = HTMLResponse.page(
                    page.render(RenderState(values: [:], csrfToken: "")), status: .serviceUnavailable,
                    cacheControl: "no-store")
            }
            response.headers[.retryAfter] = "5"
            return response
        } catch let error where !(error is any HTTPResponseError) {
            // Hummingbird logs an unexpected error at debug level only: say it where it shows.
            context.logger.error(
                "Request failed",
                metadata: [
                    "error": "\(String(reflecting: error))", "method": "\(request.method)",
                    "path": "\(request.uri.path)",
                ])
            throw error
        }
    }
}
