import Hummingbird

/// Names what a middleware answers by itself, rather than the rest of the chain, with one
/// `route` for the request metrics, as a route's pattern names what a route answers. Without
/// it the public files would count under how they were served (`StaticAssets`,
/// `FileMiddleware`, or `NotFound` for a folder's redirect). A fixed name keeps the label's
/// values few whatever paths are asked for: never the path itself.
struct RouteLabelMiddleware<Wrapped: RouterMiddleware>: RouterMiddleware where Wrapped.Context: RequestContext {
    typealias Context = Wrapped.Context

    let route: String
    let wrapped: Wrapped

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        // FileMiddleware asks the rest of the chain first and serves a file only when that
        // found nothing: an answer is the wrapped middleware's own unless the chain gave it.
        var chainAnswered = false
        let response = try await wrapped.handle(request, context: context) { request, context in
            let response = try await next(request, context)
            chainAnswered = true
            return response
        }
        if !chainAnswered { context.coreContext.endpointPath.value = route }
        return response
    }
}
