import Foundation

/// The origin of a URL (scheme, host, port; RFC 6454): requests and redirects stay on the
/// connection's origin, so a service cannot send Fieldwork, with its credentials, elsewhere.
package struct ServiceOrigin: Sendable, Hashable, CustomStringConvertible {
    /// `http` or `https`.
    package var scheme: String
    /// Lower case.
    package var host: String
    /// The port, the scheme's default when the URL names none.
    package var port: Int

    /// The origin of an absolute `http` or `https` URL; nil for any other scheme or a URL
    /// without a host.
    package init?(url: URL) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host?.lowercased(), !host.isEmpty
        else { return nil }
        self.scheme = scheme
        self.host = host
        self.port = url.port ?? (scheme == "https" ? 443 : 80)
    }

    package var description: String {
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "\(scheme)://\(bracketed):\(port)"
    }
}
