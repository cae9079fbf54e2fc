import FormStore
import Foundation
import Hummingbird
import NIOCore

/// Responses of the JSON API: sorted keys, ISO 8601 dates, never cached.
enum JSONResponse {
    /// An `Encodable` value as the body.
    static func make(_ value: some Encodable, status: HTTPResponse.Status) throws -> Response {
        response(try body(value, encoder: encoder()), status: status)
    }

    /// The API's encoder: sorted keys, ISO 8601 dates. One per task (it is not `Sendable`).
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    /// A value's JSON exactly as the API's answers carry it (``withoutMarkup(_:)`` included),
    /// for the export's JSON Lines.
    static func body(_ value: some Encodable, encoder: JSONEncoder) throws -> ByteBuffer {
        withoutMarkup(ByteBuffer(bytes: try encoder.encode(value)))
    }

    /// Bytes that are JSON already, such as a stored canonical schema.
    static func response(_ body: ByteBuffer, status: HTTPResponse.Status) -> Response {
        prepared(withoutMarkup(body), status: status)
    }

    /// Bytes that are JSON without markup already (``withoutMarkup(_:)`` was applied once).
    static func prepared(_ body: ByteBuffer, status: HTTPResponse.Status) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: body))
    }
}

extension JSONResponse {
    /// A refusal as JSON, `{"error": "…"}` with its status and headers, as every answer of the
    /// API (and of the pages' own JSON routes, such as the rules route); nil for an error that
    /// refuses nothing (``Refusal/of(_:)``).
    static func refusal(_ error: any Error) throws -> Response? {
        try Refusal.of(error).map(refusal)
    }

    static func refusal(_ refusal: Refusal) throws -> Response {
        var response = try make(APIMessage(refusal.apiMessage), status: refusal.status)
        response.headers.append(contentsOf: refusal.headers)
        return response
    }

    /// JSON with `<`, `>` and `&` (which JSON holds only inside strings) written as `\u003c`,
    /// `\u003e` and `\u0026`: the same JSON, with no markup in it for anything that reads the
    /// body as HTML despite its type.
    static func withoutMarkup(_ body: ByteBuffer) -> ByteBuffer {
        let view = body.readableBytesView
        guard view.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "&") })
        else { return body }
        var escaped = ByteBuffer()
        escaped.reserveCapacity(body.readableBytes + 64)
        for byte in view {
            switch byte {
            case UInt8(ascii: "<"): escaped.writeString("\\u003c")
            case UInt8(ascii: ">"): escaped.writeString("\\u003e")
            case UInt8(ascii: "&"): escaped.writeString("\\u0026")
            default: escaped.writeInteger(byte)
            }
        }
        return escaped
    }
}

/// Errors of the `/api` route group as JSON: 404 and 410 with a short message, other refusals
/// as `{"error": "…"}`, a database that cannot be reached as 503 with `Retry-After` (see
/// ``ErrorPageMiddleware``). Nothing under `/api` ever answers with a page.
struct APIErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        do {
            // A read on a connection PostgreSQL dropped as it restarted is read again.
            guard request.method == .get || request.method == .head else { return try await next(request, context) }
            return try await DatabaseOutage.retryingDropped { try await next(request, context) }
        } catch {
            if let refusal = Refusal.of(error) {
                if refusal.kind == .unavailable {
                    context.logger.warning("The database is unavailable", metadata: ["error": "\(error)"])
                }
                return try JSONResponse.refusal(refusal)
            }
            if let error = error as? any HTTPResponseError {
                return try error.response(from: request, context: context)
            }
            ErrorPageMiddleware<Context>.logUnexpected(error, request: request, context: context)
            throw error
        }
    }
}
