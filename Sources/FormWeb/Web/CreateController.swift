import FormModel
import FormPages
import FormStore
import Foundation
import Hummingbird

/// The create use case in the browser: the create view (`GET /forms/{id}/new`) and its POST
/// (`POST /forms/{id}`), which ``ObjectSubmissions`` validates and stores.
struct CreateController {
    let plans: PlanCache
    let prefill: SignedPrefill
    let drafts: KeptDraft
    let reader: SubmissionReader
    let submissions: ObjectSubmissions
    let services: ServiceClients
    let cookies: CookiePolicy

    /// - Parameter activeForm: the `/forms/{id}` group of forms that take new objects.
    func addRoutes(to activeForm: RouterGroup<AppRequestContext>) {
        activeForm.get("new", use: createView)
        activeForm.post(use: create)
        activeForm.post("draft/discard", use: discardDraft)
        activeForm.post("rules", use: rules)
    }

    /// `POST /forms/{id}/rules`: which questions of the create view apply to its answers
    /// (``RulesAnswer``).
    @Sendable func rules(_ request: Request, context: AppRequestContext) async throws -> Response {
        // The version as prepared: no page is built to answer.
        let form = try await plans.versions.prepared(try shown(context.form, request), mode: .create)
        return try await RulesAnswer.answer(request, form: form, viewer: try context.viewer, reader: reader)
    }

    /// `GET /forms/{id}/new`: the create view, from the version's prepared plan. A fresh view
    /// (no query but the layout) of a form whose fresh views start alike is the version's start
    /// page with this request's tokens: nothing is worked out again.
    @Sendable func createView(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try shown(context.form, request)
        let viewer = try context.viewer
        let view = try await plans.createView(for: form)
        let query = QueryString.parse(request.uri.query)
        let layout = LayoutMode(query: query["layout"]?.first)
        let page: ByteBuffer
        if view.form.startsAlike, query.keys.allSatisfy({ $0 == "layout" }) {
            let clock = view.form.startClock()
            let start = await view.startPage(StartKey(layout: layout, clock: clock)) {
                await startState(
                    of: view, values: view.form.startValues(at: clock), clock: clock, layout: layout, viewer: viewer)
            }
            page = view.render(start, csrfToken: viewer.csrfToken, submissionToken: SubmissionToken.make())
        } else {
            var (state, seal) = await startState(
                of: view, values: view.form.initialValues(query: query), clock: view.form.startClock(), layout: layout,
                viewer: viewer)
            state.csrfToken = viewer.csrfToken
            state.submissionToken = SubmissionToken.make()
            state.prefillSeal = seal
            page = view.render(state)
        }
        // The page holds this browser's CSRF token: never let a shared cache keep it.
        return HTMLResponse.page(page, cacheControl: "no-store")
    }

    /// A create view's state as it starts from `values` (the defaults, a query's prefill), before
    /// its tokens: an XForm's first-load values, what the form's rules make of them, and the seal
    /// of its read-only values (with when it was shown, for an XForm that records it).
    /// - Parameter clock: what the items' `today` and `now` defaults read (nil when none does).
    private func startState(
        of view: FormView, values: [String: [String]], clock: ClockReading?, layout: LayoutMode, viewer: Viewer
    ) async -> (state: RenderState, seal: String?) {
        var values = values
        if let rules = view.form.rules {
            // An XForm's first-load values, which run after its defaults are in place.
            values.merge(rules.initialValues(session: RuleSession(view.form, viewer: viewer))) { _, loaded in loaded }
        }
        var state = RenderState(values: values, csrfToken: "", layout: layout)
        state.startItems(of: view.schema, clock: clock)
        await state.showRules(of: view.form, viewer: viewer, keep: true)
        guard Self.seals(view) else { return (state, nil) }
        var sealed = view.form.readOnlyValues(values)
        if view.form.rules?.recordsStart == true {
            // When the form was shown: an XForm's `timestamp start`.
            sealed[RuleSession.startedKey] = [String(Date().timeIntervalSince1970)]
        }
        return (state, prefill.seal(formID: view.formID, version: view.version, values: sealed))
    }

    /// `POST /forms/{id}`: 303 to the new object once it is committed, or 422 with the create view again.
    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try shown(context.form, request)
        let viewer = try context.viewer
        var view = try await plans.createView(for: form)
        var received = try await reader.readVerified(request, schema: view.schema, viewer: viewer)
        // The language switch: the form again in the language chosen, everything typed kept.
        let switched = LanguageChoice.switched(received)
        if let switched {
            var chosen = try context.form
            chosen.shownLanguage = try plans.versions.language(of: chosen, for: [switched])
            view = try await plans.createView(for: chosen)
        }
        try await reader.resolveKept(&received, schema: view.schema, viewer: viewer, stored: [:])
        // Read-only values come from the seal the create view carried, or, when it is missing or
        // altered, from the form's own defaults: never from what the browser sent for them.
        // A form without read-only fields has nothing to seal: skip working out its defaults.
        let sealed =
            !Self.seals(view)
            ? [:]
            : prefill.open(received.control(InputName.prefill), formID: form.id, version: form.version)
                ?? view.form.readOnlyValues(view.form.initialValues(query: [:]))
        let again: ShownAgain
        let serverValues: [String: [String]]
        let token = SubmissionToken.parse(received.control(InputName.once))
        let service = try await services.target(for: form, schema: view.schema)
        // The draft a refused activation kept: the corrected create goes on with it.
        var keptDraft = drafts.open(received.control(InputName.draft), formID: form.id, owner: viewer.ownerKey)
        if let (shown, filled) = await ShownAgain.browsing(
            received, view: view, valueHelps: submissions.valueHelps, target: service)
        {
            // A long list's Search button or Use this choice: the same form again, everything
            // typed kept. Nothing is validated or stored.
            again = shown
            serverValues = view.form.serverValues(known: sealed).merging(filled) { server, _ in server }
        } else {
            switch try await submissions.create(
                received.submission, form: view.form, viewer: viewer, readOnlyValues: sealed,
                once: token.map(OnceKey.page), service: service, draft: (keptDraft, true))
            {
            case .stored(let object):
                // Also the answer to the same create sent again: the first one's object.
                return Response.seeOther(ObjectController.path(form.id, object.id))
            case .keyReused:
                // A page token has no body to differ by; only an API key is refused this way.
                throw HTTPError(.conflict)
            case .refused(let result, let refusedValues, let service):
                again = .refused(result.issues)
                serverValues = refusedValues
                // A refusal before the service (or of the create itself) leaves a kept draft as it is.
                keptDraft = service?.draft ?? keptDraft
            case .serviceAway(let message):
                // The clear page: the form again, everything kept, saying nothing was created.
                again = .serviceAway(message)
                serverValues = view.form.serverValues(known: sealed)
            case .outcomeUnknown(let object):
                // The detail page says the answer was lost; the object is never sent again by itself.
                return Response.seeOther(ObjectController.path(form.id, object.id))
            }
        }
        var state = try await reader.state(
            shownAgain: again, received, view: view, viewer: viewer, serverValues: serverValues, stored: [:])
        state.choiceLabels = await submissions.valueHelps.labels(of: state.values, schema: view.schema, target: service)
        state.layout = LayoutMode(query: QueryString.parse(request.uri.query)["layout"]?.first)
        if Self.seals(view) {
            state.prefillSeal = prefill.seal(formID: form.id, version: form.version, values: sealed)
        }
        // Shown again, the create view keeps its one-time token: the corrected create is one create too.
        state.submissionToken = token ?? SubmissionToken.make()
        state.keptDraft = keptDraft.map { drafts.seal($0, formID: form.id, owner: viewer.ownerKey) }
        var response = HTMLResponse.page(view.render(state), status: again.status, cacheControl: "no-store")
        if let switched {
            response.headers[values: .setCookie].append(LanguageChoice.cookie(switched, policy: cookies))
        }
        return response
    }

    /// The form in the language of its own the request asks for (``LanguageChoice``).
    private func shown(_ form: StoredForm, _ request: Request) throws -> StoredForm {
        var form = form
        form.shownLanguage = try plans.versions.language(of: form, for: LanguageChoice.ranges(request))
        return form
    }

    /// Whether the create view carries a seal: of its read-only fields' values, or of when it
    /// was shown, for a form whose rules read that.
    static func seals(_ view: FormView) -> Bool {
        !view.readOnlyFields.isEmpty || view.form.rules?.recordsStart == true
    }

    /// `POST /forms/{id}/draft/discard`: Cancel on a create view whose service keeps a draft of
    /// it (a refused activation): the draft is discarded, then 303 to the parent page. A draft
    /// the service no longer has, or a service that does not answer, still leaves the view: the
    /// service's own draft lifetime ends such a draft, as it does one whose browser went away.
    @Sendable func discardDraft(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try context.form
        let viewer = try context.viewer
        let view = try await plans.versions.prepared(form, mode: .create)
        let received = try await reader.readVerified(request, schema: view.schema, viewer: viewer)
        if let draft = drafts.open(received.control(InputName.draft), formID: form.id, owner: viewer.ownerKey),
            let target = try await services.target(for: form, schema: view.schema)
        {
            await ServiceObjects.discard(draft, target: target, logger: context.logger)
        }
        return Response.seeOther("/forms/\(form.id)")
    }
}
