import FormModel
import FormService
import FormStore
import Foundation
import Logging

/// A draft a refused activation left open in the service, for the corrected create to go on
/// with: its key (``ServiceKey`` JSON) and ETag, and where its items live, by their paths in the
/// refused form (`_Booking[1]`, `_Booking[1]._BookSupplement[0]`): the corrected form's items
/// take the places at their paths (the draft is this create's own, so which of its items holds
/// which values does not matter, only that it ends holding the form's).
struct ServiceDraft: Sendable, Hashable, Codable {
    var key: String
    var etag: String?
    var items: [String: ServiceLink.Item]? = nil
}

/// What a form shown again goes on from in the service: the draft a refused activation kept
/// (a create), or the ETag of the values it now shows (an edit that met a 412).
struct ServiceContinuation: Sendable, Hashable {
    var draft: ServiceDraft?
    var etag: String?

    init(draft: ServiceDraft? = nil, etag: String? = nil) {
        self.draft = draft
        self.etag = etag
    }

    /// An ETag a page sent back, when it can be one: printable ASCII, no longer than services
    /// write them; anything else is no ETag (it would only defeat the sender's own check).
    static func etag(sent text: String?) -> String? {
        guard let text, !text.isEmpty, text.utf8.count <= 512,
            text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F })
        else { return nil }
        return text
    }
}

/// Writing the objects of a form in mode `service` into its OData service
/// (`../shared/spec/odata-service.md`, "Writing objects"), after ``ObjectSubmissions`` validated
/// them. A create is recorded before it is sent (the object row in state `sending`, with its
/// one-time key and its `Repeatability-Request-ID`), so a repeat finds it and waits for its
/// outcome, and a create whose answer was lost is left `unknown`, never sent again by itself.
struct ServiceObjects: Sendable {
    let objects: ObjectStore
    /// The form's webhooks, which hear of a create, an edit or a delete once the service took it.
    var webhooks: Webhooks? = nil

    /// How long a repeat of a create waits for the first one's outcome.
    static let repeatWait: Duration = .seconds(15)

    /// What the service made of a valid submission.
    enum Written: Sendable {
        case created(StoredObject)
        /// Refused: its messages, under their fields (or with an empty field, for the summary),
        /// and the draft the refused activation left open when it is kept for the corrected create.
        case refused([FieldIssue], draft: ServiceDraft? = nil)
        /// Not answered (no connection, time-out before sending, 5xx): nothing was created.
        case away(String)
        /// Sent, answer lost: the object row says `unknown`.
        case unknown(StoredObject)
    }

    /// Sends a create recorded as `record` and settles the record by the answer.
    /// - Parameters:
    ///   - draft: the draft an earlier refused activation of this create kept open: changed to
    ///     these values and activated again, in place of a new draft (a new one when it is gone).
    ///   - keepsRefusedDraft: whether a draft whose activation the service refused stays open for
    ///     the corrected form (the browser's create view, which discards it on Cancel, as Fiori
    ///     elements does); otherwise it is discarded at once (the JSON API has no Cancel). An object
    ///     with items keeps its items in it (``createWithItems(_:record:target:requestID:replacing:keepsRefused:schema:)``).
    ///   - schema: the form's, for the names of its items in messages.
    func send(
        _ record: StoredObject, values: [String: FieldValue], target: ServiceTarget, requestID: UUID,
        draft: ServiceDraft? = nil, keepsRefusedDraft: Bool = false, schema: FormSchema
    ) async throws
        -> Written
    {
        let client = target.client
        let binding = target.binding
        let sendable = Self.sendable(values, binding: binding)
        // A kept draft holding items goes on as one with items, even when the form now has none:
        // its items are removed before it is activated again.
        let withItems = Self.hasItems(values, binding: binding) || draft?.items?.isEmpty == false
        do {
            var entity: ODataEntity
            var itemLinks: [String: ServiceLink.Item] = [:]
            if withItems {
                switch try await createWithItems(
                    values, record: record, target: target, requestID: requestID, replacing: draft,
                    keepsRefused: keepsRefusedDraft, schema: schema)
                {
                case .created(let active, let links):
                    (entity, itemLinks) = (active, links)
                case .kept(let kept, let messages):
                    try await objects.delete(formID: record.formID, id: record.id)
                    return .refused(Self.issues(messages, binding: binding), draft: kept)
                }
            } else if binding.draft != nil, let draft,
                let kept = try await Self.goOn(draft, with: sendable, target: target)
            {
                entity = kept
            } else {
                entity = try await client.create(
                    sendable, binding: binding, kinds: target.kinds, requestID: requestID,
                    firstSent: record.createdAt ?? Date())
            }
            if binding.draft != nil, !withItems {
                let activation: Result<ODataEntity, ServiceFailure>
                do {
                    activation = .success(
                        try await client.activateDraft(key: entity.key, binding: binding, kinds: target.kinds))
                } catch {
                    activation = .failure(error)
                }
                switch activation {
                case .success(let active):
                    entity = active
                case .failure(.refused(_, let messages)) where keepsRefusedDraft:
                    try await objects.delete(formID: record.formID, id: record.id)
                    let kept = ServiceDraft(
                        key: ServiceKey.encode(entity.key, binding: binding, timeZone: client.connection.timeZone),
                        etag: entity.etag)
                    return .refused(Self.issues(messages, binding: binding), draft: kept)
                case .failure(let failure):
                    // A draft no one will correct (or whose activation got no answer): discarded,
                    // so that nothing of this attempt stays in the service.
                    try? await client.discardDraft(key: entity.key, etag: entity.etag, binding: binding)
                    throw failure
                }
            }
            var stored = values
            for (name, value) in entity.values where binding.fields[name] != nil { stored[name] = value }
            let key = ServiceKey.encode(entity.key, binding: binding, timeZone: client.connection.timeZone)
            let link = ServiceLink(state: .created, key: key, requestID: requestID, etag: entity.etag, items: itemLinks)
            // The parent page lists each object with its key in the service.
            let shownKey = ServiceKey.display(key, binding: binding)
            let keyText =
                shownKey.isEmpty || shownKey == record.keyText
                ? record.keyText : record.keyText.isEmpty ? shownKey : "\(record.keyText) (\(shownKey))"
            // Announced once the service holds it: the link settles and the events are written together.
            let announce = try await webhooks.announcing(.created, formID: record.formID)
            try await objects.settle(
                formID: record.formID, id: record.id, link: link, values: stored, keyText: keyText,
                alongside: announce)
            webhooks.committed(announce)
            var created = record
            created.values = stored
            created.service = link
            created.keyText = keyText
            FieldworkMetrics.objectCreated()
            return .created(created)
        } catch let failure as ServiceFailure {
            switch failure {
            case .refused(_, let messages):
                try await objects.delete(formID: record.formID, id: record.id)
                // A create with items discarded its draft when it kept none (createWithItems).
                return .refused(Self.issues(messages, binding: binding), draft: withItems ? nil : draft)
            case .notWritable(let error):
                try await objects.delete(formID: record.formID, id: record.id)
                return .refused([
                    FieldIssue(
                        field: binding.field(forProperty: error.property) ?? "", code: .service,
                        message: "The service cannot take this value: \(error.message).")
                ])
            case .unreachable, .redirectRefused, .notFound:
                try await objects.delete(formID: record.formID, id: record.id)
                return .away(Self.awayMessage(failure))
            case .outcomeUnknown, .badAnswer, .answerTooLarge, .preconditionFailed:
                var link = record.service ?? ServiceLink(state: .unknown, requestID: requestID)
                link.state = .unknown
                try await objects.settle(
                    formID: record.formID, id: record.id, link: link, keyText: "\(record.keyText) (outcome unknown)")
                var unknown = record
                unknown.service = link
                return .unknown(unknown)
            }
        }
    }

    /// The kept draft changed to `values`, ready to activate again; nil when the service no
    /// longer has it (discarded elsewhere, or past the service's draft lifetime): a new one is made.
    private static func goOn(
        _ draft: ServiceDraft, with values: [String: FieldValue], target: ServiceTarget
    ) async throws(ServiceFailure) -> ODataEntity? {
        let client = target.client
        guard let key = ServiceKey.decode(draft.key, binding: target.binding, timeZone: client.connection.timeZone)
        else { return nil }
        do {
            let changed = try await client.updateDraft(
                key: key, changes: values, etag: draft.etag, binding: target.binding, kinds: target.kinds)
            return ODataEntity(values: changed.entity?.values ?? values, key: key, etag: changed.etag ?? draft.etag)
        } catch .notFound, .preconditionFailed {
            // Gone, or changed by someone else since: this create goes on with a draft of its own.
            return nil
        }
    }

    /// Discards a kept draft (the user cancelled the create); a failure is logged, not shown.
    static func discard(_ draft: ServiceDraft, target: ServiceTarget, logger: Logger) async {
        let client = target.client
        guard let key = ServiceKey.decode(draft.key, binding: target.binding, timeZone: client.connection.timeZone)
        else { return }
        do {
            try await client.discardDraft(key: key, etag: draft.etag, binding: target.binding)
        } catch .notFound {
            return
        } catch {
            logger.warning("A kept draft was not discarded", metadata: ["error": "\(error)"])
        }
    }

    /// What a repeat of a create whose row is still `sending` is answered: the row once the first
    /// request settled it, or the row as it is after ``repeatWait``.
    func awaitOutcome(of object: StoredObject) async throws -> StoredObject {
        var current = object
        let deadline = ContinuousClock.now + Self.repeatWait
        while current.service?.state == .sending, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(200))
            guard let again = try await objects.find(formID: object.formID, id: object.id) else { return current }
            current = again
        }
        return current
    }

    /// The values the service is sent: the fields that stand for properties, never files.
    static func sendable(_ values: [String: FieldValue], binding: ServiceBinding) -> [String: FieldValue] {
        values.filter { name, value in
            guard let property = binding.fields[name], !property.computed else { return false }
            if case .files = value { return false }
            return true
        }
    }

    /// The service's messages as issues: under the field a message targets, else for the summary.
    static func issues(_ messages: [ServiceMessage], binding: ServiceBinding) -> [FieldIssue] {
        var issues: [FieldIssue] = []
        for message in messages where message.severity != .info && message.severity != .success {
            let field = message.field ?? message.target.flatMap { binding.field(forProperty: $0) } ?? ""
            let issue = FieldIssue(field: field, code: .service, message: message.message)
            if !issues.contains(issue) { issues.append(issue) }
        }
        if issues.isEmpty {
            issues.append(
                FieldIssue(field: "", code: .service, message: "The service refused the object without saying why."))
        }
        return issues
    }

    /// The message of a service that did not answer; the failure itself goes to the log.
    static func awayMessage(_ failure: ServiceFailure) -> String {
        "The service that keeps these objects did not answer, so nothing was created. Everything you entered is kept: send the form again to try again."
    }
}

extension ServiceObjects {
    /// An object of a form in mode `service` as the service holds it now, with what the page must
    /// say when it could not be read: the values it had when last read, then.
    func current(_ object: StoredObject, target: ServiceTarget) async -> (object: StoredObject, notice: String?) {
        guard let link = object.service else { return (object, nil) }
        switch link.state {
        case .sending:
            return (
                object,
                "This object is being sent to the service; the values below are those sent. Open it again in a moment."
            )
        case .unknown:
            return (object, Self.unknownNotice(object))
        case .created:
            break
        }
        let timeZone = target.client.connection.timeZone
        guard let keyText = link.key, let key = ServiceKey.decode(keyText, binding: target.binding, timeZone: timeZone)
        else {
            return (object, "This object's key in the service cannot be read; the values below are those last read.")
        }
        do {
            let withItems = target.binding.compositions?.isEmpty == false
            let entity = try await target.client.read(
                key: key, binding: target.binding, kinds: target.kinds, expand: withItems)
            var updated = object
            for name in target.binding.fields.keys {
                if let value = entity.values[name] { updated.values[name] = value } else { updated.values[name] = nil }
            }
            updated.service?.etag = entity.etag ?? link.etag
            if withItems {
                // The items too, each keeping its id: an edit from here changes the right ones.
                let (values, links) = ServiceItemWriter.refreshed(
                    updated.values, entity: entity, binding: target.binding, links: link.items, timeZone: timeZone)
                updated.values = values
                updated.service?.items = links
            }
            return (updated, nil)
        } catch .notFound {
            return (object, "The service no longer has this object; the values below are those last read.")
        } catch {
            return (
                object,
                "The service did not answer; the values below are those last read. Open the object again to try again."
            )
        }
    }

    /// What a page says of a create whose answer was lost.
    static func unknownNotice(_ object: StoredObject) -> String {
        let request = object.service?.requestID.map { " Its request id is \($0.uuidString.lowercased())." } ?? ""
        return
            "This object was sent to the service and the answer was lost: it may or may not exist there. It is not sent again by itself; an administrator can look for it in the service.\(request)"
    }

    /// What became of an edit or a delete sent to the service.
    enum Changed: Sendable {
        case done(StoredObject)
        case refused([FieldIssue])
        /// 412: someone changed the object in the service since it was read; its values now.
        case changedMeanwhile(StoredObject)
        case away(String)
    }

    /// Sends the changed fields of an edit (`PATCH` / `MERGE` with `If-Match`): the ETag the edit
    /// view showed when given, so that a save over someone else's later change meets a 412,
    /// else the one last read. A draft root's edit goes through its Edit action
    /// (``editThroughDraft(_:key:changes:values:etag:target:schema:)``); the items of an entity
    /// without drafts follow its own change, one request each.
    func update(
        _ object: StoredObject, values: [String: FieldValue], target: ServiceTarget, etag shown: String? = nil,
        schema: FormSchema
    ) async throws -> Changed {
        guard let link = object.service, link.state == .created, let keyText = link.key,
            let key = ServiceKey.decode(keyText, binding: target.binding, timeZone: target.client.connection.timeZone)
        else { return .refused([FieldIssue(field: "", code: .service, message: Self.notInService)]) }
        var changes: [String: FieldValue] = [:]
        for (name, property) in target.binding.fields where !property.computed {
            let new = values[name]
            guard new != object.values[name] else { continue }
            if case .files = new { continue }
            // A value emptied stays in the service: an edit sends values, never nulls.
            if let new { changes[name] = new }
        }
        let sendable = Self.sendable(changes, binding: target.binding)
        var etag = link.etag
        var itemLinks = link.items
        let itemsChanged = (target.binding.compositions ?? [:]).keys.contains { values[$0] != object.values[$0] }
        if target.binding.draft?.edit != nil, !sendable.isEmpty || itemsChanged {
            do {
                let (active, links) = try await editThroughDraft(
                    object, key: key, changes: sendable, values: values, etag: shown ?? link.etag, target: target,
                    schema: schema)
                etag = active.etag ?? etag
                // Where the items live now (none for an object without items).
                itemLinks = links
            } catch {
                return try await changeFailure(error, object: object, link: link, target: target)
            }
        } else if target.binding.draft?.edit == nil {
            if !sendable.isEmpty {
                do {
                    let answer = try await target.client.update(
                        key: key, changes: sendable, etag: shown ?? link.etag, binding: target.binding,
                        kinds: target.kinds)
                    etag = answer.etag ?? answer.entity?.etag ?? etag
                } catch {
                    return try await changeFailure(error, object: object, link: link, target: target)
                }
            }
            if itemsChanged {
                var writer = ServiceItemWriter(client: target.client, draft: false, links: link.items)
                do {
                    try await writer.write(
                        old: object.values, new: values, parent: key, binding: target.binding, schema: schema)
                    itemLinks = writer.links
                } catch {
                    return try await partlyApplied(
                        writer.placing(error, schema: schema), writer: writer, object: object, values: values,
                        link: link, etag: etag, parentChanged: !sendable.isEmpty, target: target)
                }
            }
        }
        do {
            var updated = object
            updated.values = values
            updated.service?.etag = etag
            updated.service?.items = itemLinks
            var newLink = link
            newLink.etag = etag
            newLink.items = itemLinks
            let announce = try await webhooks.announcing(.updated, formID: object.formID)
            try await objects.settle(
                formID: object.formID, id: object.id, link: newLink, values: values, alongside: announce)
            webhooks.committed(announce)
            return .done(updated)
        }
    }

    /// Deletes the entity (`DELETE` with `If-Match`: the ETag the client last saw when given,
    /// else the one last read); the object row goes once the service agreed.
    func delete(_ object: StoredObject, target: ServiceTarget, etag shown: String? = nil) async throws -> Changed {
        guard let link = object.service, link.state == .created, let keyText = link.key,
            let key = ServiceKey.decode(keyText, binding: target.binding, timeZone: target.client.connection.timeZone)
        else {
            // Never created there (or unknown): only Fieldwork's record goes, announced only when
            // its create was (a key that no longer reads).
            let announced = object.service?.state == .created
            let announce = announced ? try await webhooks.announcing(.deleted, formID: object.formID) : nil
            if try await objects.delete(formID: object.formID, id: object.id, alongside: announce) {
                webhooks.committed(announce)
            }
            return .done(object)
        }
        do {
            try await target.client.delete(key: key, etag: shown ?? link.etag, binding: target.binding)
        } catch .notFound {
            // Gone already: so is the record.
        } catch let failure {
            return try await changeFailure(failure, object: object, link: link, target: target)
        }
        let announce = try await webhooks.announcing(.deleted, formID: object.formID)
        if try await objects.delete(formID: object.formID, id: object.id, alongside: announce) {
            webhooks.committed(announce)
        }
        return .done(object)
    }

    private func changeFailure(
        _ failure: ServiceFailure, object: StoredObject, link: ServiceLink, target: ServiceTarget
    ) async throws -> Changed {
        switch failure {
        case .preconditionFailed(let current):
            var updated = object
            var newLink = link
            if let current {
                for name in target.binding.fields.keys { updated.values[name] = current.values[name] }
                newLink.etag = current.etag
                updated.service = newLink
                try await objects.settle(formID: object.formID, id: object.id, link: newLink, values: updated.values)
            }
            return .changedMeanwhile(updated)
        case .refused(_, let messages):
            return .refused(Self.issues(messages, binding: target.binding))
        case .notWritable(let error):
            return .refused([
                FieldIssue(
                    field: target.binding.field(forProperty: error.property) ?? "", code: .service,
                    message: "The service cannot take this value: \(error.message).")
            ])
        case .notFound:
            return .refused([FieldIssue(field: "", code: .service, message: "The service no longer has this object.")])
        default:
            return .away(
                "The service that keeps this object did not answer, so nothing was changed. Everything you entered is kept: send the form again to try again."
            )
        }
    }

    static let notInService =
        "This object is not in the service (its create's outcome is unknown), so it cannot be changed here."
}
