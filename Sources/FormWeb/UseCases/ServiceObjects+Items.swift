import FormModel
import FormService
import FormStore
import Foundation

/// Objects with items in their service (`../shared/spec/items.md`, "Connected to the service"):
/// a create is one deep insert where the service keeps no drafts, and the draft flow of Fiori
/// elements for a draft root (the parent's draft, each item posted to the draft's navigation,
/// activation); an edit of a draft root goes through the Edit action, one of an entity without
/// drafts sends the parent's changes and one request per changed item.
extension ServiceObjects {
    /// Whether the values hold items of a list the binding writes to the service.
    static func hasItems(_ values: [String: FieldValue], binding: ServiceBinding) -> Bool {
        guard let compositions = binding.compositions, !compositions.isEmpty else { return false }
        return compositions.keys.contains { !ServiceItemWriter.items(values[$0]).isEmpty }
    }

    /// Creates the object with its items; returns the active entity and where each item lives.
    /// A draft root's draft that cannot be activated is discarded (its refusal's messages placed
    /// under the items they name), as is a draft an earlier refused create kept (`replacing`).
    func createWithItems(
        _ values: [String: FieldValue], record: StoredObject, target: ServiceTarget, requestID: UUID,
        replacing kept: ServiceDraft?, schema: FormSchema
    ) async throws(ServiceFailure) -> (ODataEntity, [String: ServiceLink.Item]) {
        let client = target.client
        let binding = target.binding
        let timeZone = client.connection.timeZone
        let firstSent = record.createdAt ?? Date()
        guard binding.draft != nil else {
            // One deep insert: the parent and every item, every level, in one request.
            var entity = try await client.create(
                values, binding: binding, kinds: target.kinds, requestID: requestID, firstSent: firstSent, deep: true)
            if !Self.holdsItems(entity, of: values, binding: binding) {
                // The answer left them out: read back with them, for their keys.
                entity.items = try await client.read(key: entity.key, binding: binding, expand: true).items
            }
            return (entity, ServiceItemWriter.links(values, entity: entity, binding: binding, timeZone: timeZone))
        }
        if let kept, let key = ServiceKey.decode(kept.key, binding: binding, timeZone: timeZone) {
            try? await client.discardDraft(key: key, etag: nil, binding: binding)
        }
        let draft = try await client.create(
            Self.sendable(values, binding: binding), binding: binding, kinds: target.kinds, requestID: requestID,
            firstSent: firstSent)
        var writer = ServiceItemWriter(client: client, draft: true, links: [:])
        do {
            try await writer.write(old: [:], new: values, parent: draft.key, binding: binding, schema: schema)
            let active = try await client.activateDraft(key: draft.key, binding: binding, kinds: target.kinds)
            return (active, try await activeLinks(active, values: values, known: writer.links, target: target))
        } catch {
            // Nothing of this attempt stays in the service; the person corrects and sends again.
            try? await client.discardDraft(key: draft.key, etag: nil, binding: binding)
            throw writer.placing(error, schema: schema)
        }
    }

    /// Where the items of an activated draft live now: read back with them, each found by its
    /// draft's key. A read that fails leaves them unknown, and a later edit sends them as new.
    private func activeLinks(
        _ active: ODataEntity, values: [String: FieldValue], known: [String: ServiceLink.Item], target: ServiceTarget
    ) async throws(ServiceFailure) -> [String: ServiceLink.Item] {
        let timeZone = target.client.connection.timeZone
        guard let read = try? await target.client.read(key: active.key, binding: target.binding, expand: true)
        else { return [:] }
        return ServiceItemWriter.links(values, entity: read, binding: target.binding, known: known, timeZone: timeZone)
    }

    /// Whether an answer holds every list the values have items in.
    private static func holdsItems(
        _ entity: ODataEntity, of values: [String: FieldValue], binding: ServiceBinding
    )
        -> Bool
    {
        (binding.compositions ?? [:]).keys.allSatisfy { name in
            ServiceItemWriter.items(values[name]).isEmpty || entity.items[name] != nil
        }
    }

    /// An edit of a draft root, as Fiori elements makes it: the Edit action (with the ETag the
    /// person's view showed), the changed fields to the draft, its items changed, added and
    /// removed there, then activation. Any refusal discards the draft: the active object stays as
    /// it was, and the form shows the messages. Returns the active entity and its items' places.
    func editThroughDraft(
        _ object: StoredObject, key: [String: FieldValue], changes: [String: FieldValue], values: [String: FieldValue],
        etag: String?, target: ServiceTarget, schema: FormSchema
    ) async throws(ServiceFailure) -> (ODataEntity, [String: ServiceLink.Item]) {
        let client = target.client
        let binding = target.binding
        let draft = try await client.editDraft(key: key, etag: etag, binding: binding, kinds: target.kinds)
        var writer = ServiceItemWriter(client: client, draft: true, links: object.service?.items ?? [:])
        do {
            if let known = object.service?.items, !known.isEmpty {
                // The draft's items, found by the active ones' keys: a service whose drafts have
                // keys of their own (SAP's V2 drafts, a `DraftUUID`) names them differently.
                let copy = try await client.read(key: draft.key, binding: binding, expand: true)
                writer.links = ServiceItemWriter.links(
                    object.values, entity: copy, binding: binding, known: known, timeZone: client.connection.timeZone)
            }
            if !changes.isEmpty {
                _ = try await client.updateDraft(
                    key: draft.key, changes: changes, etag: draft.etag ?? "*", binding: binding, kinds: target.kinds)
            }
            try await writer.write(
                old: object.values, new: values, parent: draft.key, binding: binding, schema: schema)
            let active = try await client.activateDraft(key: draft.key, binding: binding, kinds: target.kinds)
            guard binding.compositions?.isEmpty == false else { return (active, [:]) }
            return (active, try await activeLinks(active, values: values, known: writer.links, target: target))
        } catch {
            try? await client.discardDraft(key: draft.key, etag: nil, binding: binding)
            throw writer.placing(error, schema: schema)
        }
    }
}

extension ServiceObjects {
    /// An edit of an entity without drafts whose item requests stopped at a failure: the object
    /// is stored as the service now holds it (read back, the items it took keeping the ids they
    /// were sent with, so that sending the form again changes them rather than adding them
    /// twice), the form shows what was sent, and the page says what was applied and what was not.
    func partlyApplied(
        _ failure: ServiceFailure, writer: ServiceItemWriter, object: StoredObject, values: [String: FieldValue],
        link: ServiceLink, etag: String?, parentChanged: Bool, target: ServiceTarget
    ) async throws -> Changed {
        var kept = link
        kept.etag = etag
        kept.items = writer.links
        var partly = object
        partly.values = values
        partly.service = kept
        let (now, notice) = await current(partly, target: target)
        if notice == nil, let read = now.service {
            try await objects.settle(formID: object.formID, id: object.id, link: read, values: now.values)
        } else {
            // Not read back: where the items live is kept, the values as they were.
            try await objects.settle(formID: object.formID, id: object.id, link: kept)
        }
        let done = (parentChanged ? ["the object's own fields changed"] : []) + writer.applied
        var issues: [FieldIssue]
        switch failure {
        case .refused(_, let messages):
            issues = Self.issues(messages, binding: target.binding)
        case .preconditionFailed:
            issues = [
                FieldIssue(
                    field: "", code: .service,
                    message:
                        "Someone changed an item of this object in the service since you opened it. Open the object again to see it as it is now."
                )
            ]
        case .notFound:
            issues = [
                FieldIssue(
                    field: "", code: .service,
                    message:
                        "The service no longer has an item you changed. Open the object again to see its items as they are now."
                )
            ]
        default:
            guard !done.isEmpty else { return .away(Self.awayMessage(failure)) }
            issues = [
                FieldIssue(
                    field: "", code: .service,
                    message: "The service did not answer while the items were sent. Send the form again to try again.")
            ]
        }
        if !done.isEmpty {
            issues.insert(
                FieldIssue(
                    field: "", code: .service,
                    message:
                        "The service took part of this change (\(done.joined(separator: ", "))) and not the rest. Everything you entered is kept: correct it and save again to send what is left."
                ), at: 0)
        }
        return .refused(issues)
    }
}
