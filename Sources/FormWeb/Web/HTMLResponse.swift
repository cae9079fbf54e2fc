import Hummingbird
import NIOCore

/// Responses for rendered pages.
enum HTMLResponse {
    static func page(
        _ body: ByteBuffer, status: HTTPResponse.Status = .ok, cacheControl: String = "no-cache"
    ) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.contentLength] = String(body.readableBytes)
        headers[.cacheControl] = cacheControl
        return Response(status: status, headers: headers, body: .init(byteBuffer: body))
    }
}
