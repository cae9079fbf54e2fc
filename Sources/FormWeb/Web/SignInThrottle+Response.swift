import Hummingbird
import Logging

extension SignInThrottle.Held {
    /// The answer to an attempt held back: logs `event` with who waits and for how long, and
    /// answers the page `render` makes with the message for the wait (`message` writes it from
    /// the wait in words: "30 seconds"), as 429 with `Retry-After` in whole seconds.
    func response(
        logging event: Logger.Message, _ metadata: Logger.Metadata, to logger: Logger,
        message: (_ wait: String) -> String, render: (_ message: String) async throws -> Response
    ) async rethrows -> Response {
        let (seconds, wait) = wording
        var metadata = metadata
        metadata["held"] = "\(subject == .name ? "user" : "client") for \(seconds) s"
        logger.notice(event, metadata: metadata)
        var response = try await render(message(wait))
        response.status = .tooManyRequests
        response.headers[.retryAfter] = String(seconds)
        return response
    }
}
