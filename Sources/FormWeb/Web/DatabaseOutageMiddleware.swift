import AsyncKit
import Hummingbird
import NIOCore
import NIOPosix
import PostgresNIO

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
        } catch let error where Self.isOutage(error) {
            context.logger.warning("The database is unavailable", metadata: ["error": "\(error)"])
            var response: Response
            if request.uri.path.hasPrefix("/api/") || request.uri.path == "/api" {
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

    /// Whether an error says the database could not be reached, rather than that a query failed.
    static func isOutage(_ error: any Error) -> Bool {
        switch error {
        case is ConnectionPoolTimeoutError, is ConnectionPoolError, is NIOConnectionError, is ChannelError:
            return true
        case let error as PSQLError:
            if [.connectionError, .serverClosedConnection, .uncleanShutdown, .clientClosedConnection].contains(
                error.code)
            {
                return true
            }
            // The server answered, but cannot serve: shutting down, starting up or restarting
            // (class 57P, "operator intervention"), or the connection failed (class 08).
            guard error.code == .server, let state = error.serverInfo?[.sqlState] else { return false }
            return state.hasPrefix("57P") || state.hasPrefix("08")
        case let error as IOError:
            return [ECONNREFUSED, ECONNRESET, EPIPE, ETIMEDOUT, EHOSTUNREACH].contains(error.errnoCode)
        default:
            return false
        }
    }
}
