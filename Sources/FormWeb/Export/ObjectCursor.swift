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
        return Seal(secret: secret).seal(payload, context: Self.context(formID: formID))
    }

    /// The position a cursor made for this form holds, or nil when it is not one (altered, cut
    /// short, made for another form or by another server).
    func open(_ cursor: String, formID: String) -> ChangePosition? {
        guard let payload = Seal(secret: secret).open(cursor, context: Self.context(formID: formID)),
            let text = String(data: payload, encoding: .utf8)
        else { return nil }
        let fields = text.split(separator: "\u{0}", omittingEmptySubsequences: false)
        guard fields.count == 2, let id = UUID(uuidString: String(fields[1])) else { return nil }
        return ChangePosition(mark: String(fields[0]), id: id)
    }

    /// Its own prefix: no cursor is ever a valid CSRF token or prefill seal, nor the reverse.
    private static func context(formID: String) -> String { "fieldwork-cursor\u{0}\(formID)\u{0}" }
}
