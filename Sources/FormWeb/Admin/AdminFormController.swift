import FormImport
import FormModel
import FormPages
import FormService
import FormStore
import Foundation
import Hummingbird
import NIOCore

/// The admin's form itself: its page, access and state, the preview and its frames, and the
/// downloads of each version. Behind ``AdminFormMiddleware``, which resolves the form once (admins
/// only; every POST checks the CSRF token); the form's other resources have controllers of their
/// own (``AdminListsController``, ``AdminConnectionController``, ``AdminWebhooksController``,
/// ``AdminExportController``).
struct AdminFormController {
    let forms: FormStore
    let plans: PlanCache
    let renderer: PageRenderer
    /// Where the preview reads `today` and `now`.
    let timeZone: TimeZone
    let page: AdminFormPage

    func addRoutes(to form: RouterGroup<AppRequestContext>) {
        form.get(use: formPage)
        form.post("access", use: setAccess)
        form.post("state", use: setState)
        form.get("preview", use: preview)
        form.get("frame", use: previewFrame)
        form.get("versions/:version/schema.json", use: downloadSchema)
        form.get("versions/:version/documents/:index", use: downloadDocument)
    }

    /// `GET /admin/forms/{id}`: the form's settings, versions and value lists.
    @Sendable func formPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let viewer = try context.viewer
        let form = try context.form
        let notice = request.uri.queryParameters["done"].map(String.init).flatMap(AdminNotice.text)
        return try await page(form, viewer: viewer, notice: notice)
    }

    /// `POST /admin/forms/{id}/access`: `public` or `users`.
    @Sendable func setAccess(_ request: Request, context: AppRequestContext) async throws -> Response {
        let fields = try await FormBody.verifiedFields(request, viewer: try context.viewer)
        let form = try context.form
        guard let access = fields["access"]?.first.flatMap(FormAccess.init(rawValue:)) else {
            throw HTTPError(.badRequest, message: "Choose public or users.")
        }
        try await forms.setAccess(access, formID: form.id)
        return Response.seeOther("/admin/forms/\(form.id)?done=access")
    }

    /// `POST /admin/forms/{id}/state`: `retired` or `active`.
    @Sendable func setState(_ request: Request, context: AppRequestContext) async throws -> Response {
        let fields = try await FormBody.verifiedFields(request, viewer: try context.viewer)
        let form = try context.form
        guard let state = fields["state"]?.first.flatMap(FormState.init(rawValue:)) else {
            throw HTTPError(.badRequest, message: "Choose retired or active.")
        }
        try await forms.setState(state, formID: form.id)
        return Response.seeOther("/admin/forms/\(form.id)?done=\(state == .retired ? "retired" : "restored")")
    }

    /// `GET /admin/forms/{id}/preview?version=N`: the create view at compact and regular width, side by side.
    @Sendable func preview(_ request: Request, context: AppRequestContext) async throws -> Response {
        let viewer = try context.viewer
        let form = try await requireVersion(request, context)
        let schema = try await forms.schema(of: form)
        var page = AdminPage(viewer: viewer, token: viewer.csrfToken, heading: "Preview: \(schema.title)")
        page.back = ("/admin/forms/\(form.id)", form.id)
        page.navForms = true
        let preview = FormPreviewPage(
            layout: page.layout(title: "Preview"), admin: page.header, id: PageText(form.id), version: form.version,
            title: PageText(schema.title))
        return try renderer.adminPage(preview, template: "admin/preview")
    }

    /// `GET /admin/forms/{id}/frame?layout=compact|regular&version=N`: the create view for the
    /// preview's frames, whatever the form's state and access; only this page may frame it.
    @Sendable func previewFrame(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await requireVersion(request, context)
        // The latest version's frame is the create view visitors get, from the same prepared
        // plan; an older version's is built for this request and not kept.
        let view: FormView
        if try await forms.latest(formID: form.id)?.version == form.version {
            view = try await plans.createView(for: form)
        } else {
            view = try renderer.formView(
                for: try await forms.schema(of: form), version: form.version, timeZone: timeZone)
        }
        var state = RenderState(
            values: view.form.initialValues(query: [:]), csrfToken: "",
            layout: LayoutMode(query: request.uri.queryParameters["layout"].map(String.init)))
        state.startItems(of: view.schema, clock: view.form.startClock())
        // No script runs in the sandboxed frame, so the layout's module is left out rather than
        // blocked (the browser would log each blocked load as an error).
        let page = String(buffer: view.render(state)).replacingOccurrences(of: layoutScript, with: "")
        var response = HTMLResponse.page(ByteBuffer(string: page), cacheControl: "no-store")
        response.headers[.fwContentSecurityPolicy] = Self.frameContentSecurityPolicy
        return response
    }

    /// The layout's script element (`Templates/layout.mustache`), which the preview frame leaves out.
    var layoutScript: String { "\n<script type=\"module\" src=\"\(renderer.assets)/js/fieldwork.js\"></script>" }

    /// The frame's policy: only this site may frame it, and it is sandboxed as the preview's
    /// `<iframe>` is (`allow-same-origin` alone: no script runs, no form submits), even when
    /// opened on its own.
    static var frameContentSecurityPolicy: String {
        SecurityHeadersMiddleware<AppRequestContext>.contentSecurityPolicy
            .replacingOccurrences(of: "frame-ancestors 'none'", with: "frame-ancestors 'self'")
            + "; sandbox allow-same-origin"
    }

    /// `GET /admin/forms/{id}/versions/{n}/schema.json`: the canonical JSON, as a download.
    @Sendable func downloadSchema(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await requireVersion(request, context, parameter: "version")
        let pretty = try form.schema().canonicalJSON(pretty: true)
        return Self.download(
            ByteBuffer(bytes: pretty), type: "application/json", filename: "\(form.id)-v\(form.version).json")
    }

    /// `GET /admin/forms/{id}/versions/{n}/documents/{index}`: a source document as imported.
    @Sendable func downloadDocument(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await requireVersion(request, context, parameter: "version")
        guard let index = Int(try context.parameters.require("index")),
            let documents = try await forms.sourceDocuments(formID: form.id, version: form.version),
            documents.indices.contains(index)
        else { throw HTTPError(.notFound) }
        let document = documents[index]
        return Self.download(ByteBuffer(bytes: document.data), type: "application/xml", filename: document.name)
    }

    /// The version named by the path parameter or `?version=`, else the latest.
    private func requireVersion(
        _ request: Request, _ context: AppRequestContext, parameter: String? = nil
    ) async throws -> StoredForm {
        let id = try context.form.id
        let named =
            parameter.flatMap { context.parameters.get($0) } ?? request.uri.queryParameters["version"].map(String.init)
        if let named {
            guard let number = Int(named), let form = try await forms.version(formID: id, version: number) else {
                throw HTTPError(.notFound)
            }
            return form
        }
        guard let form = try await forms.latest(formID: id) else { throw HTTPError(.notFound) }
        return form
    }

    /// A file to save, never shown as a page: attachment disposition, no caching, nothing may run.
    static func download(_ body: ByteBuffer, type: String, filename: String) -> Response {
        var headers = downloadHeaders(type: type, filename: filename)
        headers[.contentLength] = String(body.readableBytes)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
    }

    /// The headers of every admin download, whatever its length.
    static func downloadHeaders(type: String, filename: String) -> HTTPFields {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.contentDisposition] = AttachmentResponse.disposition(inline: false, filename: filename)
        headers[.cacheControl] = "no-store"
        // A download is never a page: nothing in it may run even if a browser showed it.
        headers[.fwContentSecurityPolicy] = "default-src 'none'; sandbox"
        return headers
    }
}
