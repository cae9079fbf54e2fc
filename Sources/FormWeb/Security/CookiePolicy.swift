import Foundation

/// How Fieldwork's two cookies (the session, the browser id behind CSRF tokens) are named and
/// sent. Behind HTTPS (``FieldworkConfiguration/publicURL`` is https) both are `Secure` and
/// carry the `__Host-` prefix: a browser sends them over HTTPS only, and accepts them only from
/// this host, over HTTPS, for the whole site (no `Domain`), so neither a network attacker nor a
/// sibling subdomain can plant or read one. Over plain HTTP (a laptop, a test) they keep their
/// plain names, which a browser would refuse with the prefix.
package struct CookiePolicy: Sendable, Hashable {
    /// Whether the site is served over HTTPS.
    package var secure: Bool

    package init(secure: Bool) {
        self.secure = secure
    }

    /// The cookies' policy for the address people use; plain HTTP without one.
    package init(publicURL: URL?) {
        self.init(secure: publicURL?.scheme?.lowercased() == "https")
    }

    private var prefix: String { secure ? "__Host-" : "" }

    /// The session cookie's name.
    package var sessionName: String { prefix + "fieldwork_session" }

    /// The browser-id cookie's name.
    package var browserName: String { prefix + "fieldwork_csrf" }

    /// The attributes of the browser-id cookie: HttpOnly (no script reads it), SameSite=Lax (a
    /// cross-site POST does not carry it), whole site, Secure behind HTTPS.
    package var browserAttributes: String { "Path=/; HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "") }
}
