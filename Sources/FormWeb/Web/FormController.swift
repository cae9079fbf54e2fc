import Foundation
import Hummingbird
import Logging
import NIOCore

/// The browser pages of forms (the list and each form's parent page) and the canonical JSON
/// of a form.
struct FormController {
    let store: FormStore
    let objects: ObjectStore
    let plans: PlanCache

    func addRoutes(to router: Router<AppRequestContext>, api: RouterGroup<AppRequestContext>) {
        router.get("/", use: index)
        router.get("/forms/:id", use: parentPage)
        api.get("forms/:id", use: schemaJSON)
    }

    /// `GET /`: the forms that can be filled.
    @Sendable func index(_ request: Request, context: AppRequestContext) async throws -> Response {
        let viewer = try context.viewer
        // The forms this viewer may fill: active ones, and those for users only when signed in.
        let forms = try await store.list().filter { $0.state == .active && ($0.access == .public || viewer.account != nil) }
        var state = RenderState(values: [:], csrfToken: viewer.csrfToken)
        state.accountName = viewer.account?.name
        state.isAdmin = viewer.isAdmin
        return HTMLResponse.page(try await plans.indexPage(for: forms).render(state), cacheControl: "no-store")
    }

    /// `GET /forms/{id}`: the parent page, listing the objects this viewer may see, newest first.
    @Sendable func parentPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await store.require(try context.parameters.require("id"))
        let viewer = try context.viewer
        if let signIn = Access.signInRedirect(form: form, viewer: viewer, request: request) { return signIn }
        var state = RenderState(values: [:], csrfToken: "")
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
        return HTMLResponse.page(try await plans.parentPage(for: form).render(state), cacheControl: "no-store")
    }

    /// `GET /api/forms/{id}`: the canonical JSON schema.
    @Sendable func schemaJSON(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await store.require(try context.parameters.require("id"))
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: form.schemaJSON)))
    }

    /// Objects per page of the parent page's list.
    static let pageSize = 50
}
