import HTTPTypes
import Hummingbird
import NIOCore

/// Responses for rendered pages.
enum HTMLResponse {
    static func page(
        _ body: ByteBuffer, status: HTTPResponse.Status = .ok, cacheControl: String = "no-cache"
    ) -> Response {
        // Appended, not set: a fresh list has nothing to replace. The type's field is made once.
        var headers = HTTPFields()
        headers.reserveCapacity(8)
        headers.append(contentType)
        headers.append(HTTPField(name: .contentLength, value: String(body.readableBytes)))
        headers.append(
            cacheControl == "no-store"
                ? noStore : cacheControl == "no-cache" ? noCache : HTTPField(name: .cacheControl, value: cacheControl))
        return Response(status: status, headers: headers, body: .init(byteBuffer: body))
    }

    private static let contentType = HTTPField(name: .contentType, value: "text/html; charset=utf-8")
    private static let noStore = HTTPField(name: .cacheControl, value: "no-store")
    private static let noCache = HTTPField(name: .cacheControl, value: "no-cache")
}
