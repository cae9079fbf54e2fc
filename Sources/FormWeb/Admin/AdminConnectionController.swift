import FormPages
import FormService
import FormStore
import Foundation
import Hummingbird

/// The admin page's "Service" section: connecting an OData form's import to its service, the
/// modes of its forms, disconnecting (`../shared/spec/odata-service.md`, "Connection"). The
/// checks are those of `PUT /api/forms/{id}/connection` (``ConnectionAPIController``); the
/// secret is read, passed on, and never written into a page.
struct AdminConnectionController {
    let forms: FormStore
    let connections: ConnectionStore
    let service: ServiceConnections
    let page: AdminFormPage

    func addRoutes(to form: RouterGroup<AppRequestContext>) {
        form.post("connection", use: connect)
        form.post("connection/mode", use: setModes)
        form.post("connection/delete", use: disconnect)
    }

    /// `POST /admin/forms/{id}/connection`: `action=test` tests (fetches the service's
    /// `$metadata` and compares it with the import) and shows the drift report, storing nothing;
    /// `action=connect` tests and stores, then 303 back to the page. 422 with the page again when
    /// a setting will not do or the test fails (its message on the URL).
    @Sendable func connect(_ request: Request, context: AppRequestContext) async throws -> Response {
        let viewer = try context.viewer
        let fields = try await FormBody.verifiedFields(request, viewer: viewer)
        let form = try context.form
        guard form.sourceKind != .native else { throw HTTPError(.notFound) }
        var entered = ServiceConnectionForm(fields: fields)
        let secret = fields["secret"]?.first ?? ""
        let testOnly = fields["action"]?.first == "test"
        let auth = ServiceConnectionSettings.Auth(rawValue: entered.auth)
        if auth == nil { entered.errors["auth"] = "Choose how Fieldwork signs in to the service." }
        let mode = ServiceMode(rawValue: entered.mode)
        if mode == nil { entered.errors["mode"] = "Choose service or local for the import's forms." }
        guard let auth, let mode else {
            return try await page(
                form, viewer: viewer, entered: entered, secretTyped: !secret.isEmpty, status: .unprocessableContent)
        }
        // The page has no controls for the CA file and the time limit: a change keeps the stored ones.
        var stored: StoredConnection?
        if let id = form.service?.connectionID { stored = try await connections.connection(id: id) }
        let settings = ServiceConnectionSettings(
            url: entered.url, auth: auth, user: Self.nonEmpty(entered.user), headerName: Self.nonEmpty(entered.header),
            sapClient: Self.nonEmpty(entered.sapClient), sapLanguage: Self.nonEmpty(entered.sapLanguage),
            caFile: stored?.settings.caFile, timeoutSeconds: stored?.settings.timeoutSeconds)
        let outcome = try await service.connect(
            formID: form.id,
            .init(settings: settings, secret: secret.isEmpty ? nil : secret, mode: mode, testOnly: testOnly),
            by: viewer.recordedName)
        switch outcome {
        case .connected(_, let drift, _):
            if testOnly {
                // The result is down in the section; the notice at the top says where.
                let notice =
                    "Test passed: the service answered; nothing was stored. "
                    + (drift.isEmpty ? "No drift." : "The drift report is in the Service section.")
                return try await page(
                    form, viewer: viewer, notice: notice, entered: entered, tested: drift,
                    secretTyped: !secret.isEmpty)
            }
            return Response.seeOther("/admin/forms/\(form.id)?done=connected#service")
        case .invalid(let problems):
            for (setting, message) in problems { entered.errors[setting] = message }
        case .failed(let message):
            entered.errors["url"] = message
        }
        return try await page(
            form, viewer: viewer, entered: entered, secretTyped: !secret.isEmpty, status: .unprocessableContent)
    }

    /// `POST /admin/forms/{id}/connection/mode`: each connected form's mode, from `mode.<form id>`
    /// (`service` or `local`); 303 back to the page.
    @Sendable func setModes(_ request: Request, context: AppRequestContext) async throws -> Response {
        let fields = try await FormBody.verifiedFields(request, viewer: try context.viewer)
        let form = try context.form
        guard let id = form.service?.connectionID, let connection = try await connections.connection(id: id) else {
            throw HTTPError(.conflict, message: "\(form.id) is not connected to a service.")
        }
        var changes: [(String, ServiceMode)] = []
        for (formID, current) in connection.modes {
            guard let value = fields["mode.\(formID)"]?.first else { continue }
            guard let mode = ServiceMode(rawValue: value) else {
                throw HTTPError(.badRequest, message: "Choose service or local for \(formID).")
            }
            if mode != current { changes.append((formID, mode)) }
        }
        for (formID, mode) in changes { try await connections.setMode(mode, formID: formID) }
        return Response.seeOther("/admin/forms/\(form.id)?done=modes#service")
    }

    /// `POST /admin/forms/{id}/connection/delete`: disconnects the import's forms and forgets the
    /// connection and its secret; 303 back to the page.
    @Sendable func disconnect(_ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try await FormBody.verifiedFields(request, viewer: try context.viewer)
        let form = try context.form
        if let id = form.service?.connectionID { try await connections.disconnect(id: id) }
        return Response.seeOther("/admin/forms/\(form.id)?done=disconnected#service")
    }

    private static func nonEmpty(_ text: String) -> String? {
        text.isEmpty ? nil : text
    }
}
