import Crypto
import Foundation

/// Webhook signatures as the Standard Webhooks specification writes them: the secret is
/// `whsec_` and the base64 of its key bytes; a delivery is signed with HMAC-SHA256 over
/// `{webhook-id}.{webhook-timestamp}.{body}`, and the `webhook-signature` header carries
/// `v1,` and the base64 of the MAC. Receivers verify with the specification's own libraries.
package enum WebhookSignature {
    /// The secret's prefix.
    package static let prefix = "whsec_"
    /// Key bytes of a new secret: more than the specification's 24 at least.
    package static let keyBytes = 32

    /// A new secret: `whsec_` and the base64 of 32 random bytes.
    package static func newSecret() -> String {
        prefix + SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }.base64EncodedString()
    }

    /// The key bytes of a `whsec_…` secret; nil when it is not one.
    package static func key(of secret: String) -> SymmetricKey? {
        guard secret.hasPrefix(prefix), let bytes = Data(base64Encoded: String(secret.dropFirst(prefix.count))),
            !bytes.isEmpty
        else { return nil }
        return SymmetricKey(data: bytes)
    }

    /// The `webhook-signature` header of a delivery: `v1,` and the base64 of
    /// HMAC-SHA256(key, `id.timestamp.body`); nil when the secret is not a `whsec_…` one.
    /// - Parameter timestamp: whole seconds since 1970, as the `webhook-timestamp` header sends them.
    package static func sign(id: String, timestamp: Int, body: some Collection<UInt8>, secret: String) -> String? {
        guard let key = key(of: secret) else { return nil }
        var mac = HMAC<SHA256>(key: key)
        mac.update(data: Data("\(id).\(timestamp).".utf8))
        mac.update(data: Data(body))
        return "v1," + Data(mac.finalize()).base64EncodedString()
    }
}
