import Hummingbird

/// The global middleware, in their order, as one middleware of Hummingbird's chain: the request
/// id (outermost, so every line logged carries it), the security headers, the error pages (404,
/// 410, refusals, a database outage), the metrics (inside the error pages, so that they see what
/// was thrown: an unknown address counts as route "NotFound" with its 404, which once a page
/// would be "Unknown"; the public files count as route "PublicFiles"). Called here on their concrete types, the four are compiled for Fieldwork's
/// context and cost one link of Hummingbird's chain; added one by one, each was a link of its
/// own and ran as generic code, looking up its types at run time on every request.
struct GlobalMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let requestID = RequestIDMiddleware<Context>()
    let securityHeaders: SecurityHeadersMiddleware<Context>
    let errorPages: ErrorPageMiddleware<Context>
    let metrics = RequestMetricsMiddleware<Context>()

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        try await requestID.handle(request, context: context) { request, context in
            try await securityHeaders.handle(request, context: context) { request, context in
                try await errorPages.handle(request, context: context) { request, context in
                    try await metrics.handle(request, context: context, next: next)
                }
            }
        }
    }
}

/// The middleware of every browser page, in their order, as one link of Hummingbird's chain:
/// the origin check (a state-changing request from another site is refused first), the session
/// its cookie names, the viewer (``ViewerMiddleware``), compiled for Fieldwork's context as
/// ``GlobalMiddleware`` is.
struct BrowserMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let origins: OriginCheckMiddleware<Context>
    let sessions: SessionCookieMiddleware
    let viewer: ViewerMiddleware

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        try await origins.handle(request, context: context) { request, context in
            try await sessions.handle(request, context: context) { request, context in
                try await viewer.handle(request, context: context, next: next)
            }
        }
    }
}

/// A form's pages: the browser's middleware, then the form's access (``FormAccessMiddleware``),
/// as one link.
struct FormPageMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let browser: BrowserMiddleware
    let access: FormAccessMiddleware

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        try await browser.handle(request, context: context) { request, context in
            try await access.handle(request, context: context, next: next)
        }
    }
}
