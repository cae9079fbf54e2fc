import Foundation

/// Why a request to a service did not give what was asked, as one enum the caller switches over:
/// each case has its own page (a refusal shows the messages beside the values; unreachable says
/// nothing was created; outcome unknown must never be retried by itself). No case holds a
/// credential: descriptions are built from the service's answers and fixed words only.
package enum ServiceFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// A 4xx with the service's messages (an OData error body, or a generic message).
    case refused(status: Int, messages: [ServiceMessage])
    /// Nothing was done: no connection, no TLS, a time-out before the request went out, or a 5xx.
    case unreachable(Unreachable)
    /// A create or change was sent and its answer lost (time-out, connection closed): the
    /// service may or may not have done it. Never retried automatically.
    case outcomeUnknown(String)
    /// 412: the object changed since its ETag was read; `current` is the object read back, when
    /// that worked.
    case preconditionFailed(current: ODataEntity?)
    /// 404: no such object (or entity set).
    case notFound
    /// The answer was longer than the connection's size limit, in bytes; reading stopped there.
    case answerTooLarge(limit: Int)
    /// A redirect to another origin (scheme, host or port differs), which is never followed;
    /// holds that origin only, never the full location, whose query might carry a token.
    case redirectRefused(origin: String)
    /// A 2xx or 3xx that is not what OData answers (not JSON, no entity, too many redirects).
    case badAnswer(String)
    /// A value could not be written as its property's type; nothing was sent.
    case notWritable(ODataValueError)

    /// Why nothing was done.
    package enum Unreachable: Sendable, Hashable {
        /// Refused, no such host, reset before the request went out.
        case connectionFailed(String)
        /// The TLS handshake failed (an unknown CA, a wrong host name).
        case tls(String)
        /// The time limit passed before the request was sent, or while reading.
        case timedOut
        /// The service answered 5xx.
        case serviceError(status: Int, messages: [ServiceMessage])
    }

    /// For people: what happened and what to do.
    package var description: String {
        switch self {
        case .refused(let status, let messages):
            let first = messages.first?.message ?? "no reason given"
            return "The service refused the request (\(status)): \(first)"
        case .unreachable(let why):
            let reason: String
            switch why {
            case .connectionFailed(let detail): reason = "no connection: \(detail)"
            case .tls(let detail): reason = "the secure connection failed: \(detail)"
            case .timedOut: reason = "it did not answer in time"
            case .serviceError(let status, let messages):
                reason = "it answered \(status)" + (messages.first.map { ": \($0.message)" } ?? "")
            }
            return "The service could not be reached (\(reason)). Nothing was created or changed; try again."
        case .outcomeUnknown(let detail):
            return "The request was sent but its answer was lost (\(detail)); whether the service did it is unknown."
        case .preconditionFailed:
            return "Someone changed the object since it was opened."
        case .notFound:
            return "The service has no such object."
        case .answerTooLarge(let limit):
            return "The service's answer was larger than \(limit) bytes, the connection's limit."
        case .redirectRefused(let origin):
            return "The service redirected to another origin (\(origin)); only its own origin is followed."
        case .badAnswer(let detail):
            return "The service's answer is not what OData answers: \(detail)"
        case .notWritable(let error):
            return "A value cannot be sent to the service: \(error)"
        }
    }
}
