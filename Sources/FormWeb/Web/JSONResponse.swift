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
    /// A refusal as JSON, `{"error": "…"}` with its status, as every answer of the API (and of
    /// the pages' own JSON routes, such as the rules route): an `HTTPError` (its message, or the
    /// reason phrase when it says nothing more: a body too large, a bad request, a stale CSRF
    /// token) or an upload's refusal; nil for any other error.
    static func refusal(_ error: any Error) throws -> Response? {
        switch error {
        case let error as HTTPError: try refusal(error)
        case let error as UploadError: try refusal(error)
        default: nil
        }
    }

    static func refusal(_ error: HTTPError) throws -> Response {
        var response = try make(APIMessage(error.body ?? error.status.reasonPhrase), status: error.status)
        response.headers.append(contentsOf: error.headers)
        return response
    }

    static func refusal(_ error: UploadError) throws -> Response {
        try make(APIMessage(error.message), status: error.status)
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
            return try await next(request, context)
        } catch FormLookupError.unknown {
            return Self.notFound
        } catch FormLookupError.retired {
            return Self.gone
        } catch let error as HTTPError where error.status == .notFound {
            return Self.notFound
        } catch let error as HTTPError where error.status == .gone {
            return Self.gone
        } catch let error as HTTPError {
            return try JSONResponse.refusal(error)
        } catch let error as UploadError {
            return try JSONResponse.refusal(error)
        } catch let error where DatabaseOutage.isOutage(error) {
            context.logger.warning("The database is unavailable", metadata: ["error": "\(error)"])
            var response = JSONResponse.response(
                ByteBuffer(string: #"{"error":"the database is unavailable; try again in a few seconds"}"#),
                status: .serviceUnavailable)
            response.headers[.retryAfter] = "5"
            return response
        } catch let error as any HTTPResponseError {
            return try error.response(from: request, context: context)
        } catch {
            ErrorPageMiddleware<Context>.logUnexpected(error, request: request, context: context)
            throw error
        }
    }

    static var notFound: Response {
        JSONResponse.response(ByteBuffer(string: #"{"error":"not found"}"#), status: .notFound)
    }

    static var gone: Response {
        JSONResponse.response(ByteBuffer(string: #"{"error":"this form has been retired"}"#), status: .gone)
    }
}
