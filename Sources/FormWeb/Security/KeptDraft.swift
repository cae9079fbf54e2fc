import FormStore
import Foundation

/// The draft a refused activation kept open in the service, carried by the create view shown
/// again (the hidden `_draft` input) so the corrected create goes on with it and Cancel
/// discards it: HMAC-SHA256 under the server secret over the form, the viewer and the draft,
/// so that no one can make a create change or discard a draft that is not theirs.
///
/// Fiori elements keeps such a draft in the same way (`../shared/spec/odata-service.md`,
/// "Drafts"). A page left open longer than ``lifetime`` makes a new draft; the old one is left
/// to the service's own draft lifetime, as Fiori leaves a draft whose browser went away.
package struct KeptDraft: Sendable {
    let secret: ServerSecret
    /// How long a kept draft is gone on with.
    static let lifetime: TimeInterval = 24 * 3600

    private struct Payload: Codable {
        var form: String
        var owner: String
        var draft: ServiceDraft
        /// When the draft was kept, seconds since 1970.
        var kept: Int
    }

    package init(secret: ServerSecret) {
        self.secret = secret
    }

    /// `base64url(JSON).base64url(mac)`.
    func seal(_ draft: ServiceDraft, formID: String, owner: String, now: Date = Date()) -> String {
        let payload = Payload(form: formID, owner: owner, draft: draft, kept: Int(now.timeIntervalSince1970))
        let json = (try? JSONEncoder().encode(payload)) ?? Data()
        return Seal(secret: secret).seal(json, context: Self.context)
    }

    /// The sealed draft, or nil when the token is missing, altered, older than ``lifetime``, or
    /// made for another form or another viewer.
    func open(_ token: String?, formID: String, owner: String, now: Date = Date()) -> ServiceDraft? {
        guard let json = Seal(secret: secret).open(token, context: Self.context),
            let payload = try? JSONDecoder().decode(Payload.self, from: json),
            payload.form == formID, payload.owner == owner,
            now.timeIntervalSince1970 - TimeInterval(payload.kept) < Self.lifetime
        else { return nil }
        return payload.draft
    }

    private static let context = "fieldwork-draft\u{0}"
}
