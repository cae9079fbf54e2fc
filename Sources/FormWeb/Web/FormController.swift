import Foundation
import Hummingbird
import Logging
import NIOCore

/// The browser pages of forms (list, parent page, create view) and the read-only JSON of forms.
struct FormController {
    let store: FormStore
    let objects: ObjectStore
    let plans: PlanCache
    let viewers: ViewerResolver
    let prefill: SignedPrefill

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("/", use: index)
        router.get("/forms/:id", use: parentPage)
        router.get("/forms/:id/new", use: createView)
        router.get("/api/forms/:id", use: schemaJSON)
    }

    /// `GET /`: the forms that can be filled.
    @Sendable func index(_ request: Request, context: AppRequestContext) async throws -> Response {
        let viewer = try await viewers.viewer(request, context: context)
        // The forms this viewer may fill: active ones, and those for users only when signed in.
        let forms = try await store.list().filter { $0.state == .active && ($0.access == .public || viewer.account != nil) }
        var state = RenderState(values: [:], csrfToken: viewers.token(for: viewer))
        state.accountName = viewer.account?.name
        state.isAdmin = viewer.isAdmin
        var response = HTMLResponse.page(try await plans.indexPage(for: forms).render(state), cacheControl: "no-store")
        response.remember(viewer)
        return response
    }

    /// `GET /forms/{id}`: the parent page, listing the objects this viewer may see, newest first.
    @Sendable func parentPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await requireForm(context)
        let viewer = try await viewers.viewer(request, context: context)
        if let signIn = Access.signInRedirect(form: form, viewer: viewer, request: request) { return signIn }
        var state = emptyState
        // A page of the list, and one more to learn whether an older page exists.
        let page = max(1, min(Int(request.uri.queryParameters["page"].map(String.init) ?? "") ?? 1, 100_000))
        let start = (page - 1) * Self.pageSize
        let found = try await objects.list(formID: form.id, for: viewer, range: start..<(start + Self.pageSize + 1))
        state.listItems = found.prefix(Self.pageSize).map { object in
            ListItem(href: "/forms/\(form.id)/\(object.id.uuidString.lowercased())", text: object.keyText)
        }
        if page > 1 { state.newerPage = page == 2 ? "/forms/\(form.id)" : "/forms/\(form.id)?page=\(page - 1)" }
        if found.count > Self.pageSize { state.olderPage = "/forms/\(form.id)?page=\(page + 1)" }
        // The list is this viewer's: no shared cache may keep it.
        var response = HTMLResponse.page(try await plans.parentPage(for: form).render(state), cacheControl: "no-store")
        response.remember(viewer)
        return response
    }

    /// `GET /forms/{id}/new`: the create view, from the version's prepared plan.
    @Sendable func createView(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await requireForm(context)
        guard form.state == .active else { throw HTTPError(.gone) }
        let viewer = try await viewers.viewer(request, context: context)
        if let signIn = Access.signInRedirect(form: form, viewer: viewer, request: request) { return signIn }
        let view = try await plans.createView(for: form)
        let query = QueryString.parse(request.uri.query)
        let values = view.initialValues(query: query)
        var state = RenderState(
            values: values,
            csrfToken: viewers.token(for: viewer),
            layout: LayoutMode(query: query["layout"]?.first)
        )
        if !view.readOnlyFields.isEmpty {
            state.prefillSeal = prefill.seal(formID: form.id, version: form.version, values: view.readOnlyValues(values))
        }
        // The page holds this browser's CSRF token: never let a shared cache keep it.
        var response = HTMLResponse.page(view.render(state), cacheControl: "no-store")
        response.remember(viewer)
        return response
    }

    /// `GET /api/forms/{id}`: the canonical JSON schema.
    @Sendable func schemaJSON(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await requireForm(context)
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: form.schemaJSON)))
    }

    /// Objects per page of the parent page's list.
    static let pageSize = 50

    private var emptyState: RenderState { RenderState(values: [:], csrfToken: "") }

    private func requireForm(_ context: AppRequestContext) async throws -> StoredForm {
        let id = try context.parameters.require("id")
        guard let form = try await store.latest(formID: id) else { throw HTTPError(.notFound) }
        return form
    }
}
