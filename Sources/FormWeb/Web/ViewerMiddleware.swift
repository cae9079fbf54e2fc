import HTTPTypes
import Hummingbird

/// Resolves the ``Viewer`` of every request into the context, and, for browser pages, remembers
/// an anonymous browser: a response to a request that brought no browser-id cookie sets one, so
/// the CSRF token on the page it carries verifies when the page is sent back. The JSON API's
/// group sets none (`setsBrowserCookie: false`): an API client is no browser (a page's scripts
/// calling the API send the page's cookie).
struct ViewerMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let viewers: ViewerResolver
    let setsBrowserCookie: Bool

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        var context = context
        let viewer =
            context.sessions.session == nil
            ? viewers.visitor(request) : try await viewers.viewer(request, context: context)
        context.resolvedViewer = viewer
        guard setsBrowserCookie, let cookie = viewer.newBrowserCookie else { return try await next(request, context) }
        var response = try await next(request, context)
        response.headers.append(HTTPField(name: .setCookie, value: cookie))
        return response
    }
}
