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
/// makes that safe). The instance recovers by itself once the database answers again. Any other
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
            return try await next(request, context)
        } catch FormLookupError.unknown {
            return page(notFound, status: .notFound)
        } catch FormLookupError.retired {
            return page(gone, status: .gone)
        } catch let error as HTTPError where error.status == .notFound {
            return page(notFound, status: .notFound)
        } catch let error as HTTPError where error.status == .gone {
            return page(gone, status: .gone)
        } catch let error as UploadError {
            let refusal = PageViewModel.Refusal(heading: error.heading, message: error.message, backToForm: true)
            return try refusalPage(refusal, status: error.status, cacheControl: "no-store")
        } catch let error as HTTPError
            where (400..<500).contains(error.status.code)
            || ((error.status == .serviceUnavailable || error.status == .badGateway) && error.body != nil)
        {
            let heading =
                switch error.status {
                case .serviceUnavailable, .badGateway: "The service did not answer"
                case .forbidden: "You cannot do that"
                case .contentTooLarge: "That is too large"
                case .unsupportedMediaType, .badRequest: "That request could not be read"
                default: error.status.reasonPhrase
                }
            let refusal = PageViewModel.Refusal(heading: heading, message: error.body ?? "Go back and try again.")
            var response = try refusalPage(refusal, status: error.status)
            response.headers.append(contentsOf: error.headers)
            return response
        } catch let error where DatabaseOutage.isOutage(error) {
            context.logger.warning("The database is unavailable", metadata: ["error": "\(error)"])
            var response = page(unavailable, status: .serviceUnavailable, cacheControl: "no-store")
            response.headers[.retryAfter] = "5"
            return response
        } catch let error where !(error is any HTTPResponseError) {
            Self.logUnexpected(error, request: request, context: context)
            throw error
        }
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
