import Foundation
import HTTPTypes
import Hummingbird

/// Answers GET and HEAD for the minified stylesheets and scripts from memory (``StaticAssets``),
/// with a 304 when the browser's `If-None-Match` names the current ETag. Any other path goes on
/// to the next middleware (FileMiddleware for images).
struct StaticAssetsMiddleware<Context: RequestContext>: RouterMiddleware {
    let assets: StaticAssets

    /// Short max-age plus revalidation: file names carry no version hash yet.
    static var cacheControl: String { "public, max-age=300, must-revalidate" }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        guard request.method == .get || request.method == .head, let asset = assets[request.uri.path] else {
            return try await next(request, context)
        }
        var headers: HTTPFields = [
            .eTag: asset.eTag,
            .cacheControl: Self.cacheControl,
            // On a 304 too: it may only carry the length the 200 would have had.
            .contentLength: String(asset.body.readableBytes),
        ]
        if Self.matches(request.headers[values: .ifNoneMatch], eTag: asset.eTag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = asset.contentType
        if request.method == .head {
            return Response(status: .ok, headers: headers, body: .init())
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: asset.body))
    }

    /// Whether an `If-None-Match` header (one or more fields, each a comma-separated list) names
    /// the ETag or is `*`. GET and HEAD compare weakly, so `W/"…"` matches too (RFC 9110, 13.1.2).
    static func matches(_ fields: [String], eTag: String) -> Bool {
        for field in fields {
            for candidate in field.split(separator: ",") {
                var tag = candidate.trimmingCharacters(in: .whitespaces)
                if tag == "*" { return true }
                if tag.hasPrefix("W/") { tag.removeFirst(2) }
                if tag == eTag { return true }
            }
        }
        return false
    }
}
