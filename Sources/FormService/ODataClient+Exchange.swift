import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

extension ODataClient {
    /// What a lost answer means for a request: a read can be asked again; a create or change
    /// that went out may have been done.
    enum Exposure {
        case read, change
    }

    /// Redirects followed at most, all on the connection's origin.
    static let maxRedirects = 3

    /// Sends one request within the connection's time limit, follows same-origin redirects, and
    /// reads the answer up to the size limit. Every status comes back as an answer; only what is
    /// no answer (no connection, a time-out, too large, another origin) is thrown.
    func exchange(
        _ method: HTTPMethod, url: String, headers extra: [(String, String)] = [], body: [UInt8]? = nil,
        accept: String = "application/json", exposure: Exposure
    ) async throws(ServiceFailure) -> ServiceAnswer {
        let deadline = NIODeadline.now() + TimeAmount(connection.timeLimit)
        var method = method
        var url = url
        var body = body
        var hop = 0
        while true {
            var request = HTTPClientRequest(url: url)
            request.method = method
            request.headers = headerFields(extra, accept: accept)
            request.tlsConfiguration = tls
            let marker = SentMarker()
            if let body {
                request.body = .stream(marker.body(body), length: .known(Int64(body.count)))
            }
            let response: HTTPClientResponse
            do {
                response = try await http.client.execute(request, deadline: deadline)
            } catch {
                throw failure(error, exposure: exposure, sent: body == nil ? nil : marker.wasSent)
            }
            session.receive(response.headers)
            let status = Int(response.status.code)
            if [301, 302, 303, 307, 308].contains(status), let location = response.headers.first(name: "location") {
                guard let base = URL(string: url), let next = URL(string: location, relativeTo: base)?.absoluteURL
                else {
                    throw .badAnswer("a redirect to an address that is no URL")
                }
                guard let origin = ServiceOrigin(url: next), origin == connection.origin else {
                    throw .redirectRefused(origin: ServiceOrigin(url: next)?.description ?? (next.scheme ?? "?") + ":")
                }
                hop += 1
                guard hop <= ODataClient.maxRedirects else {
                    throw .badAnswer("more than \(ODataClient.maxRedirects) redirects")
                }
                // As browsers do: 307 and 308 repeat the request, the others fetch the new place.
                if status == 303 || (status != 307 && status != 308 && method != .GET && method != .HEAD) {
                    method = .GET
                    body = nil
                }
                url = next.absoluteString
                continue
            }
            let bytes = try await read(response, exposure: exposure)
            return ServiceAnswer(status: status, headers: response.headers, body: bytes, url: url)
        }
    }

    private struct TooLarge: Error {}

    /// Reads the body as it arrives and stops at the size limit, before holding more.
    private func read(_ response: HTTPClientResponse, exposure: Exposure) async throws(ServiceFailure) -> [UInt8] {
        let limit = connection.sizeLimit
        if let declared = response.headers.first(name: "content-length").flatMap(Int.init), declared > limit {
            throw .answerTooLarge(limit: limit)
        }
        var bytes: [UInt8] = []
        do {
            for try await chunk in response.body {
                guard bytes.count + chunk.readableBytes <= limit else { throw TooLarge() }
                bytes += chunk.readableBytesView
            }
        } catch is TooLarge {
            throw .answerTooLarge(limit: limit)
        } catch {
            throw failure(error, exposure: exposure, sent: true)
        }
        return bytes
    }

    /// The headers of every request: what is accepted, the credential, the session's cookies.
    private func headerFields(_ extra: [(String, String)], accept: String) -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers.add(name: "Accept", value: accept)
        for (name, value) in connection.auth.headers { headers.add(name: name, value: value) }
        if let cookies = session.cookieHeader { headers.add(name: "Cookie", value: cookies) }
        for (name, value) in extra { headers.replaceOrAdd(name: name, value: value) }
        return headers
    }

    /// What an error of the HTTP client means. A failure while connecting (refused, no such
    /// host, TLS) means nothing went out. After that, a create or change whose body was asked for
    /// may have been done: outcome unknown. A request without a body (DELETE) cannot tell, so it
    /// counts as sent.
    /// - Parameters:
    ///   - sent: whether the body was asked for; nil when the request has none.
    func failure(_ error: any Error, exposure: Exposure, sent: Bool?) -> ServiceFailure {
        if let failure = error as? ServiceFailure { return failure }
        if let connect = error as? NIOConnectionError {
            if connect.dnsAError != nil || connect.dnsAAAAError != nil, connect.connectionErrors.isEmpty {
                return .unreachable(.connectionFailed("the host name \(connect.host) was not found"))
            }
            return .unreachable(.connectionFailed("\(connect.host):\(connect.port) refused the connection"))
        }
        if error is NIOSSLError || error is NIOSSLExtraError || error is BoringSSLError {
            return .unreachable(.tls(String(describing: error)))
        }
        if let channel = error as? ChannelError, case .connectTimeout = channel {
            return .unreachable(.timedOut)
        }
        let mayHaveActed = exposure == .change && sent != false
        if let client = error as? HTTPClientError {
            if client == .connectTimeout || client == .tlsHandshakeTimeout || client == .getConnectionFromPoolTimeout {
                return .unreachable(.timedOut)
            }
            if client == .deadlineExceeded || client == .readTimeout || client == .writeTimeout {
                return mayHaveActed ? .outcomeUnknown("no answer within the time limit") : .unreachable(.timedOut)
            }
            if client == .remoteConnectionClosed {
                return mayHaveActed
                    ? .outcomeUnknown("the connection closed before the answer")
                    : .unreachable(.connectionFailed("the connection closed"))
            }
        }
        if error is CancellationError {
            return mayHaveActed ? .outcomeUnknown("the request was cancelled") : .unreachable(.timedOut)
        }
        let detail = String(describing: error)
        return mayHaveActed ? .outcomeUnknown(detail) : .unreachable(.connectionFailed(detail))
    }
}
