import FormModel
import FormPages
import FormService
import FormStore
import Foundation
import Hummingbird

/// The admin's page of one form (`admin/form`): its summary, access and state, the service an
/// OData form's import is connected to, webhooks, export, versions with their downloads and
/// value lists with their upload forms. Each admin resource's controller answers with it, a
/// refusal's errors and what was typed in place.
struct AdminFormPage {
    let forms: FormStore
    let objects: ObjectStore
    let renderer: PageRenderer
    let connections: ConnectionStore
    let webhooks: Webhooks

    /// The form page: summary, access and state forms, the service (OData forms), versions, and
    /// value lists with their upload forms.
    /// - Parameters:
    ///   - entered: the service form as sent, after a refusal or a test.
    ///   - tested: the drift a test found, when the page answers "Test connection".
    ///   - webhookEntered: the webhook form as sent, after a refusal.
    ///   - webhookCreated: the endpoint just added and its secret, shown this once.
    func callAsFunction(
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
                errors.map { AdminProblem(text: $0, href: FormSettingsPage.csvField(of: listID).link) }
            }
        let objectCounts = try await objects.countsByVersion(formID: form.id)
        let documentNames = try await forms.sourceDocumentNames(formID: form.id)
        let versions = try await forms.versions(formID: form.id).map { version in
            let documents = documentNames[version.version] ?? []
            return FormSettingsPage.VersionRow(
                formID: PageText(form.id), version: version.version,
                when: version.importedAt.map(AdminPage.timestamp) ?? "",
                by: PageText(version.importedBy ?? "command line"), kind: version.sourceKind.displayName,
                objects: objectCounts[version.version] ?? 0,
                importHref: PageText(version.importID.map { "/admin/imports/\($0.uuidString.lowercased())" }),
                documents: documents.enumerated().map { index, name in
                    FormSettingsPage.DocumentLink(
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
            return FormSettingsPage.ListRow(
                formID: PageText(form.id), listID: list.id,
                odkFile: instance.map { [PageText($0)] } ?? [],
                heading: title ?? PageText(Words.list(users.isEmpty ? [list.id] : users)),
                usedBy: title == nil || users.isEmpty ? [] : [PageText(Words.list(users))], status: PageText(status),
                preview: PageText(preview), errors: errors.map { PageText($0) })
        }
        let settings = FormSettingsPage(
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

    /// The section for an OData form; nil for a native one.
    func serviceSection(
        _ form: StoredForm, entered: ServiceConnectionForm?, tested: ServiceDrift?, secretTyped: Bool
    ) async throws -> ServiceSection? {
        guard form.sourceKind != .native else { return nil }
        var stored: StoredConnection?
        if let id = form.service?.connectionID { stored = try await connections.connection(id: id) }
        var titles: [String: String] = [:]
        for formID in stored?.modes.keys.sorted() ?? [] {
            titles[formID] = try? await forms.latest(formID: formID)?.schema().title
        }
        return ServiceSection(
            formID: form.id, stored: stored, titles: titles,
            unknown: try await objects.unknownOutcomes(formIDs: [form.id]), entered: entered, test: tested,
            secretTyped: secretTyped)
    }
}
