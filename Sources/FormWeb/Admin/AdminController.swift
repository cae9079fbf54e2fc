import FormImport
import FormModel
import Foundation
import Hummingbird
import NIOCore

/// The admin page: imports, forms with their versions, previews and value lists, and users.
/// Every route is for admins only (``AdminGateMiddleware`` guards the group); every POST
/// checks the CSRF token.
struct AdminController {
    let forms: FormStore
    let objects: ObjectStore
    let users: UserStore
    let plans: PlanCache
    let renderer: PageRenderer
    /// The files of the admin's last refused import.
    let drafts: ImportDraftStore
    /// Where the preview reads `today` and `now`.
    let timeZone: TimeZone

    func addRoutes(to admin: RouterGroup<AppRequestContext>) {
        admin.get("", use: dashboard)
        admin.post("import", use: importDocuments)
        admin.get("imports/:import", use: importReport)
        admin.get("forms/:id", use: formPage)
        admin.post("forms/:id/access", use: setAccess)
        admin.post("forms/:id/state", use: setState)
        admin.get("forms/:id/preview", use: preview)
        admin.get("forms/:id/frame", use: previewFrame)
        admin.get("forms/:id/versions/:version/schema.json", use: downloadSchema)
        admin.get("forms/:id/versions/:version/documents/:index", use: downloadDocument)
        admin.post("forms/:id/lists/:list", use: uploadOptions)
        admin.get("users", use: usersPage)
        admin.post("users", use: addUser)
        admin.post("users/:user/password", use: resetPassword)
        admin.post("users/:user/delete", use: deleteUser)
    }

    // MARK: Import

    /// `GET /admin`: the import form and the list of forms.
    @Sendable func dashboard(_ request: Request, context: AppRequestContext) async throws -> Response {
        let viewer = try context.viewer
        let notice = request.uri.queryParameters["done"].map(String.init).flatMap(AdminNotice.text)
        return try await dashboardPage(viewer: viewer, notice: notice)
    }

    /// `POST /admin/import`: files and pasted XML as one batch, through the same code path as
    /// `fieldwork import`. All of it is stored, or, when any document is refused, nothing; the
    /// files of a refused batch are kept for the next try (``ImportDraftStore``).
    @Sendable func importDocuments(_ request: Request, context: AppRequestContext) async throws -> Response {
        let viewer = try context.viewer
        let upload = try await AdminUpload.read(request)
        try viewer.requireToken(upload.field(CSRF.fieldName))
        guard let owner = viewer.account?.id else { throw HTTPError(.forbidden) }
        let keptIDs = upload.fields("kept").compactMap { UUID(uuidString: $0) }
        let kept = try await drafts.documents(ids: keptIDs, owner: owner)
        let chosen = upload.files("documents").map {
            ImportDraftStore.Document(name: FileName.sanitise($0.filename ?? "upload.xml"), data: $0.data)
        }
        let files = ImportDraftStore.merge(kept: kept, chosen: chosen)
        var documents = files.map(\.importDocument)
        let pasted = upload.field("xml") ?? ""
        if !pasted.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            documents.append(ImportDocument(name: "pasted.xml", data: Array(pasted.utf8)))
        }
        guard !documents.isEmpty else {
            try await drafts.clear(owner: owner)
            let problem = AdminProblem(text: "Choose a file to import, or paste XML", href: "#field-documents")
            return try await dashboardPage(viewer: viewer, problems: [problem], pasted: pasted, status: .unprocessableContent)
        }
        let outcomes = FormImporter.importBatch(documents)
        let failures = outcomes.failures
        guard failures.isEmpty else {
            let errors = failures.flatMap(\.errors)
            let report = ImportErrorReport(errors: errors, documents: documents)
            let keptNow = try await drafts.keep(files, owner: owner)
            return try await dashboardPage(
                viewer: viewer, problems: report.summary, importErrors: report.context, pasted: pasted, kept: keptNow,
                status: .unprocessableContent)
        }
        let results = outcomes.accepted
        let stored = try await forms.storeImport(results, importedBy: viewer.account?.name)
        try await drafts.clear(owner: owner)
        return Response.seeOther("/admin/imports/\(stored.id.uuidString.lowercased())")
    }

    /// `GET /admin/imports/{id}`: what an import made, and its report.
    @Sendable func importReport(_ request: Request, context: AppRequestContext) async throws -> Response {
        let viewer = try context.viewer
        guard let id = UUID(uuidString: try context.parameters.require("import")),
            let report = try await forms.importSummary(id: id)
        else { throw HTTPError(.notFound) }
        var page = AdminPage(viewer: viewer, token: viewer.csrfToken, heading: "Import")
        page.back = ("/admin", "Admin")
        page.navForms = true
        var context = page.context(title: "Import")
        context.merge(ImportReportView(summary: report.summary, kind: report.kind, at: report.at, by: report.by).context) { $1 }
        return try render(context, "admin/import")
    }

    // MARK: Forms

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
        var context = page.context(title: "Preview")
        context["id"] = form.id
        context["version"] = form.version
        context["title"] = HTML.clean(schema.title)
        return try render(context, "admin/preview")
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
            var built = try renderer.formView(for: try await forms.schema(of: form), version: form.version)
            built.timeZone = timeZone
            view = built
        }
        let state = RenderState(
            values: view.initialValues(query: [:]), csrfToken: "",
            layout: LayoutMode(query: request.uri.queryParameters["layout"].map(String.init)))
        var response = HTMLResponse.page(view.render(state), cacheControl: "no-store")
        response.headers[.fwContentSecurityPolicy] = SecurityHeadersMiddleware<AppRequestContext>.contentSecurityPolicy
            .replacingOccurrences(of: "frame-ancestors 'none'", with: "frame-ancestors 'self'")
        return response
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
        try viewer.requireToken(upload.field(CSRF.fieldName))
        let form = try await requireForm(context)
        let listID = try context.parameters.require("list")
        guard try form.schema().list(id: listID) != nil else { throw HTTPError(.notFound) }
        guard let file = upload.files("csv").first else {
            return try await formPage(
                form, viewer: viewer, listErrors: [listID: ["Choose a CSV file of options"]], status: .unprocessableContent)
        }
        guard let text = String(validating: file.data, as: UTF8.self) else {
            return try await formPage(
                form, viewer: viewer, listErrors: [listID: ["The file is not UTF-8 text; save it as CSV UTF-8"]],
                status: .unprocessableContent)
        }
        switch OptionCSV.parse(text) {
        case .failure(let failure):
            return try await formPage(
                form, viewer: viewer, listErrors: [listID: failure.errors.map(\.description)], status: .unprocessableContent)
        case .success(let groups):
            try await forms.replaceOptions(groups, formID: form.id, listID: listID, by: viewer.account?.name)
            return Response.seeOther("/admin/forms/\(form.id)?done=options#list-\(listID)")
        }
    }

    // MARK: Users

    /// `GET /admin/users`: the accounts, with password reset and removal, and the add form.
    @Sendable func usersPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let viewer = try context.viewer
        let notice = request.uri.queryParameters["done"].map(String.init).flatMap(AdminNotice.text)
        return try await usersPage(viewer: viewer, notice: notice)
    }

    /// `POST /admin/users`: adds an account; 422 with the form kept when the name or password will not do.
    @Sendable func addUser(_ request: Request, context: AppRequestContext) async throws -> Response {
        let viewer = try context.viewer
        let fields = try await FormBody.verifiedFields(request, viewer: viewer)
        let name = (fields["name"]?.first ?? "").trimmingCharacters(in: .whitespaces)
        let password = fields["password"]?.first ?? ""
        let isAdmin = fields["admin"]?.first == "on"
        var form = NewUserForm(name: name, isAdmin: isAdmin)
        if name.isEmpty {
            form.nameError = "Enter a user name"
        } else if name.count > 64 || name.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 }) {
            form.nameError = "Enter a user name of up to 64 characters without spaces"
        } else if try await users.exists(name: name) {
            form.nameError = "The user name \(name) is taken; choose another"
        }
        form.passwordError = Self.passwordProblem(password)
        if form.nameError != nil || form.passwordError != nil {
            return try await usersPage(viewer: viewer, newUser: form, status: .unprocessableContent)
        }
        try await users.create(name: name, password: password, isAdmin: isAdmin)
        return Response.seeOther("/admin/users?done=added")
    }

    /// `POST /admin/users/{id}/password`: sets a new password and ends the account's sessions.
    @Sendable func resetPassword(_ request: Request, context: AppRequestContext) async throws -> Response {
        let viewer = try context.viewer
        let fields = try await FormBody.verifiedFields(request, viewer: viewer)
        let account = try await requireUser(context)
        let password = fields["password"]?.first ?? ""
        if let problem = Self.passwordProblem(password) {
            return try await usersPage(viewer: viewer, passwordErrors: [account.id: problem], status: .unprocessableContent)
        }
        try await users.setPassword(password, for: account.id)
        // Resetting one's own password ends one's own session too: sign in again.
        return Response.seeOther(account.id == viewer.account?.id ? "/login?next=/admin/users" : "/admin/users?done=password")
    }

    /// `POST /admin/users/{id}/delete`: removes an account (not one's own).
    @Sendable func deleteUser(_ request: Request, context: AppRequestContext) async throws -> Response {
        let viewer = try context.viewer
        _ = try await FormBody.verifiedFields(request, viewer: viewer)
        let account = try await requireUser(context)
        guard account.id != viewer.account?.id else {
            throw HTTPError(.conflict, message: "You cannot remove your own account.")
        }
        try await users.delete(id: account.id)
        return Response.seeOther("/admin/users?done=removed")
    }

    static func passwordProblem(_ password: String) -> String? {
        if password.isEmpty { return "Enter a password" }
        if password.count < 8 { return "Enter a password of at least 8 characters" }
        // bcrypt reads 72 bytes at most; more would be silently ignored.
        if password.utf8.count > 72 { return "Enter a password of at most 72 bytes" }
        return nil
    }

    // MARK: Pages

    private func dashboardPage(
        viewer: Viewer, notice: String? = nil, problems: [AdminProblem] = [], importErrors: [String: Any]? = nil,
        pasted: String = "", kept: [ImportDraftStore.Document] = [], status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        var page = AdminPage(viewer: viewer, token: viewer.csrfToken, heading: "Admin")
        page.notice = notice
        page.problems = problems
        page.navForms = true
        var context = page.context(title: "Admin")
        var rows: [[String: Any]] = []
        let counts = try await objects.countsByForm()
        for form in try await forms.list() {
            rows.append([
                "id": form.id, "title": HTML.clean(form.title), "kind": form.sourceKind.displayName, "version": form.version,
                "objects": counts[form.id] ?? 0, "access": form.access.rawValue,
                "retired": form.state == .retired,
            ])
        }
        context["forms"] = rows
        context["hasForms"] = !rows.isEmpty
        context["pasted"] = HTML.clean(pasted)
        context["kept"] = kept.enumerated().map { index, file -> [String: Any] in
            ["id": file.id?.uuidString.lowercased() ?? "", "index": index + 1, "name": HTML.clean(file.name), "size": ByteSize.describe(file.data.count)]
        }
        context["hasKept"] = !kept.isEmpty
        if let importErrors { context["importErrors"] = importErrors }
        return try render(context, "admin/index", status: status)
    }

    private func formPage(
        _ form: StoredForm, viewer: Viewer, notice: String? = nil, listErrors: [String: [String]] = [:],
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let schema = try form.schema()
        var page = AdminPage(viewer: viewer, token: viewer.csrfToken, heading: form.id)
        page.back = ("/admin", "Admin")
        page.notice = notice
        page.navForms = true
        page.problems = listErrors.flatMap { listID, errors in
            errors.map { AdminProblem(text: $0, href: "#list-\(listID)-csv") }
        }
        var context = page.context(title: schema.title)
        context["id"] = form.id
        context["title"] = HTML.clean(schema.title)
        context["kind"] = form.sourceKind.displayName
        context["version"] = form.version
        let objectCounts = try await objects.countsByVersion(formID: form.id)
        context["objects"] = objectCounts.values.reduce(0, +)
        context["retired"] = form.state == .retired
        context["isPublic"] = form.access == .public
        var versions: [[String: Any]] = []
        let documentNames = try await forms.sourceDocumentNames(formID: form.id)
        for version in try await forms.versions(formID: form.id) {
            let documents = documentNames[version.version] ?? []
            versions.append([
                "formID": form.id, "version": version.version,
                "when": version.importedAt.map(AdminPage.timestamp) ?? "",
                "by": HTML.clean(version.importedBy ?? "command line"), "kind": version.sourceKind.displayName,
                "objects": objectCounts[version.version] ?? 0,
                "importHref": mustacheOptional(version.importID.map { "/admin/imports/\($0.uuidString.lowercased())" }),
                "documents": documents.enumerated().map { index, name in
                    ["name": HTML.clean(name), "href": "/admin/forms/\(form.id)/versions/\(version.version)/documents/\(index)"]
                },
            ])
        }
        context["versions"] = versions
        let uploaded = try await forms.uploadedOptions(formID: form.id)
        context["lists"] = schema.lists.map { list -> [String: Any] in
            let users = schema.allFields.filter { $0.list == list.id }.map(\.displayName)
            let current = uploaded[list.id]?.groups ?? list.groups
            let options = current.flatMap(\.options)
            let status: String
            if let upload = uploaded[list.id] {
                let when = upload.at.map(AdminPage.timestamp) ?? ""
                status = "\(options.count) uploaded option\(options.count == 1 ? "" : "s"), \(when)\(upload.by.map { " by \($0)" } ?? "")."
            } else if list.external {
                status = "No options uploaded yet: the field takes any value until you upload a list."
            } else {
                status = "\(options.count) option\(options.count == 1 ? "" : "s") from the spec. An upload replaces them in every version."
            }
            let errors = listErrors[list.id] ?? []
            let preview = options.prefix(5).map { "\($0.value) – \($0.label)" }.joined(separator: "; ")
                + (options.count > 5 ? "; …" : "")
            return [
                "formID": form.id, "listID": list.id, "fieldLabels": HTML.clean(Words.list(users.isEmpty ? [list.id] : users)),
                "status": HTML.clean(status), "preview": HTML.clean(preview), "hasPreview": !options.isEmpty,
                "errors": errors.map { ["text": HTML.clean($0)] }, "hasErrors": !errors.isEmpty,
            ]
        }
        return try render(context, "admin/form", status: status)
    }

    private func usersPage(
        viewer: Viewer, notice: String? = nil, newUser: NewUserForm = NewUserForm(),
        passwordErrors: [UUID: String] = [:], status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        var page = AdminPage(viewer: viewer, token: viewer.csrfToken, heading: "Users")
        page.back = ("/admin", "Admin")
        page.notice = notice
        page.navUsers = true
        page.problems =
            [newUser.nameError.map { AdminProblem(text: $0, href: "#field-name") },
             newUser.passwordError.map { AdminProblem(text: $0, href: "#field-password") }].compactMap { $0 }
            + passwordErrors.map { AdminProblem(text: $0.value, href: "#password-\($0.key.uuidString.lowercased())") }
        var context = page.context(title: "Users")
        context["users"] = try await users.list().map { account -> [String: Any] in
            [
                "id": account.id.uuidString.lowercased(), "name": HTML.clean(account.name),
                "role": account.isAdmin ? "Administrator" : "User", "isSelf": account.id == viewer.account?.id,
                "passwordError": mustacheOptional(passwordErrors[account.id]),
            ]
        }
        context["newName"] = HTML.clean(newUser.name)
        context["newAdmin"] = newUser.isAdmin
        context["nameError"] = mustacheOptional(newUser.nameError)
        context["newPasswordError"] = mustacheOptional(newUser.passwordError)
        return try render(context, "admin/users", status: status)
    }

    // MARK: Helpers

    private func render(_ context: [String: Any], _ template: String, status: HTTPResponse.Status = .ok) throws -> Response {
        let html = try renderer.render(context, template: template)
        return HTMLResponse.page(ByteBuffer(string: html), status: status, cacheControl: "no-store")
    }

    private func requireForm(_ context: AppRequestContext) async throws -> StoredForm {
        guard let form = try await forms.latest(formID: try context.parameters.require("id")) else {
            throw HTTPError(.notFound)
        }
        return form
    }

    /// The version named by the path parameter or `?version=`, else the latest.
    private func requireVersion(_ request: Request, _ context: AppRequestContext, parameter: String? = nil) async throws -> StoredForm {
        let id = try context.parameters.require("id")
        let named = parameter.flatMap { context.parameters.get($0) } ?? request.uri.queryParameters["version"].map(String.init)
        if let named {
            guard let number = Int(named), let form = try await forms.version(formID: id, version: number) else {
                throw HTTPError(.notFound)
            }
            return form
        }
        guard let form = try await forms.latest(formID: id) else { throw HTTPError(.notFound) }
        return form
    }

    private func requireUser(_ context: AppRequestContext) async throws -> Account {
        guard let id = UUID(uuidString: try context.parameters.require("user")), let account = try await users.account(id: id) else {
            throw HTTPError(.notFound)
        }
        return account
    }

    static func download(_ body: ByteBuffer, type: String, filename: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.contentLength] = String(body.readableBytes)
        headers[.contentDisposition] = AttachmentResponse.disposition(inline: false, filename: filename)
        headers[.cacheControl] = "no-store"
        // A download is never a page: nothing in it may run even if a browser showed it.
        headers[.fwContentSecurityPolicy] = "default-src 'none'; sandbox"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
    }
}

/// The fields of the add-user form, kept after a refusal.
struct NewUserForm {
    var name = ""
    var isAdmin = false
    var nameError: String?
    var passwordError: String?
}

/// What a finished action says at the top of the page it returns to.
enum AdminNotice {
    static func text(_ key: String) -> String? {
        switch key {
        case "access": "Access saved."
        case "retired": "The form is retired: it is no longer offered, and its create view answers “gone”."
        case "restored": "The form is restored and offered again."
        case "options": "Options uploaded; the form offers them now."
        case "added": "User added."
        case "password": "Password reset; the user's sessions have ended."
        case "removed": "User removed."
        default: nil
        }
    }
}
