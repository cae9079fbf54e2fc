import FormPages
import FormStore
import Foundation
import Hummingbird

/// The admin page's "Webhooks" section: adding an endpoint (its secret shown once, on the page
/// that answers the add), removing one, sending a delivery again. The checks are those of
/// `POST /api/forms/{id}/webhooks` (``WebhooksAPIController``, through ``Webhooks``).
struct AdminWebhooksController {
    let webhooks: Webhooks
    let page: AdminFormPage

    func addRoutes(to form: RouterGroup<AppRequestContext>) {
        form.post("webhooks", use: addWebhook)
        form.post("webhooks/:hook/delete", use: removeWebhook)
        form.post("webhooks/:hook/deliveries/:event/retry", use: sendWebhookAgain)
    }

    /// `POST /admin/forms/{id}/webhooks`: `url` and `events` (repeated). Answers the form page with
    /// the new endpoint's secret, the only time it is shown (a redirect would have to carry it in
    /// the URL or keep it); 422 with the page again and each error under its input.
    @Sendable func addWebhook(_ request: Request, context: AppRequestContext) async throws -> Response {
        let viewer = try context.viewer
        let fields = try await FormBody.verifiedFields(request, viewer: viewer)
        let form = try context.form
        var entered = WebhookSection.Entered(fields: fields)
        switch try await webhooks.register(
            formID: form.id, url: entered.url, events: entered.events, by: viewer.recordedName)
        {
        case .registered(let webhook, let secret):
            var response = try await page(
                form, viewer: viewer,
                notice: "Endpoint added. Copy its secret in the Webhooks section now: it is not shown again.",
                webhookCreated: (webhook.url, secret))
            // The secret is in this page alone: never kept by a cache, nor offered again by Back.
            response.headers[.cacheControl] = "no-store"
            return response
        case .invalid(let problems):
            for (field, message) in problems { entered.errors[field] = message }
            return try await page(
                form, viewer: viewer, webhookEntered: entered, status: .unprocessableContent)
        }
    }

    /// `POST /admin/forms/{id}/webhooks/{hook}/delete`: removes the endpoint and its events; 303 back.
    @Sendable func removeWebhook(_ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try await FormBody.verifiedFields(request, viewer: try context.viewer)
        let form = try context.form
        guard let hook = UUID(uuidString: try context.parameters.require("hook")),
            try await webhooks.remove(formID: form.id, id: hook)
        else { throw HTTPError(.notFound) }
        return Response.seeOther("/admin/forms/\(form.id)?done=webhook-removed#webhooks")
    }

    /// `POST /admin/forms/{id}/webhooks/{hook}/deliveries/{event}/retry`: "Send again"; 303 back.
    @Sendable func sendWebhookAgain(_ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try await FormBody.verifiedFields(request, viewer: try context.viewer)
        let form = try context.form
        let event = try context.parameters.require("event")
        guard let hook = UUID(uuidString: try context.parameters.require("hook")),
            try await webhooks.sendAgain(formID: form.id, endpointID: hook, eventID: event)
        else { throw HTTPError(.notFound) }
        return Response.seeOther("/admin/forms/\(form.id)?done=webhook-sent#webhook-\(hook.uuidString.lowercased())")
    }
}
