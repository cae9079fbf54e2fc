import FormModel
import FormStore
import Foundation

/// What a page or a link carries that the server must trust when it comes back, written once:
/// `base64url(payload).base64url(mac)`, the MAC HMAC-SHA256 under the server secret over a
/// context and the payload. The context names the purpose and what the payload is bound to (a
/// form, its version), NUL-separated, so a seal made for one never opens for another: read-only
/// values (``SignedPrefill``), a kept service draft (``KeptDraft``), the API's object cursor
/// (``ObjectCursor``). What a seal holds is no secret, only not the client's to choose.
struct Seal: Sendable {
    let secret: ServerSecret

    /// `payload` sealed for `context`.
    func seal(_ payload: Data, context: String) -> String {
        Base64URL.encode(payload) + "." + Base64URL.encode(mac(payload, context: context))
    }

    /// The payload of a seal made for `context`; nil when the text is none, altered, cut short
    /// or made for another context or by another server. Compared in constant time.
    func open(_ text: String?, context: String) -> Data? {
        guard let text else { return nil }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let payload = Base64URL.decode(parts[0]), let given = Base64URL.decode(parts[1])
        else { return nil }
        let data = Data(payload)
        guard ConstantTime.equal(Data(given), mac(data, context: context)) else { return nil }
        return data
    }

    private func mac(_ payload: Data, context: String) -> Data {
        var message = Data(context.utf8)
        message.append(payload)
        return Data(secret.authenticationCode(for: message))
    }
}
