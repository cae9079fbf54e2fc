import Foundation
import Hummingbird

/// The gate of every admin route: an admin's session, or for the JSON API the admin token.
struct AdminGate: Sendable {
    let viewers: ViewerResolver
    let adminToken: String?

    /// The admin viewing a page. Someone not signed in is sent to sign in (GET) or refused
    /// (POST); a signed-in account that is not an admin gets 403.
    func admin(_ request: Request, context: AppRequestContext) async throws -> Viewer {
        let viewer = try await viewers.viewer(request, context: context)
        if viewer.isAdmin { return viewer }
        if viewer.account == nil && request.method == .get {
            throw SignInRequired(path: request.uri.path)
        }
        throw HTTPError(.forbidden, message: "Only administrators may use the admin page.")
    }

    /// Like ``admin(_:context:)`` and the request's CSRF token checked: for urlencoded POSTs.
    func adminPost(_ request: Request, context: AppRequestContext) async throws -> (Viewer, [String: [String]]) {
        let viewer = try await admin(request, context: context)
        let fields = try await FormBody.fields(request)
        try viewers.requireToken(fields[CSRF.fieldName]?.first, for: viewer)
        return (viewer, fields)
    }

    /// Who makes an admin API call.
    struct APICaller {
        /// The name to record as the importer.
        var name: String
        /// Whether it presented the admin token, rather than an admin's session cookie.
        var byToken: Bool
    }

    /// Whether an API call carries the admin token (compared in constant time) or comes from an
    /// admin's session; nil for anyone else.
    func apiCaller(_ request: Request, context: AppRequestContext) async throws -> APICaller? {
        if let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") {
            let presented = String(header.dropFirst("bearer ".count)).trimmingCharacters(in: .whitespaces)
            guard let adminToken, Self.constantTimeEqual(presented, adminToken) else { return nil }
            return APICaller(name: "api token", byToken: true)
        }
        let viewer = try await viewers.viewer(request, context: context)
        guard viewer.isAdmin, let name = viewer.account?.name else { return nil }
        return APICaller(name: name, byToken: false)
    }

    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for i in 0..<max(x.count, y.count) {
            difference |= (i < x.count ? x[i] : 0) ^ (i < y.count ? y[i] : 0)
        }
        return difference == 0
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
