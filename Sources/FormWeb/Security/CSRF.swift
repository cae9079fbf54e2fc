import Crypto
import FormModel
import FormStore
import Foundation
import Hummingbird

/// Double-submit CSRF protection: a random id per browser in an HttpOnly cookie, and a token
/// derived from it with the server's secret that forms carry in a hidden `_csrf` input.
///
/// A cross-site page can make the browser send the cookie but can neither read it nor compute
/// the token without the secret.
package struct CSRF: Sendable {
    /// The cookie holding the browser's id, with its name and attributes.
    let cookies: CookiePolicy
    let secret: ServerSecret
    /// Tokens of the browsers and sessions seen lately: a returning browser's page needs its
    /// token again, and a MAC is the dearest part of a page after the page itself. Bounded, and
    /// right for as long as the server runs (the secret does not change).
    private let recent = LockedCache<String, String>(capacity: 10_000)

    package init(secret: ServerSecret, cookies: CookiePolicy = CookiePolicy(secure: false)) {
        self.secret = secret
        self.cookies = cookies
    }

    /// A fresh random browser id: 32 bytes, base64url without padding.
    package func makeID() -> String { Self.randomID() }

    /// 32 random bytes, base64url without padding: a browser id, a session's CSRF key, a
    /// create view's one-time token.
    static func randomID() -> String {
        RandomBytes.with(32) { Base64URL.encode($0) }
    }

    /// The token for a browser id: HMAC-SHA256(secret, id), base64url without padding.
    /// - Parameter keep: keep the token for the next request (a new browser's id may never
    ///   come back: its token is not kept yet).
    package func token(for id: String, keep: Bool = true) -> String {
        let make = { secret.authenticationCode(utf8: id).withUnsafeBytes { Base64URL.encode($0) } }
        return keep ? recent.value(for: id, make: make) : make()
    }

    /// Whether a submitted token belongs to the browser id in the cookie; compares in constant time.
    package func verify(token: String?, cookie: String?) -> Bool {
        guard let token, let cookie, !cookie.isEmpty else { return false }
        return ConstantTime.equal(token, self.token(for: cookie))
    }

    /// The browser id from a request's cookie, or a new one with the cookie to set.
    package func identify(_ request: Request) -> (id: String, newCookie: String?) {
        if let existing = CookieHeader.value(of: cookies.browserName, in: request.headers[values: .cookie]),
            Self.isWellFormedID(existing)
        {
            return (existing, nil)
        }
        let id = makeID()
        return (id, "\(cookies.browserName)=\(id); \(cookies.browserAttributes)")
    }

    /// Ids we issued are 43 base64url characters; anything else is replaced rather than trusted.
    static func isWellFormedID(_ id: String) -> Bool {
        id.utf8.count == 43
            && id.utf8.allSatisfy { c in
                (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x2D
                    || c == 0x5F
            }
    }

}
