import AsyncHTTPClient
import FormModel
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL

/// A draft-enabled service's drafts, as Fiori elements drives them: activation (with the
/// preparation action first when declared), a draft's update, and its discard.
extension ODataClient {
    /// Makes a draft active as Fiori elements does: the preparation action when declared, then
    /// the activation action. V4 binds them to the draft (`Set(…,IsActiveEntity=false)/ns.Action`);
    /// V2 SAP calls function imports with the key as parameters. Returns the active entity.
    package func activateDraft(
        key: [String: FieldValue], binding: ServiceBinding, kinds: [String: FieldKind] = [:]
    ) async throws(ServiceFailure) -> ODataEntity {
        try await guarded { () async throws(ServiceFailure) in
            guard let draft = binding.draft else {
                throw .notWritable(ODataValueError(property: "", type: "", message: "the entity set is no draft root"))
            }
            if let prepare = draft.prepare {
                let answer = try await draftAction(prepare, key: key, binding: binding)
                try check(answer, binding: binding)
            }
            let answer = try await draftAction(draft.activate, key: key, binding: binding)
            try check(answer, binding: binding)
            return try await entity(answer, binding: binding, kinds: kinds, created: false)
        }
    }

    /// Changes the given fields of a draft (a create kept open after its activation was refused):
    /// the same `PATCH` / `MERGE` as ``update(key:changes:etag:binding:kinds:)``, at the draft's key.
    package func updateDraft(
        key: [String: FieldValue], changes: [String: FieldValue], etag: String?, binding: ServiceBinding,
        kinds: [String: FieldKind] = [:]
    ) async throws(ServiceFailure) -> ChangeAnswer {
        let (keys, values) = draftKey(key, binding: binding)
        var draftBinding = binding
        draftBinding.keys = keys
        return try await update(key: values, changes: changes, etag: etag, binding: draftBinding, kinds: kinds)
    }

    /// Discards a draft (the user cancelled): V4 `DELETE` of the draft, V2 the discard function
    /// import when declared, else `DELETE`.
    package func discardDraft(
        key: [String: FieldValue], etag: String?, binding: ServiceBinding
    ) async throws(ServiceFailure) {
        try await guarded { () async throws(ServiceFailure) in
            let answer: ServiceAnswer
            if binding.version == .v2, let discard = binding.draft?.discard {
                answer = try await draftAction(discard, key: key, binding: binding)
            } else {
                var headers = versionHeaders(binding.version)
                headers.append(("If-Match", etag ?? "*"))
                let (keys, values) = draftKey(key, binding: binding)
                var draftBinding = binding
                draftBinding.keys = keys
                answer = try await change(
                    .DELETE, url: try entityURL(values, binding: draftBinding), headers: headers, body: nil)
            }
            try check(answer, binding: binding)
        }
    }

    /// A draft action bound to the draft (`active` false: activation, preparation, discard) or
    /// to the active entity (the Edit action, with `PreserveChanges` and the ETag the person saw).
    func draftAction(
        _ action: String, key: [String: FieldValue], binding: ServiceBinding, active: Bool = false,
        etag: String? = nil
    ) async throws(ServiceFailure) -> ServiceAnswer {
        let (keys, values) = active ? (binding.keys, key) : draftKey(key, binding: binding)
        var headers = versionHeaders(binding.version)
        if let etag { headers.append(("If-Match", etag)) }
        switch binding.version {
        case .v4:
            var draftBinding = binding
            draftBinding.keys = keys
            let qualified =
                action.contains(".") || binding.namespace.isEmpty ? action : "\(binding.namespace).\(action)"
            let target = try entityURL(
                values, binding: draftBinding, suffix: "/" + PercentEncoding.pathSegment(qualified))
            headers.append(("Content-Type", contentType(.v4)))
            let body = active ? "{\"PreserveChanges\":true}" : "{}"
            return try await change(.POST, url: target, headers: headers, body: Array(body.utf8))
        case .v2:
            var parameters: [(String, String)] = []
            for property in keys {
                guard let value = values[property.name] else {
                    throw .notWritable(
                        ODataValueError(property: property.name, type: property.type, message: "the key has no value"))
                }
                let literal = try writable { () throws(ODataValueError) in
                    try ODataLiteral.write(value, for: property, version: .v2, timeZone: connection.timeZone)
                }
                parameters.append((property.name, literal))
            }
            if active { parameters.append(("PreserveChanges", "true")) }
            return try await change(
                .POST, url: url(PercentEncoding.pathSegment(action), query: parameters), headers: headers, body: nil)
        }
    }

    /// The draft's key: the binding's key with `IsActiveEntity=false`, added when the binding
    /// leaves it out.
    func draftKey(
        _ key: [String: FieldValue], binding: ServiceBinding
    ) -> ([ServiceProperty], [String: FieldValue]) {
        var keys = binding.keys
        if !keys.contains(where: { $0.name == "IsActiveEntity" }) {
            keys.append(ServiceProperty(name: "IsActiveEntity", type: "Edm.Boolean", nullable: false))
        }
        var values = key
        values["IsActiveEntity"] = .bool(false)
        return (keys, values)
    }
}
