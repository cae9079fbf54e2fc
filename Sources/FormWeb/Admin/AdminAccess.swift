import Foundation
import Hummingbird

/// The gate of the `/admin` route group: an admin's session. Someone not signed in is sent to
/// sign in (GET) or refused (POST); a signed-in account that is not an admin gets 403.
struct AdminGateMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        let viewer = try context.viewer
        if viewer.isAdmin { return try await next(request, context) }
        if viewer.account == nil && request.method == .get {
            throw SignInRequired(path: request.uri.path)
        }
        throw HTTPError(.forbidden, message: "Only administrators may use the admin page.")
    }
}

/// Who makes an admin API call.
struct APICaller: Sendable {
    /// The name to record as the importer.
    var name: String
    /// Whether it presented the admin token, rather than an admin's session cookie.
    var byToken: Bool
}

/// The gate of the admin's JSON routes: `Authorization: Bearer $FIELDWORK_ADMIN_TOKEN` (compared
/// in constant time) or an admin's session; 401 as JSON for anyone else. Puts the ``APICaller``
/// into the context.
struct AdminAPIGateMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let adminToken: String?

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        guard let caller = try caller(request, viewer: context.viewer) else {
            var response = try JSONResponse.make(
                ["error": "Send Authorization: Bearer with the admin token, or sign in as an admin."],
                status: .unauthorized)
            response.headers[.wwwAuthenticate] = "Bearer"
            return response
        }
        var context = context
        context.apiCaller = caller
        return try await next(request, context)
    }

    private func caller(_ request: Request, viewer: Viewer) -> APICaller? {
        if let presented = Self.presentsAdminToken(request, adminToken: adminToken) {
            return presented ? APICaller(name: "api token", byToken: true) : nil
        }
        guard viewer.isAdmin, let name = viewer.account?.name else { return nil }
        return APICaller(name: name, byToken: false)
    }

    /// Whether the request's `Authorization: Bearer` is the admin token (compared in constant
    /// time); nil when it sends none.
    static func presentsAdminToken(_ request: Request, adminToken: String?) -> Bool? {
        guard let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") else {
            return nil
        }
        let presented = String(header.dropFirst("bearer ".count)).trimmingCharacters(in: .whitespaces)
        guard let adminToken else { return false }
        return CSRF.constantTimeEqual(presented, adminToken)
    }
}

extension AppRequestContext {
    /// The admin API's caller, set by ``AdminAPIGateMiddleware``.
    var requireAPICaller: APICaller {
        get throws {
            guard let apiCaller else { throw HTTPError(.internalServerError) }
            return apiCaller
        }
    }
}

/// Answers with a 303 to the sign-in page that comes back here.
struct SignInRequired: HTTPResponseError {
    var path: String
    var status: HTTPResponse.Status { .seeOther }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        Response.seeOther("/login?next=\(LocalPath.percentEncoded(path))")
    }
}
