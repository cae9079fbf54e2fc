import HTTPTypes
import Hummingbird

/// Adds the security headers to every response, error pages included.
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

    package init() {}

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
            response.headers[.fwContentSecurityPolicy] = Self.contentSecurityPolicy
        }
        response.headers[.fwContentTypeOptions] = "nosniff"
        response.headers[.fwReferrerPolicy] = "same-origin"
        return response
    }
}

extension HTTPField.Name {
    static var fwContentSecurityPolicy: Self { .init("Content-Security-Policy")! }
    static var fwContentTypeOptions: Self { .init("X-Content-Type-Options")! }
    static var fwReferrerPolicy: Self { .init("Referrer-Policy")! }
}
