import FormModel
import FormStore
import Foundation
import Hummingbird

/// How a route group answers a request it refuses: browser pages send people to sign in or
/// show a page; the JSON API answers JSON.
enum Audience: Sendable {
    case browser
    case api
}

/// The gate of a form's routes (`/forms/{id}/…`, `/api/forms/{id}/…`): the form must exist
/// (404), be offered when the group creates objects (`activeOnly`: 410 when retired), and a form
/// for `users` needs a signed-in viewer: a browser is sent to sign in and come back, the API
/// answers 401. The form goes into the context (``AppRequestContext/form``), read once.
struct FormAccessMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let heads: any FormHeads
    /// Whether the routes behind it need a form that takes new objects.
    let activeOnly: Bool
    let audience: Audience

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        let id = try context.parameters.require("id")
        // From memory without an `await` in the steady state: every page of a form passes here.
        var form: StoredForm
        if let cached = heads.cachedLatest(formID: id) { form = cached } else { form = try await heads.require(id) }
        if activeOnly { form = try form.requireActive() }
        if form.access == .users, try !context.viewer.isSignedIn {
            switch audience {
            case .browser: return Response.signIn(returningTo: Self.back(request, form))
            case .api: return try JSONResponse.make(APIMessage("Sign in to use this form."), status: .unauthorized)
            }
        }
        var context = context
        context.resolvedForm = form
        return try await next(request, context)
    }

    /// Where sign-in leads back to: this page, with its query; after a refused POST the create
    /// view rather than the POST's address.
    static func back(_ request: Request, _ form: StoredForm) -> String {
        if request.method == .post { return "/forms/\(form.id)/new" }
        var back = request.uri.path
        if let query = request.uri.query, !query.isEmpty { back += "?\(query)" }
        return back
    }
}

/// The form of an admin route (`/admin/forms/{id}/…`): its latest version, whatever its state
/// or access, resolved once for every admin resource of the form; 404 when no form has the id.
struct AdminFormMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let forms: FormStore

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        guard let form = try await forms.latest(formID: try context.parameters.require("id")) else {
            throw HTTPError(.notFound)
        }
        var context = context
        context.resolvedForm = form
        return try await next(request, context)
    }
}

/// The gate of the admin's routes: an admin's session, or under `/api` and `/metrics` the admin
/// token too (``AdminTokenMiddleware``). For the admin page, someone not signed in is sent to
/// sign in (GET) or refused (POST), and a signed-in account that is not an admin gets 403; the
/// JSON routes answer 401 with `WWW-Authenticate: Bearer`.
struct AdminOnlyMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let audience: Audience

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        let viewer = try context.viewer
        if viewer.isAdmin { return try await next(request, context) }
        switch audience {
        case .browser:
            guard viewer.account == nil else {
                throw HTTPError(.forbidden, message: "Only administrators may use the admin page.")
            }
            if request.method == .get { return Response.signIn(returningTo: request.uri.path) }
            // A form sent after its sign-in ended: say how to get it through.
            throw HTTPError(
                .forbidden,
                message: "You are not signed in (a sign-in ends after a while). "
                    + "Sign in as an administrator, then send the form again.")
        case .api:
            var response = try JSONResponse.make(
                APIMessage("Send Authorization: Bearer with the admin token, or sign in as an admin."),
                status: .unauthorized)
            response.headers[.wwwAuthenticate] = "Bearer"
            return response
        }
    }
}

/// Reads `Authorization: Bearer` on the JSON API and `/metrics`: the admin token
/// (`FIELDWORK_ADMIN_TOKEN`, compared in constant time) makes the viewer an admin
/// (``Viewer/byAdminToken``); any other bearer token is refused with 401, whatever the route, as
/// a wrong credential is (RFC 6750). A request without one goes on as its session says.
struct AdminTokenMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let adminToken: String?

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        guard let presented = Self.bearerToken(request) else { return try await next(request, context) }
        guard let adminToken, ConstantTime.equal(presented, adminToken) else {
            var response = try JSONResponse.make(
                APIMessage("The bearer token is not the admin token; send the right one, or none."),
                status: .unauthorized)
            response.headers[.wwwAuthenticate] = #"Bearer error="invalid_token""#
            return response
        }
        var context = context
        context.resolvedViewer = try context.viewer
        context.resolvedViewer?.byAdminToken = true
        return try await next(request, context)
    }

    /// The token of an `Authorization: Bearer …` header; nil when the request sends none.
    static func bearerToken(_ request: Request) -> String? {
        guard let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") else {
            return nil
        }
        return String(header.dropFirst("bearer ".count)).trimmingCharacters(in: .whitespaces)
    }
}

extension Response {
    /// A 303 to the sign-in page, which comes back to `path` once signed in.
    static func signIn(returningTo path: String) -> Response {
        seeOther("/login?next=\(LocalPath.percentEncoded(path))")
    }

    /// A 303 See Other: after a POST the browser GETs the new address.
    static func seeOther(_ location: String) -> Response {
        var headers = HTTPFields()
        headers[.location] = location
        headers[.cacheControl] = "no-store"
        return Response(status: .seeOther, headers: headers)
    }
}
