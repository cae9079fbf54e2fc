import FormImport
import FormModel
import FormPages
import FormService
import FormStore
import Foundation
import Hummingbird
import NIOCore

/// The admin pages of one form: its settings (access, state), the service an OData form's
/// import is connected to, versions with their downloads, the preview, and uploads of
/// value-list options. Admins only (``AdminOnlyMiddleware`` guards the group); every POST
/// checks the CSRF token.
struct AdminFormsController {
    let forms: FormStore
    let objects: ObjectStore
    let plans: PlanCache
    let renderer: PageRenderer
    /// Where the preview reads `today` and `now`.
    let timeZone: TimeZone
    let connections: ConnectionStore
    let service: ServiceConnections
    let webhooks: Webhooks
    let exports: ObjectExports

    func addRoutes(to admin: RouterGroup<AppRequestContext>) {
        admin.get("forms/:id", use: formPage)
        admin.post("forms/:id/access", use: setAccess)
        admin.post("forms/:id/state", use: setState)
        admin.get("forms/:id/preview", use: preview)
        admin.get("forms/:id/frame", use: previewFrame)
        admin.get("forms/:id/versions/:version/schema.json", use: downloadSchema)
        admin.get("forms/:id/versions/:version/documents/:index", use: downloadDocument)
        admin.post("forms/:id/lists/:list", use: uploadOptions)
        admin.post("forms/:id/connection", use: connect)
        admin.post("forms/:id/connection/mode", use: setModes)
        admin.post("forms/:id/connection/delete", use: disconnect)
        admin.post("forms/:id/webhooks", use: addWebhook)
        admin.post("forms/:id/webhooks/:hook/delete", use: removeWebhook)
        admin.post("forms/:id/webhooks/:hook/deliveries/:event/retry", use: sendWebhookAgain)
        admin.get("forms/:id/export", use: export)
    }

    /// `GET /admin/forms/{id}`: the form's settings, versions and value lists.
    @Sendable func formPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let viewer = try context.viewer
        let form = try await requireForm(context)
        let notice = request.uri.queryParameters["done"].map(String.init).flatMap(AdminNotice.text)
        return try await formPage(form, viewer: viewer, notice: notice)
    }

    /// `POST /admin/forms/{id}/access`: `public` or `users`.
    @Sendable func setAccess(_ request: Request, context: AppRequestContext) async throws -> Response {
        let fields = try await FormBody.verifiedFields(request, viewer: try context.viewer)
        let form = try await requireForm(context)
        guard let access = fields["access"]?.first.flatMap(FormAccess.init(rawValue:)) else {
            throw HTTPError(.badRequest, message: "Choose public or users.")
        }
        try await forms.setAccess(access, formID: form.id)
        return Response.seeOther("/admin/forms/\(form.id)?done=access")
    }

    /// `POST /admin/forms/{id}/state`: `retired` or `active`.
    @Sendable func setState(_ request: Request, context: AppRequestContext) async throws -> Response {
        let fields = try await FormBody.verifiedFields(request, viewer: try context.viewer)
        let form = try await requireForm(context)
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
        let preview = Preview(
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
        let state = RenderState(
            values: view.form.initialValues(query: [:]), csrfToken: "",
            layout: LayoutMode(query: request.uri.queryParameters["layout"].map(String.init)))
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

    /// `POST /admin/forms/{id}/lists/{list}`: a CSV of options for a list; 303 when applied,
    /// 422 with each line's error when not (the old options stay).
    @Sendable func uploadOptions(_ request: Request, context: AppRequestContext) async throws -> Response {
        let viewer = try context.viewer
        let upload = try await AdminUpload.read(request)
        try viewer.requireToken(upload.field(InputName.csrf))
        let form = try await requireForm(context)
        let listID = try context.parameters.require("list")
        guard try form.schema().list(id: listID) != nil else { throw HTTPError(.notFound) }
        guard let file = upload.files("csv").first else {
            return try await formPage(
                form, viewer: viewer, listErrors: [listID: ["Choose a CSV file of options"]],
                status: .unprocessableContent)
        }
        if form.sourceKind == .xforms, let rules = try form.rules(), rules.externalInstance(forList: listID) != nil {
            // The XForm's external file as ODK tools take it: its columns are what the form's
            // choice filters read.
            let instance: XFormExternalInstance
            do throws(XFormExternalInstance.Failure) {
                instance = try XFormExternalInstance.read(file.data)
            } catch {
                return try await formPage(
                    form, viewer: viewer, listErrors: [listID: error.errors], status: .unprocessableContent)
            }
            try await forms.replaceOptions(
                [OptionGroup(options: instance.options)], formID: form.id, listID: listID, by: viewer.account?.name,
                instanceXML: instance.xml)
            return Response.seeOther("/admin/forms/\(form.id)?done=options#list-\(listID)")
        }
        guard let text = String(validating: file.data, as: UTF8.self) else {
            return try await formPage(
                form, viewer: viewer, listErrors: [listID: ["The file is not UTF-8 text; save it as CSV UTF-8"]],
                status: .unprocessableContent)
        }
        switch OptionCSV.parse(text) {
        case .failure(let failure):
            return try await formPage(
                form, viewer: viewer, listErrors: [listID: failure.errors.map(\.description)],
                status: .unprocessableContent)
        case .success(let groups):
            try await forms.replaceOptions(groups, formID: form.id, listID: listID, by: viewer.account?.name)
            return Response.seeOther("/admin/forms/\(form.id)?done=options#list-\(listID)")
        }
    }

    /// The form page: summary, access and state forms, the service (OData forms), versions, and
    /// value lists with their upload forms.
    /// - Parameters:
    ///   - entered: the service form as sent, after a refusal or a test.
    ///   - tested: the drift a test found, when the page answers "Test connection".
    ///   - webhookEntered: the webhook form as sent, after a refusal.
    ///   - webhookCreated: the endpoint just added and its secret, shown this once.
    func formPage(
        _ form: StoredForm, viewer: Viewer, notice: String? = nil, listErrors: [String: [String]] = [:],
        entered: ServiceConnectionForm? = nil, tested: ServiceDrift? = nil, secretTyped: Bool = false,
        webhookEntered: WebhookSection.Entered? = nil, webhookCreated: (url: String, secret: String)? = nil,
        export: ExportSection? = nil, status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let schema = try form.schema()
        var page = AdminPage(viewer: viewer, token: viewer.csrfToken, heading: form.id)
        page.back = ("/admin", "Admin")
        page.notice = notice
        page.navForms = true
        let export = export ?? ExportSection(formID: form.id)
        page.problems =
            (entered?.problems ?? []) + export.problems
            + WebhookSection.problems(webhookEntered)
            + listErrors.flatMap { listID, errors in
                errors.map { AdminProblem(text: $0, href: "#list-\(listID)-csv") }
            }
        let objectCounts = try await objects.countsByVersion(formID: form.id)
        let documentNames = try await forms.sourceDocumentNames(formID: form.id)
        let versions = try await forms.versions(formID: form.id).map { version in
            let documents = documentNames[version.version] ?? []
            return Settings.VersionRow(
                formID: PageText(form.id), version: version.version,
                when: version.importedAt.map(AdminPage.timestamp) ?? "",
                by: PageText(version.importedBy ?? "command line"), kind: version.sourceKind.displayName,
                objects: objectCounts[version.version] ?? 0,
                importHref: PageText(version.importID.map { "/admin/imports/\($0.uuidString.lowercased())" }),
                documents: documents.enumerated().map { index, name in
                    Settings.DocumentLink(
                        name: PageText(name),
                        href: "/admin/forms/\(form.id)/versions/\(version.version)/documents/\(index)")
                })
        }
        let uploaded = try await forms.uploadedOptions(formID: form.id)
        let rules = form.sourceKind == .xforms ? try form.rules() : nil
        let lists = schema.lists.map { list in
            let users = schema.allFields.filter { $0.list == list.id }.map(\.displayName)
            let current = uploaded[list.id]?.groups ?? list.groups
            let options = current.flatMap(\.options)
            let status: String
            if let upload = uploaded[list.id] {
                let when = upload.at.map(AdminPage.timestamp) ?? ""
                status =
                    "\(Words.count(options.count, "uploaded option")), \(when)\(upload.by.map { " by \($0)" } ?? "")."
            } else if list.external {
                status = "No options uploaded yet: the field takes any value until you upload a list."
            } else {
                status =
                    "\(Words.count(options.count, "option")) from the spec. An upload replaces them in every version."
            }
            let errors = listErrors[list.id] ?? []
            let preview =
                options.prefix(5).map { "\($0.value) – \($0.label)" }.joined(separator: "; ")
                + (options.count > 5 ? "; …" : "")
            // A list with a title is headed by it and names the fields using it below; one without,
            // by those fields.
            let title = PageText.nonEmpty(list.title)
            let instance = rules?.externalInstance(forList: list.id)
            return Settings.ListRow(
                formID: PageText(form.id), listID: PageText(list.id),
                odkFile: instance.map { [PageText($0)] } ?? [],
                heading: title ?? PageText(Words.list(users.isEmpty ? [list.id] : users)),
                usedBy: title == nil || users.isEmpty ? [] : [PageText(Words.list(users))], status: PageText(status),
                preview: PageText(preview), hasPreview: !options.isEmpty,
                errors: errors.map { Settings.ErrorLine(text: PageText($0)) },
                hasErrors: !errors.isEmpty)
        }
        let settings = Settings(
            layout: page.layout(title: schema.title), admin: page.header, id: PageText(form.id),
            title: PageText(schema.title),
            kind: form.sourceKind.displayName, version: form.version, objects: objectCounts.values.reduce(0, +),
            retired: form.state == .retired, isPublic: form.access == .public,
            service: try await serviceSection(form, entered: entered, tested: tested, secretTyped: secretTyped),
            webhooks: WebhookSection(
                formID: form.id, endpoints: try await webhooks.endpoints(formID: form.id), entered: webhookEntered,
                created: webhookCreated),
            versions: versions, lists: lists, export: export)
        return try renderer.adminPage(settings, template: "admin/form", status: status)
    }

    func requireForm(_ context: AppRequestContext) async throws -> StoredForm {
        guard let form = try await forms.latest(formID: try context.parameters.require("id")) else {
            throw HTTPError(.notFound)
        }
        return form
    }

    /// The version named by the path parameter or `?version=`, else the latest.
    private func requireVersion(
        _ request: Request, _ context: AppRequestContext, parameter: String? = nil
    ) async throws -> StoredForm {
        let id = try context.parameters.require("id")
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

extension AdminFormsController {
    /// The form page's context (`admin/form`).
    struct Settings: PageContext {
        let layout: PageLayout
        let admin: AdminHeader
        let id: PageText
        let title: PageText
        let kind: String
        let version: Int
        let objects: Int
        let retired: Bool
        let isPublic: Bool
        /// The service section, for forms imported from OData.
        let service: ServiceSection?
        let webhooks: WebhookSection
        let versions: [VersionRow]
        let lists: [ListRow]
        let export: ExportSection

        /// A stored version: when and how it came, its objects and its downloads.
        struct VersionRow {
            let formID: PageText
            let version: Int
            let when: String
            let by: PageText
            let kind: String
            let objects: Int
            let importHref: PageText
            let documents: [DocumentLink]
        }

        /// A source document of a version, to download.
        struct DocumentLink {
            let name: PageText
            let href: PageText
        }

        /// A value list: its title (else the fields using it), its options and the upload form.
        struct ListRow {
            let formID: PageText
            let listID: PageText
            /// For an XForm's list read from an external instance, the instance's id: the upload
            /// takes the form's file (CSV with a header, or XML).
            let odkFile: [PageText]
            let heading: PageText
            /// The fields using a list headed by its title.
            let usedBy: [PageText]
            let status: PageText
            let preview: PageText
            let hasPreview: Bool
            let errors: [ErrorLine]
            let hasErrors: Bool
        }

        /// A refused upload's error.
        struct ErrorLine {
            let text: PageText
        }
    }

    /// The preview's context (`admin/preview`).
    struct Preview: PageContext {
        let layout: PageLayout
        let admin: AdminHeader
        let id: PageText
        let version: Int
        let title: PageText
    }
}
