import NIOHTTP1
import Synchronization

/// What a connection keeps between requests: the SAP CSRF token and the session cookies that
/// came with it. SAP Gateway ties the token to the session, so both are sent with every change;
/// a service that issues no token is remembered as such and never asked again.
package final class ServiceSession: Sendable {
    /// What is known of the service's CSRF token.
    package enum Token: Sendable, Hashable {
        /// Not fetched yet.
        case unknown
        /// The service issues none (pyslet, odatapy): changes go without.
        case none
        case value(String)
    }

    private struct State {
        var token = Token.unknown
        var cookies: [String: String] = [:]
    }

    /// At most this many cookies are kept: a session needs a few, a hostile service could send
    /// thousands.
    package static let maxCookies = 32

    private let state = Mutex(State())

    package init() {}

    package var token: Token { state.withLock { $0.token } }

    package func setToken(_ token: Token) {
        state.withLock { $0.token = token }
    }

    /// Keeps the cookies an answer sets (`name=value`, attributes ignored: every request goes to
    /// the one origin); an expired or empty one is dropped.
    package func receive(_ headers: HTTPHeaders) {
        let setCookies = headers["set-cookie"]
        guard !setCookies.isEmpty else { return }
        state.withLock { state in
            for line in setCookies {
                guard let pair = line.split(separator: ";", maxSplits: 1).first, let equals = pair.firstIndex(of: "=")
                else { continue }
                let name = pair[..<equals].trimmingSpaces
                let value = pair[pair.index(after: equals)...].trimmingSpaces
                guard !name.isEmpty else { continue }
                let expired =
                    line.lowercased().contains("max-age=0") || line.lowercased().contains("expires=thu, 01 jan 1970")
                if value.isEmpty || expired {
                    state.cookies[name] = nil
                } else if state.cookies[name] != nil || state.cookies.count < ServiceSession.maxCookies {
                    state.cookies[name] = value
                }
            }
        }
    }

    /// The `Cookie` header for the next request, or nil when no cookie is kept.
    package var cookieHeader: String? {
        state.withLock { state in
            state.cookies.isEmpty
                ? nil : state.cookies.keys.sorted().map { "\($0)=\(state.cookies[$0]!)" }.joined(separator: "; ")
        }
    }

    /// The token and the cookie values: secrets of the session, never shown.
    package var secrets: [String] {
        state.withLock { state in
            var out = Array(state.cookies.values)
            if case .value(let token) = state.token { out.append(token) }
            return out
        }
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
