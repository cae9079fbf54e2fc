import Foundation
import Hummingbird
import Logging
import NIOCore

/// The browser pages and the read-only JSON of forms.
struct FormController {
    let store: FormStore
    let plans: PlanCache
    let csrf: CSRF

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("/", use: index)
        router.get("/forms/:id", use: parentPage)
        router.get("/forms/:id/new", use: createView)
        router.get("/api/forms/:id", use: schemaJSON)
    }

    /// `GET /`: the forms that can be filled.
    @Sendable func index(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let forms = try await store.list().filter { $0.state == .active }
        return HTMLResponse.page(try await plans.indexPage(for: forms).render(emptyState))
    }

    /// `GET /forms/{id}`: the parent page with the "+" action.
    @Sendable func parentPage(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let form = try await requireForm(context)
        return HTMLResponse.page(try await plans.parentPage(for: form).render(emptyState))
    }

    /// `GET /forms/{id}/new`: the create view, from the version's prepared plan.
    @Sendable func createView(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let form = try await requireForm(context)
        guard form.state == .active else { throw HTTPError(.notFound) }
        let view = try await plans.createView(for: form)
        let query = QueryString.parse(request.uri.query)
        let browser = csrf.identify(request)
        let state = RenderState(
            values: view.initialValues(query: query),
            csrfToken: csrf.token(for: browser.id),
            layout: LayoutMode(query: query["layout"]?.first)
        )
        // The page holds this browser's CSRF token: never let a shared cache keep it.
        var response = HTMLResponse.page(view.render(state), cacheControl: "no-store")
        if let cookie = browser.newCookie { response.setCookie(cookie) }
        return response
    }

    /// `GET /api/forms/{id}`: the canonical JSON schema.
    @Sendable func schemaJSON(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let form = try await requireForm(context)
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: form.schemaJSON)))
    }

    private var emptyState: RenderState { RenderState(values: [:], csrfToken: "") }

    private func requireForm(_ context: BasicRequestContext) async throws -> StoredForm {
        let id = try context.parameters.require("id")
        guard let form = try await store.latest(formID: id) else { throw HTTPError(.notFound) }
        return form
    }
}
