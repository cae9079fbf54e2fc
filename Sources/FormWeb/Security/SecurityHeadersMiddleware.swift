import HTTPTypes
import Hummingbird

/// Adds the security headers to every response, error pages included (and HSTS behind HTTPS).
package struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    /// No inline script or style anywhere, so the policy can be strict.
    /// `frame-src 'self' blob:`: the attachment previewer shows a PDF in an `<iframe>` from a
    /// blob: URL (a chosen file not yet uploaded, or a stored one fetched), which `default-src`
    /// alone would block.
    package static var contentSecurityPolicy: String {
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; frame-src 'self' blob:; "
            + "form-action 'self'; "
            + "frame-ancestors 'none'; base-uri 'none'; object-src 'none'"
    }

    /// Whether the site is served over HTTPS only: then every response says so for a year
    /// (`Strict-Transport-Security`), so a browser never tries plain HTTP for it again.
    let strictTransport: Bool

    package init(strictTransport: Bool = false) {
        self.strictTransport = strictTransport
    }

    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            // Turn errors into responses here so they get the headers too.
            response = try error.response(from: request, context: context)
        }
        // A route may set a stricter policy of its own (served attachments: `sandbox`); keep it.
        if response.headers[.fwContentSecurityPolicy] == nil {
            // The fields are made (and their values checked) once; appending them is a copy.
            response.headers.append(contentsOf: SecurityHeaderFields.all)
        } else {
            response.headers[.fwContentTypeOptions] = "nosniff"
            response.headers[.fwReferrerPolicy] = "same-origin"
        }
        if strictTransport { response.headers.append(SecurityHeaderFields.strictTransport) }
        return response
    }
}

/// The three headers of ``SecurityHeadersMiddleware``, made once.
enum SecurityHeaderFields {
    static let all: [HTTPField] = [
        HTTPField(
            name: .fwContentSecurityPolicy, value: SecurityHeadersMiddleware<BasicRequestContext>.contentSecurityPolicy),
        HTTPField(name: .fwContentTypeOptions, value: "nosniff"),
        HTTPField(name: .fwReferrerPolicy, value: "same-origin"),
    ]
    /// A year, this host only: a deployment that serves other hosts of its domain over plain
    /// HTTP is not broken by it.
    static let strictTransport = HTTPField(name: .fwStrictTransportSecurity, value: "max-age=31536000")
}

extension HTTPField.Name {
    // Made once: a name made from a string is checked at each making.
    static let fwContentSecurityPolicy = Self("Content-Security-Policy")!
    static let fwContentTypeOptions = Self("X-Content-Type-Options")!
    static let fwReferrerPolicy = Self("Referrer-Policy")!
    static let fwStrictTransportSecurity = Self("Strict-Transport-Security")!
}
