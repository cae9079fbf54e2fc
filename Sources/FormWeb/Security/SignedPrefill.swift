import FormStore
import Foundation

/// The values of read-only fields a create view was rendered with, signed so the POST can
/// trust them: HMAC-SHA256 under the server secret over the form id, its version and the values.
///
/// A `prefill="query"` field with `editable="false"` shows what the link said; without the
/// seal, a user could change the hidden value and the server would have no way to tell.
package struct SignedPrefill: Sendable {
    let secret: ServerSecret
    /// The seals made lately: a create view seals the same defaults for every visitor, and the
    /// JSON and MAC of a seal cost a tenth of the page. The secret never changes while the
    /// server runs, so a seal kept stays right.
    private let recent = LockedCache<SealKey, String>(capacity: 256)

    private struct SealKey: Hashable {
        var formID: String
        var version: Int
        var values: [String: [String]]
    }

    package init(secret: ServerSecret) {
        self.secret = secret
    }

    /// `base64url(JSON values).base64url(mac)`; the JSON has sorted keys, so equal values seal equally.
    package func seal(formID: String, version: Int, values: [String: [String]]) -> String {
        recent.value(for: SealKey(formID: formID, version: version, values: values)) {
            Seal(secret: secret).seal(Data(Self.json(values)), context: Self.context(formID: formID, version: version))
        }
    }

    /// The values as JSON, `{"name":["value"]}`, the names sorted so that equal values seal
    /// equally. Made once per distinct values: ``seal(formID:version:values:)`` keeps its seals.
    static func json(_ values: [String: [String]]) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Array((try? encoder.encode(values)) ?? Data("{}".utf8))
    }

    /// The sealed values, or nil when the seal is missing, altered, or made for another form or version.
    package func open(_ seal: String?, formID: String, version: Int) -> [String: [String]]? {
        guard let payload = Seal(secret: secret).open(seal, context: Self.context(formID: formID, version: version))
        else { return nil }
        return try? JSONDecoder().decode([String: [String]].self, from: payload)
    }

    /// NUL separators: no form id, version and payload can run into each other.
    private static func context(formID: String, version: Int) -> String {
        "fieldwork-prefill\u{0}\(formID)\u{0}\(version)\u{0}"
    }
}
