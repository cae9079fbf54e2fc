import FormPages
import Hummingbird
import NIOCore

/// Reads `application/x-www-form-urlencoded` bodies, as browsers post forms without files.
enum FormBody {
    /// Text fields only: 1 MB is far more than any form without files sends.
    static let limit = 1024 * 1024

    static func isURLEncoded(_ request: Request) -> Bool {
        mediaType(request) == "application/x-www-form-urlencoded"
    }

    static func isMultipart(_ request: Request) -> Bool {
        mediaType(request) == "multipart/form-data"
    }

    static func isJSON(_ request: Request) -> Bool {
        mediaType(request) == "application/json"
    }

    /// The fields of an urlencoded body; 415 for any other content type.
    static func fields(_ request: Request) async throws -> [String: [String]] {
        guard isURLEncoded(request) else { throw HTTPError(.unsupportedMediaType) }
        let buffer: ByteBuffer
        do {
            buffer = try await request.boundedBody(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw HTTPError(
                .contentTooLarge, message: "The form sent is larger than \(limit / 1024 / 1024) MB; nothing was saved.")
        }
        return QueryString.parse(String(buffer: buffer))
    }

    /// The fields of an urlencoded POST whose CSRF token is the viewer's; 403 otherwise, also
    /// for a body of another type, which carries no token a form could have sent.
    static func verifiedFields(_ request: Request, viewer: Viewer) async throws -> [String: [String]] {
        guard isURLEncoded(request) else { throw HTTPError(.forbidden, message: Viewer.tokenRefusal) }
        let fields = try await fields(request)
        try viewer.requireToken(fields[InputName.csrf]?.first)
        return fields
    }

    private static func mediaType(_ request: Request) -> String? {
        guard let value = request.headers[.contentType] else { return nil }
        return value.split(separator: ";", maxSplits: 1).first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
    }
}
