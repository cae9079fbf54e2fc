import FormModel
import FormXML
import Foundation

/// Who submits an XForm's instance, when, and what it replaces: the values of its preloads and
/// its `meta` ids, by the mapping's "Preloads and meta" (as ODK Collect fills them).
package struct XFormMeta: Sendable {
    /// When the form was shown (`timestamp start`); the host's clock when unknown.
    package var started: Date?
    /// The account's name and email (`property username` / `email`).
    package var username: String?
    package var email: String?
    /// The instance an edit replaces, as XML: its `instanceID` becomes the new one's
    /// `deprecatedID`, and what was filled when it was first made (`start`, `today`, the
    /// account) stays.
    package var previous: String?
    /// The new instance's id; nil makes one, `uuid:` and a random UUID.
    package var instanceID: String?

    package init(
        started: Date? = nil, username: String? = nil, email: String? = nil, previous: String? = nil,
        instanceID: String? = nil
    ) {
        self.started = started
        self.username = username
        self.email = email
        self.previous = previous
        self.instanceID = instanceID
    }

    /// With an instance id, made when none was given.
    func identified() -> XFormMeta {
        var meta = self
        if meta.instanceID == nil { meta.instanceID = "uuid:" + UUID().uuidString.lowercased() }
        return meta
    }

    /// A preload's value: `kept` is the node's value in the instance an edit replaces.
    func value(of preload: XFormPreload, kept: String?, host: any XPathHost) -> String {
        let kept = kept.flatMap { $0.isEmpty ? nil : $0 }
        switch (preload.preload, preload.params ?? "") {
        case ("uid", _):
            return instanceID ?? ""
        case ("timestamp", "start"):
            return kept ?? ODKLexical.dateTime(at: started ?? host.now, in: host.timeZone)
        case ("timestamp", "end"):
            return ODKLexical.dateTime(at: host.now, in: host.timeZone)
        case ("date", "today"):
            return kept ?? ODKLexical.date(at: host.now, in: host.timeZone)
        case ("property", "username"):
            return kept ?? username ?? ""
        case ("property", "email"):
            return kept ?? email ?? ""
        default:
            // Nothing to fill it from here (a device id, a patient): what the edited one held.
            return kept ?? ""
        }
    }

    /// Writes the instance's `meta/instanceID` (adding `meta` and the id when the form has none,
    /// as ODK tools expect one) and, for an edit, `meta/deprecatedID`; returns the id's node.
    func identify(_ instance: XPathDocument, previous: XPathDocument?) -> XPathNode? {
        guard let root = instance.root else { return nil }
        let meta = root.child("meta") ?? root.appendElement("meta")
        let id = meta.child("instanceID") ?? meta.appendElement("instanceID")
        // A new id for a new instance and for each edit (a calculated one is computed later).
        if id.text.isEmpty || previous != nil { id.text = instanceID ?? "" }
        if let old = previous?.root?.child("meta")?.child("instanceID")?.text, !old.isEmpty {
            let deprecated = meta.child("deprecatedID") ?? meta.appendElement("deprecatedID", namespaceOf: id)
            deprecated.text = old
        }
        return id
    }
}
