import Hummingbird
import NIOCore

/// Answers unknown addresses with a real HTML 404 page, and retired forms with a 410 page
/// (JSON under `/api/`).
struct ErrorPageMiddleware<Context: RequestContext>: RouterMiddleware {
    let notFound: RenderPlan
    let gone: RenderPlan

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            if request.uri.path.hasPrefix("/api/") {
                var headers = HTTPFields()
                headers[.contentType] = "application/json; charset=utf-8"
                return Response(
                    status: .notFound, headers: headers, body: .init(byteBuffer: ByteBuffer(string: #"{"error":"not found"}"#)))
            }
            return HTMLResponse.page(notFound.render(RenderState(values: [:], csrfToken: "")), status: .notFound)
        } catch let error as HTTPError where error.status == .gone {
            if request.uri.path.hasPrefix("/api/") {
                var headers = HTTPFields()
                headers[.contentType] = "application/json; charset=utf-8"
                return Response(
                    status: .gone, headers: headers, body: .init(byteBuffer: ByteBuffer(string: #"{"error":"this form has been retired"}"#)))
            }
            return HTMLResponse.page(gone.render(RenderState(values: [:], csrfToken: "")), status: .gone)
        }
    }
}
