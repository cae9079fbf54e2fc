import Hummingbird
import NIOCore

/// Answers unknown addresses with a real HTML 404 page, retired forms with a 410 page, and
/// other refusals, refused uploads (``UploadError``) among them, with a page that says why.
/// Under `/api` every error is JSON (``APIErrorMiddleware``), also for an address the router
/// knows for another method only, which never reaches the `/api` group's own middleware.
struct ErrorPageMiddleware<Context: RequestContext>: RouterMiddleware {
    let notFound: RenderPlan
    let gone: RenderPlan
    /// Renders other refusals (403, 400, 409, 413, ...) as a page for browsers; rare, so per request.
    let renderer: PageRenderer

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        if request.isForAPI { return try await APIErrorMiddleware().handle(request, context: context, next: next) }
        do {
            return try await next(request, context)
        } catch let error as UploadError {
            let page = PageViewModel.Refusal(heading: error.heading, message: error.message, backToForm: true)
            return HTMLResponse.page(
                ByteBuffer(string: try renderer.render(page, template: "error")), status: error.status,
                cacheControl: "no-store")
        } catch let error as HTTPError where error.status == .notFound {
            return HTMLResponse.page(notFound.render(RenderState(values: [:], csrfToken: "")), status: .notFound)
        } catch let error as HTTPError where error.status == .gone {
            return HTMLResponse.page(gone.render(RenderState(values: [:], csrfToken: "")), status: .gone)
        } catch let error as HTTPError where (400..<500).contains(error.status.code) {
            let heading =
                switch error.status {
                case .forbidden: "You cannot do that"
                case .contentTooLarge: "That is too large"
                case .unsupportedMediaType, .badRequest: "That request could not be read"
                default: error.status.reasonPhrase
                }
            let context = PageViewModel.Refusal(heading: heading, message: error.body ?? "Go back and try again.")
            var response = HTMLResponse.page(
                ByteBuffer(string: try renderer.render(context, template: "error")), status: error.status)
            response.headers.append(contentsOf: error.headers)
            return response
        }
    }
}
