import Foundation

/// How Fieldwork signs in to a service. Its description, debug description and mirror name the
/// kind only, never the password, token or header value, so that no log line, error page or
/// `dump` shows a secret.
package enum ServiceAuth: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    case none
    case basic(user: String, password: String)
    case bearer(token: String)
    /// A header of the service's choosing (`APIKey: …`, `x-api-key: …`).
    case header(name: String, value: String)

    /// The headers that carry the credential.
    package var headers: [(name: String, value: String)] {
        switch self {
        case .none: []
        case .basic(let user, let password):
            [("Authorization", "Basic " + Data("\(user):\(password)".utf8).base64EncodedString())]
        case .bearer(let token): [("Authorization", "Bearer \(token)")]
        case .header(let name, let value): [(name, value)]
        }
    }

    /// Every text that must never be shown: the secret itself and the header value built from it.
    package var secrets: [String] {
        var out: [String] = []
        switch self {
        case .none: break
        case .basic(_, let password): out.append(password)
        case .bearer(let token): out.append(token)
        case .header(_, let value): out.append(value)
        }
        out += headers.map(\.value)
        if case .basic = self, let header = headers.first?.value {
            out.append(String(header.dropFirst("Basic ".count)))
        }
        return out.filter { !$0.isEmpty }
    }

    package var description: String {
        switch self {
        case .none: "no authentication"
        case .basic(let user, _): "basic authentication as \(user)"
        case .bearer: "a bearer token"
        case .header(let name, _): "the header \(name)"
        }
    }

    package var debugDescription: String { description }

    package var customMirror: Mirror { Mirror(self, children: [], displayStyle: .enum) }
}
