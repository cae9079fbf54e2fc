import FormModel
import Foundation
import NIOHTTP1

/// An object's items in the service (`../shared/spec/items.md`, "Connected to the service"):
/// reading them with their parent, creating one through its parent's navigation property, and
/// the Edit action that makes a draft of an active object (its items with it) for an edit.
extension ODataClient {
    /// The `$expand` of every composition of a binding, every level: V4 nests the options
    /// (`_Booking($expand=_BookSupplement)`), V2 writes paths (`to_Item,to_Item/to_Line`).
    static func expansion(_ binding: ServiceBinding, version: ODataVersion) -> String {
        let compositions = (binding.compositions ?? [:]).values.sorted { $0.navigation < $1.navigation }
        var parts: [String] = []
        for composition in compositions {
            let inner = expansion(composition.binding, version: version)
            switch version {
            case .v4:
                parts.append(inner.isEmpty ? composition.navigation : "\(composition.navigation)($expand=\(inner))")
            case .v2:
                parts.append(composition.navigation)
                for path in inner.split(separator: ",") { parts.append("\(composition.navigation)/\(path)") }
            }
        }
        return parts.joined(separator: ",")
    }

    /// Creates one item through its parent's navigation property
    /// (`Travel(TravelUUID=…,IsActiveEntity=false)/_Booking`): a child of the parent's draft when
    /// `draft`, else of the active parent. Returns the item as the service answered it.
    package func createItem(
        _ values: [String: FieldValue], composition: ServiceComposition, parent key: [String: FieldValue],
        parentBinding: ServiceBinding, draft: Bool
    ) async throws(ServiceFailure) -> ODataEntity {
        try await guarded { () async throws(ServiceFailure) in
            let binding = composition.binding
            let json = connection.json(binding.version)
            let body = try writable { () throws(ODataValueError) in try json.body(values, binding: binding) }
            var headers = versionHeaders(binding.version) + [("Content-Type", contentType(binding.version))]
            if binding.version == .v4 { headers.append(("Prefer", "return=representation")) }
            var at = parentBinding
            var keyValues = key
            if draft { (at.keys, keyValues) = draftKey(key, binding: parentBinding) }
            let target = try entityURL(
                keyValues, binding: at, suffix: "/" + PercentEncoding.pathSegment(composition.navigation))
            let answer = try await change(.POST, url: target, headers: headers, body: body)
            try check(answer, binding: binding)
            return try await entity(answer, binding: binding, kinds: [:], created: true)
        }
    }

    /// Deletes one item: of the parent's draft when `draft` (at its draft key, `If-Match: *` when
    /// no ETag is known, as the draft is this edit's own), else the active item with its ETag.
    package func deleteItem(
        key: [String: FieldValue], etag: String?, binding: ServiceBinding, draft: Bool
    ) async throws(ServiceFailure) {
        guard draft else { return try await delete(key: key, etag: etag, binding: binding) }
        var at = binding
        let keyValues: [String: FieldValue]
        (at.keys, keyValues) = draftKey(key, binding: binding)
        try await delete(key: keyValues, etag: etag ?? "*", binding: at)
    }

    /// The Edit action, as Fiori elements calls it before an edit of a draft root: a draft of
    /// the active entity with its items, `If-Match` the ETag the person's view showed (a 412
    /// reads the entity back), `PreserveChanges` so that a draft someone already has is not
    /// taken over (the service refuses, 409). Returns the draft, which takes the changes and is
    /// then activated (``activateDraft(key:binding:kinds:)``) or discarded.
    package func editDraft(
        key: [String: FieldValue], etag: String?, binding: ServiceBinding, kinds: [String: FieldKind] = [:]
    ) async throws(ServiceFailure) -> ODataEntity {
        try await guarded { () async throws(ServiceFailure) in
            guard let edit = binding.draft?.edit else {
                throw .notWritable(
                    ODataValueError(property: "", type: "", message: "the draft root declares no Edit action"))
            }
            let answer = try await draftAction(edit, key: key, binding: binding, active: true, etag: etag)
            if answer.status == 412 {
                throw .preconditionFailed(current: await current(key, binding: binding, kinds: kinds))
            }
            try check(answer, binding: binding)
            return try await entity(answer, binding: binding, kinds: kinds, created: false)
        }
    }
}
