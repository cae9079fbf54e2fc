import Foundation
import HTTPTypes
import Hummingbird

/// Refuses a state-changing request (any method but GET, HEAD and OPTIONS) that its browser says
/// comes from another site, before its CSRF token is read: a second wall behind the token, as
/// OWASP's CSRF cheat sheet advises (ASVS 4.0 4.2.2, 13.2.3).
///
/// - `Sec-Fetch-Site` (every current browser sends it): `cross-site` and `same-site` (a sibling
///   subdomain, which may be someone else's) are refused; `same-origin` and `none` pass.
/// - `Origin`, when the address people use is known (``FieldworkConfiguration/publicURL``):
///   anything but that origin is refused, `null` included. Without it, the origin a browser
///   names cannot be compared (a proxy in front may rewrite `Host`), so only the first applies.
///
/// A request with neither header (an API client, `curl`) is judged by its token or its bearer
/// token as before.
struct OriginCheckMiddleware<Context: RequestContext>: RouterMiddleware {
    /// `scheme://host[:port]` of the public address, lower-cased; nil when unknown.
    let origin: String?

    init(publicURL: URL?) {
        origin = publicURL.flatMap(Self.origin(of:))
    }

    /// What the browser's headers say of `request`: nil when it may go on, else why not.
    func refusal(of request: Request) -> String? {
        switch request.method {
        case .get, .head, .options: return nil
        default: break
        }
        if let site = request.headers[.fwSecFetchSite]?.lowercased(), site == "cross-site" || site == "same-site" {
            return "Sec-Fetch-Site: \(site)"
        }
        if let origin, let given = request.headers[.fwOrigin], given.lowercased() != origin {
            return "Origin: \(given)"
        }
        return nil
    }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if let reason = refusal(of: request) {
            context.logger.notice("Refused a request from another site", metadata: ["because": "\(reason)"])
            throw HTTPError(.forbidden, message: Viewer.tokenRefusal)
        }
        return try await next(request, context)
    }

    /// `scheme://host[:port]` as browsers write an `Origin`, the default port left out.
    static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        let defaultPort = scheme == "https" ? 443 : 80
        return "\(scheme)://\(host)" + (url.port.map { $0 == defaultPort ? "" : ":\($0)" } ?? "")
    }
}

extension HTTPField.Name {
    static let fwSecFetchSite = Self("Sec-Fetch-Site")!
    static let fwOrigin = Self("Origin")!
}
