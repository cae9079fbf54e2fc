import HTTPTypes
import Hummingbird
import Logging

/// Gives every request one id: the `X-Request-ID` a proxy in front sent, when it is sane, else
/// the id Hummingbird made for the request. The id goes into the request logger's metadata
/// (`hb.request.id`, the key Hummingbird's own lines use), so every line logged for the request
/// carries it, and back to the client in `X-Request-ID`, error pages included.
///
/// Added first, so that every other middleware logs with the id. It also logs each request at
/// debug level.
package struct RequestIDMiddleware<Context: RequestContext>: RouterMiddleware {
    package init() {}

    static var headerName: HTTPField.Name { .fwRequestID }
    /// The logger metadata key; Hummingbird sets it to its own id before any middleware runs.
    static var metadataKey: String { "hb.request.id" }

    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    )
        async throws -> Response
    {
        var context = context
        let id: String
        if let incoming = request.headers[Self.headerName], Self.isSane(incoming) {
            id = incoming
            context.logger[metadataKey: Self.metadataKey] = .string(incoming)
        } else {
            id = context.id
        }
        // The request, at debug level (what Hummingbird's LogRequestsMiddleware wrote, without a
        // middleware of its own for every request to pass).
        context.logger.debug(
            "Request",
            metadata: [
                "hb.request.path": .stringConvertible(request.uri),
                "hb.request.method": .string(request.method.rawValue),
            ])
        do {
            // Also as a task-local, for loggers the request did not make (the database's):
            // the logging system's metadata provider adds it to their lines.
            var response = try await RequestIDs.$current.withValue(id) { try await next(request, context) }
            response.headers.append(HTTPField(name: Self.headerName, value: id))
            return response
        } catch let error as any HTTPResponseError {
            // A status thrown past the error pages (405, say) still answers with the id.
            var response = try error.response(from: request, context: context)
            response.headers.append(HTTPField(name: Self.headerName, value: id))
            return response
        }
    }

    /// 1 to 64 characters of letters, digits and `-_.:`: what request ids look like (UUIDs,
    /// hex, ULIDs), and nothing that could split a log line or a header.
    static func isSane(_ id: String) -> Bool {
        let bytes = id.utf8
        guard !bytes.isEmpty, bytes.count <= 64 else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                UInt8(ascii: ":"):
                return true
            default:
                return false
            }
        }
    }
}

/// The id of the request the current task works for, set by ``RequestIDMiddleware``.
package enum RequestIDs {
    @TaskLocal package static var current: String?

    /// Adds `hb.request.id` to every line logged while a request is handled, by any logger,
    /// when the logging system is bootstrapped with it (``LogFormat/bootstrap()`` does).
    package static let metadataProvider = Logger.MetadataProvider {
        guard let current else { return [:] }
        return ["hb.request.id": .string(current)]
    }
}

extension HTTPField.Name {
    // Made once: a name made from a string is checked at each making.
    static let fwRequestID = Self("X-Request-ID")!
}
