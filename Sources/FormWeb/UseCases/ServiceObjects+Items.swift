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

    /// What a create with items came to: the active entity and where each item lives, or a
    /// draft kept open after a refusal (with the refusal's messages, placed under the items they
    /// name) for the corrected form to go on with.
    enum ItemsCreate {
        case created(ODataEntity, [String: ServiceLink.Item])
        case kept(ServiceDraft, [ServiceMessage])
    }

    /// Creates the object with its items. For a draft root, as Fiori elements does: the parent's
    /// draft, each item posted to its navigation, activation. A refusal keeps the draft open for
    /// the corrected form when `keepsRefused` (the browser's create view; its Cancel discards
    /// it), else discards it; a draft an earlier refusal kept (`replacing`) is gone on with: its
    /// fields changed, its items changed, added and removed to match the form's, then activated
    /// again (a new draft when the service no longer has it).
    func createWithItems(
        _ values: [String: FieldValue], record: StoredObject, target: ServiceTarget, requestID: UUID,
        replacing kept: ServiceDraft?, keepsRefused: Bool, schema: FormSchema
    ) async throws(ServiceFailure) -> ItemsCreate {
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
            return .created(
                entity, ServiceItemWriter.links(values, entity: entity, binding: binding, timeZone: timeZone))
        }
        var draft: ODataEntity
        var old: [String: FieldValue] = [:]
        var writer = ServiceItemWriter(client: client, draft: true, links: [:])
        if let kept, let goneOn = try await Self.goOn(kept, with: values, target: target) {
            (draft, old, writer.links) = goneOn
        } else {
            draft = try await client.create(
                Self.sendable(values, binding: binding), binding: binding, kinds: target.kinds, requestID: requestID,
                firstSent: firstSent)
        }
        do {
            try await writer.write(old: old, new: values, parent: draft.key, binding: binding, schema: schema)
            let active = try await client.activateDraft(key: draft.key, binding: binding, kinds: target.kinds)
            return .created(active, try await activeLinks(active, values: values, known: writer.links, target: target))
        } catch {
            let placed = writer.placing(error, schema: schema)
            if keepsRefused, case .refused(_, let messages) = placed {
                let key = ServiceKey.encode(draft.key, binding: binding, timeZone: timeZone)
                let items = ServiceItemWriter.byPath(values, links: writer.links)
                return .kept(ServiceDraft(key: key, etag: nil, items: items), messages)
            }
            // Nothing of this attempt stays in the service.
            try? await client.discardDraft(key: draft.key, etag: nil, binding: binding)
            throw placed
        }
    }

    /// A kept draft changed to `values` (the parent's fields), and its items as it holds them,
    /// each under the id of the form's item at its path (``ServiceDraft/items``), with their
    /// places: what the items are written against. Nil when the service no longer has the draft
    /// (discarded elsewhere, or past its lifetime): the create makes a new one.
    private static func goOn(
        _ kept: ServiceDraft, with values: [String: FieldValue], target: ServiceTarget
    ) async throws(ServiceFailure) -> (ODataEntity, [String: FieldValue], [String: ServiceLink.Item])? {
        let client = target.client
        let binding = target.binding
        let timeZone = client.connection.timeZone
        guard let key = ServiceKey.decode(kept.key, binding: binding, timeZone: timeZone) else { return nil }
        do {
            let held = try await client.read(key: key, binding: binding, expand: true)
            let links = ServiceItemWriter.byID(values, paths: kept.items ?? [:])
            let (old, known) = ServiceItemWriter.refreshed(
                values, entity: held, binding: binding, links: links, timeZone: timeZone)
            let changed = try await client.updateDraft(
                key: key, changes: sendable(values, binding: binding), etag: held.etag ?? "*", binding: binding,
                kinds: target.kinds)
            return (ODataEntity(values: values, key: key, etag: changed.etag), old, known)
        } catch .notFound {
            return nil
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
