import Hummingbird
import HummingbirdAuth

/// HummingbirdAuth's `SessionMiddleware`, shown only the session's own cookie.
///
/// It finds the session cookie through Hummingbird's `request.cookies`, which parses every cookie
/// of the request character by character (``CookieHeader``): a returning visitor's browser-id
/// cookie cost some 50 K instructions a page only to find no session. This finds the session
/// cookie in the bytes and hands the session middleware a request whose `Cookie` field holds that
/// one cookie, or none; the routes after it get the request as it came.
struct SessionCookieMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let sessions: SessionMiddleware<Context>
    let cookieName: String

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        let fields = request.headers[values: .cookie]
        // A first visit brings no cookie: nothing to hide.
        if fields.isEmpty { return try await sessions.handle(request, context: context, next: next) }
        var head = request.head
        head.headerFields[values: .cookie] =
            CookieHeader.value(of: cookieName, in: fields).map { ["\(cookieName)=\($0)"] } ?? []
        // The session middleware reads only the head; the body goes on, unread, with the request.
        let shown = Request(head: head, body: request.body)
        return try await sessions.handle(shown, context: context) { _, context in try await next(request, context) }
    }
}
