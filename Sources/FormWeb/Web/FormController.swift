import FormModel
import FormPages
import FormStore
import Foundation
import Hummingbird
import Logging
import NIOCore

/// The browser pages of forms (the list and each form's parent page) and the canonical JSON
/// of a form.
struct FormController {
    /// The forms' heads and list, from memory.
    let heads: any FormHeads
    let objects: ObjectStore
    let plans: PlanCache
    let services: ServiceClients
    let valueHelps: ServiceValueHelps

    /// - Parameters:
    ///   - browser: the browser pages' group; `form`, its `/forms/{id}` group.
    ///   - apiForm: the API's `/api/forms/{id}` group; `apiActiveForm`, of forms that take objects.
    func addRoutes(
        browser: RouterGroup<AppRequestContext>, form: RouterGroup<AppRequestContext>,
        apiForm: RouterGroup<AppRequestContext>, apiActiveForm: RouterGroup<AppRequestContext>
    ) {
        browser.get("/", use: index)
        form.get(use: parentPage)
        apiForm.get(use: schemaJSON)
        apiActiveForm.get("fields/:field/options", use: options)
    }

    /// `GET /`: the forms that can be filled.
    @Sendable func index(_ request: Request, context: AppRequestContext) async throws -> Response {
        let viewer = try context.viewer
        // The forms this viewer may fill: active ones, and those for users only when signed in.
        let forms = try await heads.list().filter {
            $0.state == .active && ($0.access == .public || viewer.account != nil)
        }
        var state = RenderState(values: [:], csrfToken: viewer.csrfToken)
        state.accountName = viewer.account?.name
        state.isAdmin = viewer.isAdmin
        return HTMLResponse.page(try plans.indexPage(for: forms).render(state), cacheControl: "no-store")
    }

    /// `GET /forms/{id}[?cursor=…]`: the parent page, listing the objects this viewer may see,
    /// newest first, a page at a time; the links to the newer and older pages carry the cursor
    /// of the page they lead to. A cursor that is no cursor answers 400 and says where to go.
    @Sendable func parentPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try context.form
        let viewer = try context.viewer
        let cursor = try ListCursors.read(ListCursor<ObjectListKey>.self, from: request)
        let page = try await objects.page(
            formID: form.id, visibleTo: viewer.visibleObjects, from: cursor, size: Self.pageSize)
        var state = RenderState(values: [:], csrfToken: "")
        state.listItems = page.items.map { object in
            ListItem(href: "/forms/\(form.id)/\(object.id.uuidString.lowercased())", text: object.keyText)
        }
        state.newerPage = page.before.map { ListCursors.href("/forms/\(form.id)", $0) }
        state.olderPage = page.after.map { ListCursors.href("/forms/\(form.id)", $0) }
        // The list is this viewer's: no shared cache may keep it.
        return HTMLResponse.page(try plans.parentPage(for: form).render(state), cacheControl: "no-store")
    }

    /// `GET /api/forms/{id}`: the canonical JSON schema; 401 for a form for users without a
    /// session or the admin token, as its create view asks for sign-in.
    @Sendable func schemaJSON(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try context.form
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        // With options uploaded for its lists, the schema the server checks against is the
        // version's with those options (the create view's), not the one first stored.
        let json =
            form.listsRevision > 0
            ? ByteBuffer(bytes: try await plans.versions.prepared(form, mode: .create).schema.canonicalJSON())
            : ByteBuffer(string: form.schemaJSON)
        return Response(
            status: .ok, headers: headers, body: .init(byteBuffer: JSONResponse.withoutMarkup(json)))
    }

    /// `GET /api/forms/{id}/fields/{field}/options?q=&page=`: the options of a value list that
    /// match what was typed, 50 a page, for the list screen of a long list (and for scripts);
    /// the other fields' values, as query parameters by field name, filter a list whose options
    /// depend on them (a service value help's `In` parameters, an XForm's filtered itemset).
    /// `{"options": [{"value", "label", "group"?, "fills"?}], "total", "page", "more"}`, where
    /// `fills` gives, by field name, the values choosing the option puts into other fields of
    /// the form (its service value help's `Out` parameters); 404 for a field
    /// that is no value list, 410 for a retired form, 401 for a users form without sign-in.
    @Sendable func options(_ request: Request, context: AppRequestContext) async throws -> Response {
        var form = try context.form
        // Labelled in the form's language the request asks for, as its page is.
        form.shownLanguage = try plans.versions.language(of: form, for: LanguageChoice.ranges(request))
        let view = try await plans.versions.prepared(form, mode: .create)
        // An item's field by its input name (`_Booking[1].AirlineID`, its brackets as written or
        // percent-encoded): its list is its list's.
        let sent = try context.parameters.require("field")
        let field = sent.removingPercentEncoding ?? sent
        guard let search = view.optionSearches[ItemList.ruleKey(field)] else { throw HTTPError(.notFound) }
        // Read as a form's query string: the list screen's URLSearchParams writes a space as `+`.
        let parameters = QueryString.parse(request.uri.query)
        let query = parameters["q"]?.first ?? ""
        let page = Int(parameters["page"]?.first ?? "") ?? 1
        // The other fields' values, as query parameters by field name: they filter a list whose
        // options depend on them.
        var answers = parameters
        answers["q"] = nil
        answers["page"] = nil
        if let target = try await services.target(for: form, schema: view.schema),
            let (scope, own) = ValueHelpScope.of(field, schema: view.schema, target: target),
            ServiceValueHelps.feeds(own, scope.schema, scope.target)
        {
            // Fed by the form's service (an item's field by its composition's value help):
            // filtered as its In parameters say, by the values of its own item.
            let values = ServiceValueHelps.choices(scope.local(answers))
            let number = min(max(page, 1), 10_000)
            do {
                let found = try await valueHelps.page(
                    own, query: String(query.prefix(200)), page: number, formValues: values, target: scope.target)
                let total = found.total ?? ((number - 1) * ServiceValueHelps.pageSize + found.options.count)
                let readOnly = scope.readOnly(Set(view.readOnlyFields))
                return try JSONResponse.make(
                    OptionsPage(
                        options: found.options.enumerated().map { index, option in
                            let fills = found.fills(at: index).map {
                                scope.global(
                                    ServiceValueHelps.fills(
                                        $0, of: own, schema: scope.schema, readOnly: readOnly, target: scope.target))
                            }
                            return OptionsPage.Option(
                                value: option.value, label: option.label, fills: fills?.isEmpty == false ? fills : nil)
                        },
                        total: total,
                        page: number, more: number * ServiceValueHelps.pageSize < total),
                    status: .ok)
            } catch {
                return try JSONResponse.make(
                    APIMessage("The service that holds this list did not answer. Try again."), status: .badGateway)
            }
        }
        // A list the form's rules filter (an XForm's itemset): only what they offer for them.
        let (prepared, session, asked) = (view, RuleSession(view, viewer: try context.viewer), answers)
        let offered =
            prepared.rules?.choicesByAnswers.contains(field) == true
            ? await BlockingWork.run { prepared.offeredOptions(of: field, for: asked, session: session) }
            : nil
        let found = search.search(String(query.prefix(200)), page: min(max(page, 1), 10_000), among: offered)
        return try JSONResponse.make(
            OptionsPage(
                options: found.matches.map { OptionsPage.Option(value: $0.value, label: $0.label, group: $0.group) },
                total: found.total, page: found.page, more: found.hasMore),
            status: .ok)
    }

    /// Objects per page of the parent page's list.
    static let pageSize = 50
}

/// A page of a value list's options, as `GET /api/forms/{id}/fields/{field}/options` gives it.
struct OptionsPage: Encodable {
    /// One option; `group` and `fills` only when it has them.
    struct Option: Encodable {
        var value: String
        var label: String
        var group: String? = nil
        var fills: [String: String]? = nil
    }

    var options: [Option]
    var total: Int
    var page: Int
    var more: Bool
}
