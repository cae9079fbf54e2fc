import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// One delivery of a webhook event: the JSON body POSTed to the endpoint's URL, signed.
package struct WebhookMessage: Sendable, Hashable {
    /// `msg_…`: the same for every attempt, so a receiver can drop repeats.
    package var id: String
    package var url: String
    /// The endpoint's `whsec_…` secret.
    package var secret: String
    package var body: String

    package init(id: String, url: String, secret: String, body: String) {
        self.id = id
        self.url = url
        self.secret = secret
        self.body = body
    }
}

/// What one attempt came to.
package struct WebhookAttempt: Sendable, Hashable {
    /// The answer's status; nil when none came (refused, timed out, not a URL).
    package var status: Int?
    /// The start of the answer's body, or why no answer came.
    package var answer: String
    package var latency: Duration

    /// Delivered: a 2xx answer. A redirect is not followed, and counts as a failure.
    package var delivered: Bool { status.map { (200..<300).contains($0) } ?? false }
}

/// Sends webhook deliveries over the shared ``ServiceHTTPClient``: never follows a redirect (the
/// endpoint is the URL the admin registered, nowhere else), reads at most ``answerLimit`` bytes of
/// an answer and gives each attempt ``timeLimit`` in all, connecting included.
package struct WebhookSender: Sendable {
    let http: ServiceHTTPClient
    package var timeLimit: Duration
    /// Bytes of an answer read at most; the rest is left unread and the connection closed.
    package static let answerLimit = 64 * 1024
    /// Characters of an answer kept for the admin page.
    package static let excerptLimit = 300

    package init(http: ServiceHTTPClient, timeLimit: Duration = .seconds(10)) {
        self.http = http
        self.timeLimit = timeLimit
    }

    /// POSTs the message, signed for `timestamp`, and reports the answer; never throws: what went
    /// wrong is the attempt's answer.
    package func send(_ message: WebhookMessage, at timestamp: Date = Date()) async -> WebhookAttempt {
        let start = ContinuousClock.now
        let seconds = Int(timestamp.timeIntervalSince1970)
        guard
            let signature = WebhookSignature.sign(
                id: message.id, timestamp: seconds, body: message.body.utf8, secret: message.secret)
        else {
            return WebhookAttempt(status: nil, answer: "The endpoint's secret cannot be read.", latency: .zero)
        }
        guard let url = URL(string: message.url), ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
            return WebhookAttempt(
                status: nil, answer: "The endpoint's URL is not an http or https URL.", latency: .zero)
        }
        var request = HTTPClientRequest(url: message.url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "Fieldwork-Webhooks/1")
        request.headers.add(name: "webhook-id", value: message.id)
        request.headers.add(name: "webhook-timestamp", value: String(seconds))
        request.headers.add(name: "webhook-signature", value: signature)
        let body = ByteBuffer(string: message.body)
        request.body = .bytes(body)
        let deadline = NIODeadline.now() + TimeAmount(timeLimit)
        do {
            let response = try await http.client.execute(request, deadline: deadline)
            let bytes = try await Self.read(response.body, limit: Self.answerLimit)
            return WebhookAttempt(
                status: Int(response.status.code), answer: Self.excerpt(bytes), latency: ContinuousClock.now - start)
        } catch {
            return WebhookAttempt(
                status: nil, answer: Self.describe(error, url: url), latency: ContinuousClock.now - start)
        }
    }

    /// The body up to `limit` bytes; what follows is not read.
    static func read(_ body: HTTPClientResponse.Body, limit: Int) async throws -> [UInt8] {
        var bytes: [UInt8] = []
        for try await chunk in body {
            bytes += chunk.readableBytesView.prefix(limit - bytes.count)
            if bytes.count >= limit { break }
        }
        return bytes
    }

    /// The start of an answer as text, on one line.
    static func excerpt(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes.prefix(excerptLimit * 4), as: UTF8.self)
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return line.count > excerptLimit ? String(line.prefix(excerptLimit)) + "…" : line
    }

    /// Why no answer came, for the admin page.
    static func describe(_ error: any Error, url: URL) -> String {
        let place = "\(url.host ?? "the receiver"):\(url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80))"
        if let client = error as? HTTPClientError {
            if client == .deadlineExceeded || client == .readTimeout || client == .connectTimeout {
                return "No answer within the time limit."
            }
            if client == .remoteConnectionClosed { return "The connection closed before the answer." }
        }
        if let connect = error as? NIOConnectionError {
            if connect.dnsAError != nil || connect.dnsAAAAError != nil, connect.connectionErrors.isEmpty {
                return "The host name \(connect.host) was not found."
            }
            return "\(connect.host):\(connect.port) refused the connection."
        }
        if let io = error as? IOError, io.errnoCode == ECONNREFUSED {
            return "\(place) refused the connection."
        }
        if let channel = error as? ChannelError, case .connectTimeout = channel {
            return "No answer within the time limit."
        }
        return "No answer: \(error)"
    }
}
