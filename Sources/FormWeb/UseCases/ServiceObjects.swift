import FormModel
import FormService
import FormStore
import Foundation

/// Writing the objects of a form in mode `service` into its OData service
/// (`../shared/spec/odata-service.md`, "Writing objects"), after ``ObjectSubmissions`` validated
/// them. A create is recorded before it is sent (the object row in state `sending`, with its
/// one-time key and its `Repeatability-Request-ID`), so a repeat finds it and waits for its
/// outcome, and a create whose answer was lost is left `unknown`, never sent again by itself.
struct ServiceObjects: Sendable {
    let objects: ObjectStore

    /// How long a repeat of a create waits for the first one's outcome.
    static let repeatWait: Duration = .seconds(15)

    /// What the service made of a valid submission.
    enum Written: Sendable {
        case created(StoredObject)
        /// Refused: its messages, under their fields (or with an empty field, for the summary).
        case refused([FieldIssue])
        /// Not answered (no connection, time-out before sending, 5xx): nothing was created.
        case away(String)
        /// Sent, answer lost: the object row says `unknown`.
        case unknown(StoredObject)
    }

    /// Sends a create recorded as `record` and settles the record by the answer.
    func send(
        _ record: StoredObject, values: [String: FieldValue], target: ServiceTarget, requestID: UUID
    ) async throws
        -> Written
    {
        let client = target.client
        let binding = target.binding
        let sendable = Self.sendable(values, binding: binding)
        do {
            var entity = try await client.create(
                sendable, binding: binding, kinds: target.kinds, requestID: requestID,
                firstSent: record.createdAt ?? Date())
            if binding.draft != nil {
                do {
                    entity = try await client.activateDraft(key: entity.key, binding: binding, kinds: target.kinds)
                } catch {
                    // The draft is left behind by a refused or unanswered activation: discard it, so
                    // that nothing of this attempt stays in the service.
                    try? await client.discardDraft(key: entity.key, etag: entity.etag, binding: binding)
                    throw error
                }
            }
            var stored = values
            for (name, value) in entity.values where binding.fields[name] != nil { stored[name] = value }
            let link = ServiceLink(
                state: .created,
                key: ServiceKey.encode(entity.key, binding: binding, timeZone: client.connection.timeZone),
                requestID: requestID, etag: entity.etag)
            try await objects.settle(formID: record.formID, id: record.id, link: link, values: stored)
            var created = record
            created.values = stored
            created.service = link
            FieldworkMetrics.objectCreated()
            return .created(created)
        } catch let failure as ServiceFailure {
            switch failure {
            case .refused(_, let messages):
                try await objects.delete(formID: record.formID, id: record.id)
                return .refused(Self.issues(messages, binding: binding))
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
                try await objects.settle(formID: record.formID, id: record.id, link: link)
                var unknown = record
                unknown.service = link
                return .unknown(unknown)
            }
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
