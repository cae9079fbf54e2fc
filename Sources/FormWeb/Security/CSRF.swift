import Crypto
import FormStore
import Foundation
import Hummingbird

/// Double-submit CSRF protection: a random id per browser in an HttpOnly cookie, and a token
/// derived from it with the server's secret that forms carry in a hidden `_csrf` input.
///
/// A cross-site page can make the browser send the cookie but can neither read it nor compute
/// the token without the secret.
package struct CSRF: Sendable {
    /// The cookie holding the browser's id.
    package static let cookieName = "fieldwork_csrf"

    let secret: ServerSecret

    package init(secret: ServerSecret) {
        self.secret = secret
    }

    /// A fresh random browser id: 32 bytes, base64url without padding.
    package func makeID() -> String { Self.randomID() }

    /// 32 random bytes, base64url without padding: a browser id, a session's CSRF key, a
    /// create view's one-time token.
    static func randomID() -> String {
        base64URL(SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) })
    }

    /// The token for a browser id: HMAC-SHA256(secret, id), base64url without padding.
    package func token(for id: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data(id.utf8), using: secret.key)
        return Self.base64URL(Data(mac))
    }

    /// Whether a submitted token belongs to the browser id in the cookie; compares in constant time.
    package func verify(token: String?, cookie: String?) -> Bool {
        guard let token, let cookie, !cookie.isEmpty else { return false }
        return Self.constantTimeEqual(token, self.token(for: cookie))
    }

    /// Whether two secrets are equal, in a time that depends on their lengths only.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for i in 0..<max(x.count, y.count) {
            difference |= (i < x.count ? x[i] : 0) ^ (i < y.count ? y[i] : 0)
        }
        return difference == 0
    }

    /// The browser id from a request's cookie, or a new one with the cookie to set.
    package func identify(_ request: Request) -> (id: String, newCookie: Cookie?) {
        if let existing = request.cookies[Self.cookieName]?.value, Self.isWellFormedID(existing) {
            return (existing, nil)
        }
        let id = makeID()
        return (id, Cookie(name: Self.cookieName, value: id, path: "/", httpOnly: true, sameSite: .lax))
    }

    /// Ids we issued are 43 base64url characters; anything else is replaced rather than trusted.
    static func isWellFormedID(_ id: String) -> Bool {
        id.utf8.count == 43
            && id.utf8.allSatisfy { c in
                (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x2D
                    || c == 0x5F
            }
    }

    /// Base64url without padding. On the bytes: three Foundation `replacingOccurrences` made this
    /// a tenth of the instructions of a request (every page derives its CSRF token).
    static func base64URL(_ data: Data) -> String {
        var bytes = Array(data.base64EncodedString().utf8)
        bytes.removeAll { $0 == UInt8(ascii: "=") }
        for i in bytes.indices {
            if bytes[i] == UInt8(ascii: "+") {
                bytes[i] = UInt8(ascii: "-")
            } else if bytes[i] == UInt8(ascii: "/") {
                bytes[i] = UInt8(ascii: "_")
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
