import FormStore
import Foundation

/// The API's opaque cursor over a form's objects in change order: where the last page ended
/// (``ChangePosition``), signed with HMAC-SHA256 under the server secret over the form id and
/// the position, so a client can neither make one up nor carry one to another form.
///
/// `base64url(mark NUL id).base64url(mac)`: what it holds is no secret, only not the client's
/// to choose; a cursor stays valid for as long as the server secret does.
struct ObjectCursor: Sendable {
    let secret: ServerSecret

    /// The cursor that continues after `position` in the form `formID`.
    func make(formID: String, position: ChangePosition) -> String {
        let payload = Data("\(position.mark)\u{0}\(position.id.uuidString.lowercased())".utf8)
        return CSRF.base64URL(payload) + "." + CSRF.base64URL(mac(formID: formID, payload: payload))
    }

    /// The position a cursor made for this form holds, or nil when it is not one (altered, cut
    /// short, made for another form or by another server).
    func open(_ cursor: String, formID: String) -> ChangePosition? {
        let parts = cursor.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let payload = SignedPrefill.decode(parts[0]),
            let given = SignedPrefill.decode(parts[1])
        else { return nil }
        guard CSRF.constantTimeEqual(given, mac(formID: formID, payload: payload)),
            let text = String(data: payload, encoding: .utf8)
        else { return nil }
        let fields = text.split(separator: "\u{0}", omittingEmptySubsequences: false)
        guard fields.count == 2, let id = UUID(uuidString: String(fields[1])) else { return nil }
        return ChangePosition(mark: String(fields[0]), id: id)
    }

    private func mac(formID: String, payload: Data) -> Data {
        // Its own prefix: no cursor is ever a valid CSRF token or prefill seal, nor the reverse.
        var message = Data("fieldwork-cursor\u{0}\(formID)\u{0}".utf8)
        message.append(payload)
        return Data(secret.authenticationCode(for: message))
    }
}
