import Crypto
import FormModel
import FormPages
import FormService
import FormStore
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The JSON API for objects: create from `{"field": value}` (through ``ObjectSubmissions``,
/// as the browser's form does) and read back.
struct ObjectAPIController {
    let objects: ObjectStore
    let forms: FormStore
    let plans: PlanCache
    let submissions: ObjectSubmissions
    let services: ServiceClients

    /// JSON bodies are text fields only.
    static let limit = 1024 * 1024

    /// - Parameters:
    ///   - apiForm: the API's `/api/forms/{id}` group; `apiActiveForm`, of forms that take objects.
    func addRoutes(apiForm: RouterGroup<AppRequestContext>, apiActiveForm: RouterGroup<AppRequestContext>) {
        apiActiveForm.post("objects", use: create)
        apiForm.get("objects/:object", use: show)
        apiForm.get("objects/:object/instance.xml", use: instance)
        apiForm.patch("objects/:object", use: update)
        apiForm.delete("objects/:object", use: delete)
    }

    /// `POST /api/forms/{id}/objects`: 201 with the stored object, or 422 with every issue.
    ///
    /// With an `Idempotency-Key` header the create happens once: the same key and body again,
    /// to any instance, answer 201 with the first create's object; the same key with another
    /// body answers 422 and stores nothing. Keys are kept for a day, per account, or for
    /// clients that are not signed in (and may send no cookie) per form: there only the same
    /// body gets the first object back, so a key is no way to read another client's object.
    ///
    /// Only `application/json` is taken: a cross-site page cannot send that type without a
    /// CORS preflight we never grant, which is what keeps cookie-authenticated calls safe from CSRF.
    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try context.form
        let viewer = try context.viewer
        let sent: SentObject
        do {
            sent = try await SentObject.read(request)
        } catch let refusal as SentObject.Refusal {
            return refusal.response
        }
        let key = request.headers[Self.idempotencyKey]
        if let key, !Self.isValidKey(key) {
            return try JSONResponse.make(
                APIMessage("Send an Idempotency-Key of 1 to 255 visible ASCII characters."), status: .badRequest)
        }
        // The version as prepared: an API create builds no page.
        let prepared = try await plans.versions.prepared(form, mode: .create)
        let input = sent.input
        var fields = sent.fields
        var once: OnceKey?
        if let key {
            let scope = viewer.account.map { "user:\($0.id.uuidString.lowercased())" } ?? "anonymous"
            once = .api(key, scope: scope, formID: form.id, fingerprint: Self.fingerprint(fields, sent: input.keys))
        }
        // A field the JSON leaves out starts as the create view starts it, with its default
        // (`null` is the way to send none); read-only fields keep their defaults: an API client
        // has no create view to be bound to.
        let initial = prepared.initialValues(query: [:])
        for (name, values) in initial where input[name] == nil && fields[name] == nil { fields[name] = values }
        // So do the fields an item leaves out.
        fields.merge(SentObject.itemDefaults(input, lists: prepared.schema.itemLists, clock: prepared.clock())) {
            sent, _ in sent
        }
        let outcome = try await submissions.create(
            Submission(fields: fields).gatheringItems(of: prepared.schema.itemLists), form: prepared, viewer: viewer,
            readOnlyValues: prepared.readOnlyValues(initial), readIssues: sent.issues, once: once,
            service: try await services.target(for: form, schema: prepared.schema))
        switch outcome {
        case .stored(let object):
            return try Self.answer(object, status: .created, location: true)
        case .refused(let result, _, _):
            return try JSONResponse.make(APIIssues(result.issues), status: .unprocessableContent)
        case .keyReused:
            // Shaped as every refused create is; no field is at fault.
            let issue = FieldIssue(
                field: "", code: .idempotencyKeyReused,
                message: "This Idempotency-Key was used with another request; send a new key.")
            return try JSONResponse.make(APIIssues([issue]), status: .unprocessableContent)
        case .serviceAway(let message):
            let issue = FieldIssue(field: "", code: .serviceUnavailable, message: message)
            return try JSONResponse.make(APIIssues([issue]), status: .badGateway)
        case .outcomeUnknown(let object):
            return try JSONResponse.make(OutcomeUnknown(object), status: .badGateway)
        }
    }

    /// A create sent to the service whose answer was lost.
    struct OutcomeUnknown: Encodable {
        var errors: [APIIssues.Issue]
        var object: String
        var requestId: String?

        init(_ object: StoredObject) {
            errors = [
                APIIssues.Issue(
                    field: "", code: "outcome-unknown",
                    message:
                        "The create was sent to the service and its answer was lost: the object may or may not exist there. It is not sent again by itself; an admin sees it listed with its request id."
                )
            ]
            self.object = object.id.uuidString.lowercased()
            requestId = object.service?.requestID?.uuidString.lowercased()
        }
    }

    static let idempotencyKey = HTTPField.Name("Idempotency-Key")!

    /// What a create asked for, whatever the JSON's key order or spacing: the same fields and
    /// values give the same fingerprint. The names sent count too: a field left out takes its
    /// default, one sent empty or `null` has none.
    static func fingerprint(_ fields: [String: [String]], sent: some Collection<String>) -> String {
        var hasher = SHA256()
        for name in sent.sorted() { hasher.update(data: Data("\(name.utf8.count):\(name),".utf8)) }
        hasher.update(data: Data("|".utf8))
        for (name, values) in fields.sorted(by: { $0.key < $1.key }) {
            // Lengths first, so no two different requests run together into the same bytes.
            for part in [name] + values { hasher.update(data: Data("\(part.utf8.count):\(part)".utf8)) }
            hasher.update(data: Data(";".utf8))
        }
        return Hex.encode(hasher.finalize())
    }

    /// 1 to 255 visible ASCII characters.
    static func isValidKey(_ key: String) -> Bool {
        (1...255).contains(key.utf8.count) && key.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }
    /// `GET /api/forms/{id}/objects/{object}/instance.xml`: an XForm object's record of truth,
    /// its ODK instance XML as stored (for ODK tools, unchanged), as a download; 404 for an
    /// object without one and for anyone but its creator and admins.
    @Sendable func instance(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let objectID = UUID(uuidString: try context.parameters.require("object")),
            let object = try await objects.find(formID: try context.form.id, id: objectID),
            try context.viewer.mayAccess(object),
            let instance = try await objects.instance(of: object.id)
        else {
            throw HTTPError(.notFound)
        }
        var headers = AdminFormController.downloadHeaders(
            type: "application/xml; charset=utf-8", filename: "\(ZipNames.safe(instance.id)).xml")
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: instance.xml)))
    }

    /// `GET /api/forms/{id}/objects/{object}`: the stored object; 404 for anyone but its creator and admins.
    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let objectID = UUID(uuidString: try context.parameters.require("object")),
            let object = try await objects.find(formID: try context.form.id, id: objectID),
            try context.viewer.mayAccess(object)
        else {
            throw HTTPError(.notFound)
        }
        return try Self.answer(object, status: .ok)
    }

    /// The object JSON, with the service's ETag of an object a service holds (`If-Match` of an
    /// edit or a delete) and, for a create, where the object is.
    static func answer(_ object: StoredObject, status: HTTPResponse.Status, location: Bool = false) throws -> Response {
        var response = JSONResponse.response(ByteBuffer(string: ObjectJSON(object).jsonText), status: status)
        if let etag = object.service?.etag { response.headers[.eTag] = etag }
        if location {
            // Who may read it there: its creator (signed in, or the browser whose cookie came
            // along), an admin, or the admin token.
            response.headers[.location] = "/api/forms/\(object.formID)/objects/\(object.id.uuidString.lowercased())"
        }
        return response
    }

    /// `PATCH /api/forms/{id}/objects/{object}`: changes the fields the JSON names (`null`
    /// empties one; the others, files included, keep their values), judged as the edit view's
    /// save is. 200 with the object, 422 with every issue; for an object a service holds, the
    /// change goes there with `If-Match` (the header's ETag, else the one last read), and 412
    /// answers when the object changed there since, with its values now.
    @Sendable func update(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (object, prepared) = try await ObjectLookup(objects: objects, forms: forms, plans: plans).prepared(context)
        let sent: SentObject
        do {
            sent = try await SentObject.read(request)
        } catch let refusal as SentObject.Refusal {
            return refusal.response
        }
        // A value of no form type (a nested object) refuses the edit, as it refuses a create.
        guard sent.issues.isEmpty else {
            return try JSONResponse.make(APIIssues(sent.issues), status: .unprocessableContent)
        }
        let stored = InputStrings.of(object.values)
        var fields = stored
        for name in sent.input.keys {
            // A value sent replaces the stored one whole: a list sent replaces its items.
            for old in SentObject.inputs(of: name, in: fields).keys { fields[old] = nil }
            fields.merge(SentObject.inputs(of: name, in: sent.fields)) { _, new in new }
        }
        let target = try await services.target(for: try context.form, schema: prepared.schema)
        // The JSON API sends no files: the object's stay, an item's with the item (by its `_id`).
        let sentObject = Submission(
            fields: fields, files: InputStrings.files(of: object.values).filter { !$0.key.contains("[") })
        let outcome = try await submissions.update(
            sentObject.gatheringItems(of: prepared.schema.itemLists).holdingFiles(of: object.values), object: object,
            form: prepared,
            viewer: try context.viewer, stagedIDs: [], noLongerOffered: prepared.offeredChoices.missing(in: stored),
            service: target, etag: ServiceContinuation.etag(sent: request.headers[.ifMatch]))
        switch outcome {
        case .stored(let updated):
            return try Self.answer(updated, status: .ok)
        case .refused(let result, _, let service) where service?.etag != nil:
            var current = object
            current.values = result.values
            current.service?.etag = service?.etag
            return try Self.changedMeanwhile(current)
        case .refused(let result, _, _):
            return try JSONResponse.make(APIIssues(result.issues), status: .unprocessableContent)
        case .serviceAway(let message):
            let issue = FieldIssue(field: "", code: .serviceUnavailable, message: message)
            return try JSONResponse.make(APIIssues([issue]), status: .badGateway)
        case .keyReused, .outcomeUnknown:
            // An edit carries no one-time key and sends no create.
            throw HTTPError(.internalServerError)
        }
    }

    /// `DELETE /api/forms/{id}/objects/{object}`: 204; for an object a service holds, the entity
    /// goes first (`If-Match` as for an edit): 412 when it changed there since, 409 when the
    /// service refuses, 502 when it does not answer (nothing deleted).
    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (object, prepared) = try await ObjectLookup(objects: objects, forms: forms, plans: plans).prepared(context)
        let target =
            object.service == nil ? nil : try await services.target(for: try context.form, schema: prepared.schema)
        switch try await submissions.delete(
            object, service: target, etag: ServiceContinuation.etag(sent: request.headers[.ifMatch]))
        {
        case .deleted:
            return Response(status: .noContent)
        case .refused(let issues):
            return try JSONResponse.make(APIIssues(issues), status: .conflict)
        case .changedMeanwhile(let current):
            return try Self.changedMeanwhile(current)
        case .serviceAway(let message):
            let issue = FieldIssue(field: "", code: .serviceUnavailable, message: message)
            return try JSONResponse.make(APIIssues([issue]), status: .badGateway)
        }
    }

    /// 412: the object changed in its service since the ETag the client sent; its values now, and
    /// their ETag to send again.
    private static func changedMeanwhile(_ current: StoredObject) throws -> Response {
        struct Changed: Encodable {
            var errors: [APIIssues.Issue]
            var object: ObjectJSON
        }
        let issue = APIIssues.Issue(
            field: "", code: "changed-meanwhile",
            message:
                "Someone changed this object in the service since you read it: read it again (or take its values here) and send your change with its new ETag."
        )
        var response = try JSONResponse.make(
            Changed(errors: [issue], object: ObjectJSON(current)), status: .preconditionFailed)
        if let etag = current.service?.etag { response.headers[.eTag] = etag }
        return response
    }
}

/// An object as the API shows it; values in the model's plain JSON (numbers as numbers,
/// dates as ISO text, several choices as arrays, files as objects).
struct ObjectJSON: Encodable {
    var id: String
    var form: String
    var version: Int
    var values: [String: FieldValue]
    var createdAt: Date?
    var updatedAt: Date?
    /// For an object a service holds: `created` (with its `key` there), `sending` or `unknown`
    /// (sent, answer lost: never resent by itself), and the create's `requestId`.
    var service: ServiceState?

    struct ServiceState: Encodable {
        var state: String
        var key: String?
        var requestId: String?
    }

    init(_ object: StoredObject) {
        id = object.id.uuidString.lowercased()
        form = object.formID
        version = object.formVersion
        values = object.values
        createdAt = object.createdAt
        updatedAt = object.updatedAt
        service = object.service.map {
            ServiceState(state: $0.state.rawValue, key: $0.key, requestId: $0.requestID?.uuidString.lowercased())
        }
    }

    /// The JSON ``encode(to:)`` and the API's encoder make (sorted keys, ISO 8601 dates, slashes
    /// as they are), written by hand: it answers every create, where the encoder cost more than
    /// the rest of the answer. A test compares the two for every kind of value.
    var jsonText: String {
        var out = "{"
        out.reserveCapacity(256 + values.count * 48)
        if let createdAt {
            out += #""createdAt":"# + Self.quoted(createdAt.formatted(.iso8601)) + ","
        }
        out += #""form":"# + Self.quoted(form) + #","id":"# + Self.quoted(id)
        if let service {
            out += #","service":{"#
            var first = true
            for (name, value) in [("key", service.key), ("requestId", service.requestId), ("state", service.state)] {
                guard let value else { continue }
                out += (first ? "\"" : ",\"") + name + "\":" + Self.quoted(value)
                first = false
            }
            out += "}"
        }
        if let updatedAt { out += #","updatedAt":"# + Self.quoted(updatedAt.formatted(.iso8601)) }
        out += #","values":{"#
        for (index, (name, value)) in values.sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { out += "," }
            JSONText.quote(name, into: &out, slashes: false)
            out += ":"
            value.writeJSON(into: &out, slashes: false)
        }
        out += "},\"version\":\(version)}"
        return out
    }

    /// A JSON string as the API's encoder writes it (slashes as they are).
    private static func quoted(_ text: String) -> String {
        var out = ""
        JSONText.quote(text, into: &out, slashes: false)
        return out
    }
}

/// `{"error": "…"}`: why a request was refused, for people.
struct APIMessage: Encodable {
    var error: String

    init(_ error: String) {
        self.error = error
    }
}

/// `{"errors": [{"field", "message"}…]}`: why the admin API refused settings (a connection, a
/// webhook endpoint), each message under the field at fault.
struct APIFieldErrors: Encodable {
    struct FieldError: Encodable {
        var field: String
        var message: String
    }

    var errors: [FieldError]
}

/// `{"errors": [{"field", "code", "message"}…]}`: every issue of a refused object.
struct APIIssues: Encodable {
    struct Issue: Encodable {
        var field: String
        var code: String
        var message: String
    }

    var errors: [Issue]

    init(_ issues: [FieldIssue]) {
        errors = issues.map { Issue(field: $0.field, code: $0.code.rawValue, message: $0.message) }
    }
}
