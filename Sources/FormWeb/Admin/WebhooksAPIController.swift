import FormStore
import Foundation
import Hummingbird
import NIOCore

/// `/api/forms/{id}/webhooks`: a form's webhook endpoints (`../shared/spec/interface.md`).
/// Admins only (``AdminOnlyMiddleware``); the secret is answered once, on registration, and
/// never again. Only `application/json` is taken: a cross-site page cannot send that type with
/// an admin's cookie without a CORS preflight, which is never granted.
struct WebhooksAPIController {
    let forms: FormStore
    let webhooks: Webhooks

    /// - Parameter adminAPI: the `/api` routes behind ``AdminOnlyMiddleware``.
    func addRoutes(to adminAPI: RouterGroup<AppRequestContext>) {
        adminAPI.post("forms/:id/webhooks", use: register)
        adminAPI.get("forms/:id/webhooks", use: list)
        adminAPI.delete("forms/:id/webhooks/:hook", use: remove)
        adminAPI.post("forms/:id/webhooks/:hook/deliveries/:event/retry", use: sendAgain)
    }

    struct Body: Decodable {
        var url: String?
        var events: [String]?
    }

    /// `201 {"id", "secret"}`: the secret shown this once.
    struct Registered: Encodable {
        var id: String
        var secret: String
    }

    typealias FieldError = APIFieldErrors.FieldError
    typealias Errors = APIFieldErrors

    /// An endpoint as listed: never its secret.
    struct WebhookJSON: Encodable {
        var id: String
        var url: String
        var events: [String]
        var createdAt: Date?
        var createdBy: String?
        var deliveries: [DeliveryJSON]
    }

    struct DeliveryJSON: Encodable {
        var id: String
        var type: String
        var object: String
        var status: String
        var attempts: Int
        var createdAt: Date
        var nextAttemptAt: Date?
        var lastAttemptAt: Date?
        var lastStatus: Int?
        var lastAnswer: String?
        var latencyMs: Int?
        var deliveredAt: Date?

        init(_ delivery: WebhookDelivery) {
            id = delivery.id
            type = delivery.type.name
            object = delivery.objectID.uuidString.lowercased()
            status = delivery.status.rawValue
            attempts = delivery.attempts
            createdAt = delivery.createdAt
            nextAttemptAt = delivery.nextAttemptAt
            lastAttemptAt = delivery.lastAttemptAt
            lastStatus = delivery.lastStatus
            lastAnswer = delivery.lastAnswer
            latencyMs = delivery.lastLatencyMS
            deliveredAt = delivery.deliveredAt
        }
    }

    struct Listing: Encodable {
        var webhooks: [WebhookJSON]
    }

    /// `POST /api/forms/{id}/webhooks`: JSON `{"url", "events"}`; 201 `{"id", "secret"}`, or 422
    /// with what to change.
    @Sendable func register(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await requireForm(context)
        guard FormBody.isJSON(request) else {
            return try JSONResponse.make(
                APIMessage("Send the endpoint as application/json."), status: .unsupportedMediaType)
        }
        let body: Body
        do {
            body = try JSONDecoder().decode(
                Body.self, from: Data(buffer: try await request.boundedBody(upTo: 64 * 1024)))
        } catch is NIOTooManyBytesError {
            return try JSONResponse.make(APIMessage("The request is larger than 64 KB."), status: .contentTooLarge)
        } catch {
            return try JSONResponse.make(
                Errors(errors: [
                    FieldError(
                        field: "",
                        message:
                            #"Send a JSON object: {"url": "https://…", "events": ["created", "updated", "deleted"]}."#)
                ]), status: .badRequest)
        }
        switch try await webhooks.register(
            formID: form.id, url: body.url ?? "", events: body.events ?? [], by: try context.viewer.recordedName)
        {
        case .registered(let webhook, let secret):
            var response = try JSONResponse.make(
                Registered(id: webhook.id.uuidString.lowercased(), secret: secret), status: .created)
            response.headers[.location] = "/api/forms/\(form.id)/webhooks"
            return response
        case .invalid(let problems):
            return try JSONResponse.make(
                Errors(errors: problems.map { FieldError(field: $0.field, message: $0.message) }),
                status: .unprocessableContent)
        }
    }

    /// `GET /api/forms/{id}/webhooks`: the endpoints with their recent deliveries, newest first.
    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await requireForm(context)
        let listed = try await webhooks.endpoints(formID: form.id).map { webhook, deliveries in
            WebhookJSON(
                id: webhook.id.uuidString.lowercased(), url: webhook.url, events: webhook.events.map(\.rawValue),
                createdAt: webhook.createdAt, createdBy: webhook.createdBy,
                deliveries: deliveries.map(DeliveryJSON.init))
        }
        return try JSONResponse.make(Listing(webhooks: listed), status: .ok)
    }

    /// `DELETE /api/forms/{id}/webhooks/{hook}`: 204; its undelivered events go with it.
    @Sendable func remove(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await requireForm(context)
        guard let hook = UUID(uuidString: try context.parameters.require("hook")),
            try await webhooks.remove(formID: form.id, id: hook)
        else { throw HTTPError(.notFound) }
        return Response(status: .noContent)
    }

    /// `POST /api/forms/{id}/webhooks/{hook}/deliveries/{event}/retry`: 202, the event due at once.
    @Sendable func sendAgain(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await requireForm(context)
        let event = try context.parameters.require("event")
        guard let hook = UUID(uuidString: try context.parameters.require("hook")),
            try await webhooks.sendAgain(formID: form.id, endpointID: hook, eventID: event)
        else { throw HTTPError(.notFound) }
        return try JSONResponse.make(SentAgain(id: event, status: "pending"), status: .accepted)
    }

    struct SentAgain: Encodable {
        var id: String
        var status: String
    }

    private func requireForm(_ context: AppRequestContext) async throws -> StoredForm {
        let formID = try context.parameters.require("id")
        guard let form = try await forms.latest(formID: formID) else { throw FormLookupError.unknown(formID) }
        return form
    }
}
