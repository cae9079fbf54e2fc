import FormImport
import FormModel
import FormPages
import FormStore
import Foundation
import Hummingbird
import NIOCore

/// The admin dashboard and imports: the import form with the list of forms, the import
/// itself, and each import's report. Admins only (``AdminOnlyMiddleware`` guards the group);
/// the POST checks the CSRF token.
struct AdminImportsController {
    let forms: FormStore
    let imports: FormImports
    let objects: ObjectStore
    let renderer: PageRenderer
    /// The files of the admin's last refused import.
    let drafts: ImportDraftStore

    func addRoutes(to admin: RouterGroup<AppRequestContext>) {
        admin.get("", use: dashboard)
        admin.post("import", use: importDocuments)
        admin.get("imports/:import", use: importReport)
    }

    /// `GET /admin[?cursor=…]`: the import form and a page of the list of forms, ordered by id.
    @Sendable func dashboard(_ request: Request, context: AppRequestContext) async throws -> Response {
        let viewer = try context.viewer
        let notice = request.uri.queryParameters["done"].map(String.init).flatMap(AdminNotice.text)
        let cursor = try ListCursors.read(ListCursor<FormListKey>.self, from: request)
        return try await dashboardPage(viewer: viewer, notice: notice, cursor: cursor)
    }

    /// `POST /admin/import`: files and pasted XML as one batch, through the same code path as
    /// `fieldwork import`. All of it is stored, or, when any document is refused, nothing; the
    /// files of a refused batch are kept for the next try (``ImportDraftStore``).
    @Sendable func importDocuments(_ request: Request, context: AppRequestContext) async throws -> Response {
        let viewer = try context.viewer
        let upload = try await AdminUpload.read(request)
        try viewer.requireToken(upload.field(InputName.csrf))
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
            let problem = AdminProblem(
                text: "Choose a file to import, or paste XML", href: AdminDashboard.documentsField.link)
            return try await dashboardPage(
                viewer: viewer, problems: [problem], pasted: pasted, status: .unprocessableContent)
        }
        let run = try await imports.run(
            documents, importedBy: viewer.account?.name, via: .admin, policy: .allOrNothing)
        guard let stored = run.record else {
            let report = ImportErrorReport(errors: run.outcomes.failures.flatMap(\.errors), documents: documents)
            let keptNow = try await drafts.keep(files, owner: owner)
            return try await dashboardPage(
                viewer: viewer, problems: report.summary, importErrors: report, pasted: pasted, kept: keptNow,
                status: .unprocessableContent)
        }
        try await drafts.clear(owner: owner)
        return Response.seeOther("/admin/imports/\(stored.id.uuidString.lowercased())")
    }

    /// `GET /admin/imports/{id}`: what an import made, and its report.
    @Sendable func importReport(_ request: Request, context: AppRequestContext) async throws -> Response {
        let viewer = try context.viewer
        guard let id = UUID(uuidString: try context.parameters.require("import")),
            let stored = try await forms.importSummary(id: id)
        else { throw HTTPError(.notFound) }
        var page = AdminPage(viewer: viewer, token: viewer.csrfToken, heading: "Import")
        page.back = ("/admin", "Admin")
        page.navForms = true
        let report = ImportReportView(
            page: page, summary: stored.summary, kind: stored.kind, at: stored.at, by: stored.by)
        return try renderer.adminPage(report, template: "admin/import")
    }

    /// The dashboard: the import form (with a refused import's errors and kept files) and a page
    /// of the forms, the first unless a cursor names another.
    private func dashboardPage(
        viewer: Viewer, notice: String? = nil, problems: [AdminProblem] = [], importErrors: ImportErrorReport? = nil,
        pasted: String = "", kept: [ImportDraftStore.Document] = [], cursor: ListCursor<FormListKey>? = nil,
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        var page = AdminPage(viewer: viewer, token: viewer.csrfToken, heading: "Admin")
        page.notice = notice
        page.problems = problems
        page.navForms = true
        let listed = try await forms.page(from: cursor, size: Self.pageSize)
        let counts = try await objects.countsByForm(listed.items.map(\.id), upTo: Self.countLimit)
        let warnings = try await forms.importWarnings(of: listed.items.map(\.id))
        let rows = listed.items.map { form in
            AdminDashboard.FormRow(
                id: PageText(form.id), title: PageText(form.title), kind: form.sourceKind.displayName,
                version: form.version, objects: Self.describeCount(counts[form.id] ?? 0), access: form.access.rawValue,
                retired: form.state == .retired,
                partly: warnings[form.id].map { warned in
                    [
                        AdminDashboard.Partly(
                            href: "/admin/imports/\(warned.importID.uuidString.lowercased())",
                            text: "Partly imported: \(Words.count(warned.count, "warning"))")
                    ]
                } ?? [])
        }
        let keptFiles = kept.enumerated().map { index, file in
            AdminDashboard.KeptFile(
                id: file.id?.uuidString.lowercased() ?? "", index: index + 1, name: PageText(file.name),
                size: ByteSize.describe(file.data.count))
        }
        let dashboard = AdminDashboard(
            layout: page.layout(title: nil), admin: page.header, importErrors: importErrors.map { [$0] } ?? [],
            kept: keptFiles, pasted: PageText(pasted), forms: rows,
            previousPage: listed.before.map { ListCursors.href("/admin", $0) },
            nextPage: listed.after.map { ListCursors.href("/admin", $0) })
        return try renderer.adminPage(dashboard, template: "admin/index", status: status)
    }

    /// Forms per page of the dashboard's list.
    static let pageSize = 50

    /// The list counts each form's objects up to this many, then says "1,000+": counting a
    /// million would make the page as slow as the table is large (the form's own page counts
    /// them all, by version).
    static let countLimit = 1_000

    /// A count as the list shows it: the number, or the limit with a plus past it.
    static func describeCount(_ count: Int) -> String {
        count > countLimit ? "\(countLimit.formatted(.number.locale(Locale(identifier: "en_US"))))+" : "\(count)"
    }
}
