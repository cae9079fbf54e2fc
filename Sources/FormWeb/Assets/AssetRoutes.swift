import FormStore
import Foundation
import HTTPTypes
import Hummingbird

/// Serves ``StaticAssets`` from memory as routes of their own, before any session or viewer is
/// read: GET and HEAD, gzipped for a client that accepts it, 304 when `If-None-Match` names the
/// representation's ETag.
///
/// - `/assets/<version>/css/fieldwork.css`, the address the pages link: cached for a year,
///   `immutable`, since another file makes another version.
/// - `/assets/<other version>/…`: a page from before a restart (a tab left open) asking for what
///   it linked; it gets the current file, to be revalidated, rather than a 404.
/// - `/css/fieldwork.css` and the like, the addresses before fingerprints: kept for whatever
///   still links them, revalidated after 5 minutes.
///
/// Every answer counts as route `PublicFiles` in the request metrics, never by its path.
struct AssetRoutes: Sendable {
    let assets: StaticAssets

    /// A year, and `immutable`: the address changes whenever the bytes do.
    static var fingerprintedCacheControl: String { "public, max-age=31536000, immutable" }
    /// The addresses without a fingerprint: revalidated after 5 minutes.
    static var plainCacheControl: String { "public, max-age=300, must-revalidate" }
    /// A fingerprint that is not the current one: the current bytes, revalidated at every use.
    static var staleCacheControl: String { "no-cache" }

    func addRoutes(to router: Router<AppRequestContext>) {
        for path in assets.assets.keys {
            for method in [HTTPRequest.Method.get, .head] {
                router.on(RouterPath(assets.base + path), method: method) { request, context in
                    try answer(request, context, path: path, cacheControl: Self.fingerprintedCacheControl)
                }
                router.on(RouterPath(path), method: method) { request, context in
                    try answer(request, context, path: path, cacheControl: Self.plainCacheControl)
                }
            }
        }
        for method in [HTTPRequest.Method.get, .head] {
            router.on("/assets/:version/**", method: method) { request, context in
                let path = "/" + context.parameters.getCatchAll().joined(separator: "/")
                return try answer(request, context, path: path, cacheControl: Self.staleCacheControl)
            }
        }
    }

    private func answer(
        _ request: Request, _ context: AppRequestContext, path: String, cacheControl: String
    ) throws -> Response {
        context.coreContext.endpointPath.value = FieldworkMetrics.publicFilesRoute
        guard let asset = assets[path] else { throw HTTPError(.notFound) }
        return Self.response(for: asset, request: request, cacheControl: cacheControl)
    }

    /// The answer for one asset: the gzipped bytes when the client takes gzip, else the bytes.
    static func response(for asset: StaticAssets.Asset, request: Request, cacheControl: String) -> Response {
        let gzipped = asset.gzipped.flatMap { acceptsGzip(request.headers[values: .acceptEncoding]) ? $0 : nil }
        let eTag = gzipped == nil ? asset.eTag : asset.gzippedETag
        let body = gzipped ?? asset.body
        var headers: HTTPFields = [
            .eTag: eTag,
            .cacheControl: cacheControl,
            // On a 304 too: it may only carry the length the 200 would have had.
            .contentLength: String(body.readableBytes),
        ]
        if asset.gzipped != nil { headers[.vary] = "Accept-Encoding" }
        if gzipped != nil { headers[.contentEncoding] = "gzip" }
        if matches(request.headers[values: .ifNoneMatch], eTag: eTag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = asset.contentType
        if request.method == .head { return Response(status: .ok, headers: headers, body: .init()) }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
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

    /// Whether an `Accept-Encoding` header takes gzip: `gzip` (or `x-gzip`) with a weight above
    /// 0, or else `*` with one (RFC 9110, 12.5.3).
    static func acceptsGzip(_ fields: [String]) -> Bool {
        var gzip: Double?
        var any: Double?
        for field in fields {
            for coding in field.split(separator: ",") {
                let parts = coding.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                let weight = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
                switch parts.first {
                case "gzip", "x-gzip": gzip = weight
                case "*": any = weight
                default: continue
                }
            }
        }
        return (gzip ?? any ?? 0) > 0
    }
}
