import FormModel
import FormStore
import Foundation
import Hummingbird
import Logging

/// Creating and updating objects from a submission, whichever transport brought it: the
/// browser's form (``CreateController``, ``ObjectController``) or the JSON API
/// (``ObjectAPIController``). The callers only translate the request into a ``Submission`` and
/// the ``Outcome`` into a response; this decides the read-only fields' values, validates,
/// stores the object and makes the files the object's, in one transaction.
struct ObjectSubmissions: Sendable {
    let objects: ObjectStore
    let attachments: AttachmentStore
    /// The value helps of forms in mode `service`, which judge their fields' values.
    var valueHelps = ServiceValueHelps()
    /// The forms' webhooks: each committed create, update and delete writes its events in its
    /// own transaction.
    var webhooks: Webhooks?

    /// What became of a submission.
    enum Outcome: Sendable {
        /// Committed: the new or updated object; for a create whose one-time key was used
        /// already, the object that first create stored.
        case stored(StoredObject)
        /// An API create's `Idempotency-Key` was used before with another body: nothing stored.
        case keyReused
        /// Refused, nothing stored: every issue in form order, and the server's values of the
        /// read-only fields, which the form shows again in place of whatever was sent. For a form
        /// in mode `service`, also the service's refusal: its messages under their fields, those
        /// about no field with an empty field name, for the summary, and what the form shown
        /// again goes on from in the service (``ServiceContinuation``), when that changed.
        case refused(ValidationResult, serverValues: [String: [String]], service: ServiceContinuation? = nil)
        /// A form in mode `service` whose service did not answer: nothing was created.
        case serviceAway(String)
        /// A form in mode `service` whose create was sent and whose answer was lost: the object
        /// row says so (``ServiceLink/State/unknown``); it is never sent again by itself.
        case outcomeUnknown(StoredObject)
    }

    /// Creates an object of the form's latest version.
    /// - Parameters:
    ///   - readOnlyValues: the values the create view gave its read-only fields (the seal it
    ///     carried), else the form's defaults; whatever was submitted for them is ignored.
    ///   - readIssues: what the transport could not even turn into a field's strings (a JSON
    ///     value of no form type); any of them refuses the submission, listed first.
    ///   - once: the create's one-time key: a double click, a resubmission after a timeout or
    ///     the same key on two instances stores one object, and each later request gets it.
    ///   - draft: for a form in mode `service`, the draft an earlier refused activation of this
    ///     create kept open, and whether a refused activation keeps one (the browser's create view).
    func create(
        _ submission: Submission, form: PreparedForm, viewer: Viewer, readOnlyValues: [String: [String]],
        readIssues: [FieldIssue] = [], once: OnceKey? = nil, service: ServiceTarget? = nil,
        draft: (kept: ServiceDraft?, keepsRefused: Bool) = (nil, false)
    ) async throws -> Outcome {
        // A used key is found when its row refuses the insert below, so a first create (nearly
        // every create) costs no extra query.
        var submission = submission
        let (serverValues, shown) = await filling(&submission, form: form, known: readOnlyValues, service: service)
        var context = ValidationContext(mode: .create, serverValues: serverValues, clock: form.clock())
        context.requiredByRules = form.rules != nil
        var result = await Self.validated(form.schema, submission, context: context)
        let instance = await judging(
            &result, form: form, session: RuleSession(form, viewer: viewer, sealed: readOnlyValues))
        result.issues = readIssues + result.issues
        guard result.isValid else {
            FieldworkMetrics.submissionRefused(.create)
            return .refused(result, serverValues: shown)
        }
        // Every item new: none keeps an id a client chose.
        result.values = FieldValue.assigningItemIDs(result.values)
        let fileIDs = Self.fileIDs(result.values)
        let owner = viewer.ownerKey
        if let service {
            // The service's value helps judge their fields' values before anything is recorded.
            await valueHelps.check(&result, schema: form.schema, target: service)
            guard result.isValid else {
                FieldworkMetrics.submissionRefused(.create)
                return .refused(result, serverValues: shown, service: ServiceContinuation(draft: draft.kept))
            }
            return try await createInService(
                result, form: form, viewer: viewer, once: once, target: service, fileIDs: fileIDs,
                serverValues: shown, draft: draft)
        }
        do {
            // The files become the object's, and its events are written, in the object's own transaction.
            let claim = claiming(fileIDs, owner: owner)
            let announce = try await webhooks.announcing(.created, formID: form.formID)
            let object = try await objects.create(
                formID: form.formID, version: form.version, values: result.values,
                keyText: InputStrings.keyText(result.values, schema: form.schema), creator: viewer.creator, once: once,
                instance: instance, alongside: joined(claim, announce))
            webhooks.committed(announce)
            FieldworkMetrics.objectCreated()
            return .stored(object)
        } catch {
            guard let once else { throw error }
            return try await Self.afterFailedCreate(error) { try await firstCreate(once) }
        }
    }

    /// A valid create of a form in mode `service`: recorded, then sent (``ServiceObjects``). The
    /// files stay in Fieldwork, the object's.
    private func createInService(
        _ result: ValidationResult, form: PreparedForm, viewer: Viewer, once: OnceKey?, target: ServiceTarget,
        fileIDs: [String], serverValues: [String: [String]], draft: (kept: ServiceDraft?, keepsRefused: Bool)
    ) async throws -> Outcome {
        let attachments = attachments
        let owner = viewer.ownerKey
        let requestID = UUID()
        let writer = ServiceObjects(objects: objects, webhooks: webhooks)
        var record: StoredObject?
        for _ in 0..<2 where record == nil {
            do {
                record = try await objects.create(
                    formID: form.formID, version: form.version, values: result.values,
                    keyText: InputStrings.keyText(result.values, schema: form.schema), creator: viewer.creator,
                    once: once, service: ServiceLink(state: .sending, requestID: requestID))
            } catch {
                // The key was used: the first create's outcome is the answer, once it has one. When
                // that create was refused meanwhile, its key is free again: try once more.
                guard let once, !DatabaseOutage.isOutage(error) else { throw error }
                guard let first = try await objects.object(once: once) else { continue }
                guard first.fingerprint == once.fingerprint else { return .keyReused }
                let settled = try await writer.awaitOutcome(of: first.object)
                return settled.service?.state == .created ? .stored(settled) : .outcomeUnknown(settled)
            }
        }
        guard let record else { throw ServiceObjectsError.notRecorded }
        switch try await writer.send(
            record, values: result.values, target: target, requestID: requestID, draft: draft.kept,
            keepsRefusedDraft: draft.keepsRefused, schema: form.schema)
        {
        case .created(let object):
            // The files become the object's once the service holds it: a refusal keeps them staged
            // for the form shown again.
            if !fileIDs.isEmpty {
                try await objects.update(
                    formID: object.formID, id: object.id, values: object.values, keyText: object.keyText
                ) { transaction, objectID in
                    try await attachments.claim(ids: fileIDs, owner: owner, objectID: objectID, in: transaction)
                }
            }
            return .stored(object)
        case .refused(let issues, let kept):
            FieldworkMetrics.submissionRefused(.create)
            return .refused(
                ValidationResult(values: result.values, issues: issues),
                serverValues: serverValues,
                service: ServiceContinuation(draft: kept))
        case .away(let message): return .serviceAway(message)
        case .unknown(let object): return .outcomeUnknown(object)
        }
    }

    /// A valid edit of an object a service holds: its value helps judge it, then the changed
    /// fields go to the service with the ETag last read.
    private func updateInService(
        _ validated: ValidationResult, object: StoredObject, form: PreparedForm, viewer: Viewer,
        stagedIDs: Set<String>, serverValues: [String: [String]], target: ServiceTarget, etag: String?
    ) async throws -> Outcome {
        var result = validated
        await valueHelps.check(&result, schema: form.schema, target: target)
        guard result.isValid else {
            FieldworkMetrics.submissionRefused(.update)
            return .refused(result, serverValues: serverValues)
        }
        switch try await ServiceObjects(objects: objects, webhooks: webhooks).update(
            object, values: result.values, target: target, etag: etag, schema: form.schema)
        {
        case .done(let updated):
            // The files stay in Fieldwork: the new ones become the object's, the dropped ones go.
            let keptIDs = Self.fileIDs(result.values)
            let newIDs = keptIDs.filter { stagedIDs.contains($0) }
            let attachments = attachments
            let owner = viewer.ownerKey
            if !newIDs.isEmpty {
                try await objects.update(
                    formID: object.formID, id: object.id, values: updated.values, keyText: updated.keyText
                ) { transaction, objectID in
                    try await attachments.claim(ids: newIDs, owner: owner, objectID: objectID, in: transaction)
                }
            }
            let dropped = InputStrings.files(of: object.values).values.flatMap { $0.map(\.id) }.filter {
                !keptIDs.contains($0)
            }
            if !dropped.isEmpty { try await attachments.delete(ids: dropped, objectID: object.id) }
            FieldworkMetrics.objectUpdated()
            return .stored(updated)
        case .refused(let issues):
            FieldworkMetrics.submissionRefused(.update)
            return .refused(
                ValidationResult(values: result.values, issues: issues), serverValues: serverValues
            )
        case .changedMeanwhile(let current):
            // The form shows the values the service holds now, to change again.
            let issue = FieldIssue(
                field: "", code: .service,
                message:
                    "Someone changed this object in the service since you opened it. Its values now are shown: make your changes again and save."
            )
            return .refused(
                ValidationResult(values: current.values, issues: [issue]),
                serverValues: InputStrings.of(current.values),
                service: ServiceContinuation(etag: current.service?.etag))
        case .away(let message):
            return .serviceAway(message)
        }
    }

    /// The form's own rules (an XForm's binds) judge what its fields' rules made of a
    /// submission: `result` becomes their verdict (the values of the fields that apply, computed
    /// ones the server's, every issue), and the record to store beside the values comes back.
    private func judging(
        _ result: inout ValidationResult, form: PreparedForm, session: RuleSession
    ) async -> InstanceXML? {
        guard let rules = form.rules else { return nil }
        let checked = result
        let verdict = await BlockingWork.run { rules.judge(checked, session: session) }
        for error in verdict.errors {
            Logger(label: "fieldwork.rules").warning(
                "A rule of form \(form.formID) version \(form.version) could not be evaluated: \(error)")
        }
        result = verdict.result
        return verdict.record.map { InstanceXML(id: verdict.recordID ?? "", xml: $0) }
    }

    /// What became of a delete.
    enum Deletion: Sendable {
        case deleted
        /// The service refused: its messages.
        case refused([FieldIssue])
        /// 412: the object changed in the service since the ETag given; its values now.
        case changedMeanwhile(StoredObject)
        /// The service did not answer: nothing was deleted.
        case serviceAway(String)
    }

    /// Deletes an object with its files: for an object a service holds, the entity first (with
    /// `If-Match`: `etag`, else the one last read), the record only once the service agreed.
    func delete(_ object: StoredObject, service: ServiceTarget?, etag: String? = nil) async throws -> Deletion {
        if object.service != nil, let service {
            switch try await ServiceObjects(objects: objects, webhooks: webhooks).delete(
                object, target: service, etag: etag)
            {
            case .done: break
            case .refused(let issues): return .refused(issues)
            case .changedMeanwhile(let current): return .changedMeanwhile(current)
            case .away(let message): return .serviceAway(message)
            }
        } else {
            try await deleteHere(object)
        }
        try await attachments.delete(objectID: object.id)
        return .deleted
    }

    /// The read-only fields' values, and the values a refused submission shows again: those, and
    /// the fields the service filled. A form in mode `service` fills the empty fields a chosen
    /// value gives (its value help's `Out` parameters) from the service's row, as Fiori elements
    /// does when the row is chosen, before validation, which then judges them too.
    private func filling(
        _ submission: inout Submission, form: PreparedForm, known: [String: [String]], service: ServiceTarget?
    ) async -> (server: [String: [String]], shown: [String: [String]]) {
        let serverValues = form.serverValues(known: known)
        guard let service else { return (serverValues, serverValues) }
        let filled = await valueHelps.fill(
            &submission, schema: form.schema, readOnly: Set(form.readOnlyFields), target: service)
        return (serverValues, serverValues.merging(filled) { server, _ in server })
    }

    /// What a create that failed with a one-time key is answered. Another request with the key
    /// may have committed first (its row made this transaction fail): then `firstCreate` finds
    /// its answer. With the database gone there is nothing to look up, and the outage answers
    /// (503: the client sends again, and gets the first object). A lookup that fails because the
    /// database went away between the two answers the same; any other failed lookup, or none
    /// found, leaves the create's own error to answer.
    static func afterFailedCreate(
        _ createError: any Error, firstCreate: () async throws -> Outcome?
    ) async throws -> Outcome {
        guard !DatabaseOutage.isOutage(createError) else { throw createError }
        let first: Outcome?
        do {
            first = try await firstCreate()
        } catch {
            throw DatabaseOutage.isOutage(error) ? error : createError
        }
        guard let first else { throw createError }
        return first
    }

    /// What a create with an already used one-time key is answered: the first create's object,
    /// or, for an API key sent again with another body, a refusal.
    private func firstCreate(_ once: OnceKey) async throws -> Outcome? {
        guard let first = try await objects.object(once: once) else { return nil }
        return first.fingerprint == once.fingerprint ? .stored(first.object) : .keyReused
    }

    /// Replaces an object's values; 404 when it is gone by the time it is written.
    /// - Parameter stagedIDs: the files of the submission that are uploads not yet claimed.
    /// - Parameter noLongerOffered: the object's choices its fields no longer offer
    ///   (``OfferedChoices/missing(in:)``), which it keeps.
    /// - Parameter etag: for an object a service holds, the ETag of the values the edit view
    ///   showed (its `_etag`), sent as `If-Match`; nil for the one last read.
    func update(
        _ submission: Submission, object: StoredObject, form: PreparedForm, viewer: Viewer, stagedIDs: Set<String>,
        noLongerOffered: [String: [String]], service: ServiceTarget? = nil, etag: String? = nil
    ) async throws -> Outcome {
        let stored = InputStrings.of(object.values)
        var submission = submission
        let (serverValues, shown) = await filling(
            &submission, form: form, known: stored, service: object.service == nil ? nil : service)
        var context = ValidationContext(
            mode: .edit, serverValues: serverValues, clock: form.clock(), noLongerOffered: noLongerOffered)
        context.serverItems = FieldValue.storedItemInputs(object.values)
        context.requiredByRules = form.rules != nil
        var result = await Self.validated(form.schema, submission, context: context)
        var instance: InstanceXML?
        if form.rules != nil {
            // The whole form judged again; the new instance deprecates the stored one.
            var session = RuleSession(form, viewer: viewer)
            session.previous = try await objects.instance(of: object.id)?.xml
            instance = await judging(&result, form: form, session: session)
        }
        guard result.isValid else {
            FieldworkMetrics.submissionRefused(.update)
            return .refused(result, serverValues: shown)
        }
        // The items that were stored keep their ids; any other is new.
        result.values = FieldValue.assigningItemIDs(result.values, known: FieldValue.itemIDs(object.values))
        if let service, object.service != nil {
            return try await updateInService(
                result, object: object, form: form, viewer: viewer, stagedIDs: stagedIDs, serverValues: shown,
                target: service, etag: etag)
        }
        let keptIDs = Self.fileIDs(result.values)
        let newIDs = keptIDs.filter { stagedIDs.contains($0) }
        let attachments = attachments
        let owner = viewer.ownerKey
        let claim = claiming(newIDs, owner: owner)
        let announce = try await webhooks.announcing(.updated, formID: object.formID)
        guard
            let updatedAt = try await objects.update(
                formID: object.formID, id: object.id, values: result.values,
                keyText: InputStrings.keyText(result.values, schema: form.schema), instance: instance,
                alongside: joined(claim, announce))
        else { throw HTTPError(.notFound) }
        webhooks.committed(announce)
        // Files the edit dropped go once the new values are committed.
        let dropped = InputStrings.files(of: object.values).values.flatMap { $0.map(\.id) }.filter {
            !keptIDs.contains($0)
        }
        if !dropped.isEmpty { try await attachments.delete(ids: dropped, objectID: object.id) }
        FieldworkMetrics.objectUpdated()
        var updated = object
        updated.values = result.values
        updated.keyText = InputStrings.keyText(result.values, schema: form.schema)
        updated.updatedAt = updatedAt
        return .stored(updated)
    }

    /// Deletes an object kept in Fieldwork, its events written in the same transaction; false when
    /// it was gone already. (An object a service holds goes through ``ServiceObjects/delete(_:target:)``.)
    @discardableResult
    private func deleteHere(_ object: StoredObject) async throws -> Bool {
        let announce = try await webhooks.announcing(.deleted, formID: object.formID)
        let deleted = try await objects.delete(formID: object.formID, id: object.id, alongside: announce)
        if deleted { webhooks.committed(announce) }
        return deleted
    }

    /// The work that makes the files the object's in its transaction; nil when there are none.
    private func claiming(_ fileIDs: [String], owner: String) -> AlongsideWork? {
        guard !fileIDs.isEmpty else { return nil }
        let attachments = attachments
        return { transaction, objectID in
            _ = try await attachments.claim(ids: fileIDs, owner: owner, objectID: objectID, in: transaction)
        }
    }

    /// The ids of every file among the valid values, for the store to claim.
    static func fileIDs(_ values: [String: FieldValue]) -> [String] {
        values.values.flatMap { value -> [String] in
            switch value {
            case .files(let files): files.map(\.id)
            case .items(let items): items.flatMap { fileIDs($0.values) }
            default: []
            }
        }
    }
}

enum ServiceObjectsError: Error {
    case notRecorded
}

extension ObjectSubmissions {
    /// The submission validated on this thread, or, when a value needs more work on its pattern
    /// than an event loop may give (``FormValidator/validateOffLoop(_:_:context:elsewhere:)``),
    /// on NIO's blocking pool.
    static func validated(
        _ schema: FormSchema, _ submission: Submission, context: ValidationContext
    ) async -> ValidationResult {
        await FormValidator.validateOffLoop(schema, submission, context: context, elsewhere: BlockingWork.ifRunning)
    }
}
