import FormModel
import FormPages
import FormStore
import Foundation
import Hummingbird
import NIOCore

/// Objects in the browser: detail, edit and its POST (through ``ObjectSubmissions``), delete,
/// and their files. Creating is ``CreateController``'s.
struct ObjectController {
    let forms: FormStore
    let objects: ObjectStore
    let plans: PlanCache
    let reader: SubmissionReader
    let submissions: ObjectSubmissions
    let attachments: AttachmentStore
    let services: ServiceClients
    let cookies: CookiePolicy

    /// - Parameters:
    ///   - browser: the browser pages' group.
    ///   - form: its `/forms/{id}` group, of retired forms too: their objects stay.
    func addRoutes(browser: RouterGroup<AppRequestContext>, form: RouterGroup<AppRequestContext>) {
        form.get(":object", use: detail)
        form.get(":object/edit", use: edit)
        form.post(":object", use: update)
        form.post(":object/rules", use: rules)
        form.get(":object/delete", use: confirmDelete)
        form.post(":object/delete", use: delete)
        form.get(":object/files/:file", use: file)
        browser.get("/attachments/staged/:file", use: stagedFile)
    }

    /// `GET /forms/{id}/{object}`: the object's values for people.
    @Sendable func detail(_ request: Request, context: AppRequestContext) async throws -> Response {
        var (object, view) = try await load(request, context)
        var notice: String?
        var labels: [String: [String: String]] = [:]
        // An object a service holds is read back from it: the page shows the entity as it is now,
        // each value-help value by its text in the service.
        if object.service != nil, let target = try await services.target(for: try context.form, schema: view.schema) {
            (object, notice) = await ServiceObjects(objects: objects).current(object, target: target)
            labels = await submissions.valueHelps.labels(
                of: InputStrings.of(object.values), schema: view.schema, target: target)
        } else if object.service?.state == .unknown {
            notice = ServiceObjects.unknownNotice(object)
        }
        var state = RenderState(values: [:], csrfToken: "")
        if let notice { state.errors = [FieldError(field: "", message: notice)] }
        state.objectPath = Self.path(object.formID, object.id)
        state.heading = object.keyText
        state.files = InputStrings.files(of: object.values)
        state.filesDate = (object.updatedAt ?? object.createdAt).map(DisplayDate.text) ?? ""
        for field in view.schema.allFields where field.kind != .attachments {
            guard let value = object.values[field.name] else { continue }
            // Long multi-values read "A, B and 3 more", with every item behind a disclosure.
            let items = value.displayItems(for: field, in: view.schema)
            let text = value.displayText(for: field, in: view.schema)
            if !text.isEmpty { state.display[field.name] = text }
            if items.count > 1, text != Words.list(items) { state.displayItems[field.name] = items }
            if let known = labels[field.name], case .choice(let chosen) = value, let label = known[chosen] {
                state.display[field.name] = label
            }
        }
        for list in view.schema.itemLists { state.showItems(object.values[list.name], of: list, in: view.schema) }
        if labels.keys.contains(where: { $0.contains("[") }) {
            // An item's value-help choices read as the service names them, as the form's own do.
            let strings = InputStrings.of(object.values)
            for (input, known) in labels where input.contains("[") {
                if let chosen = strings[input]?.first, let label = known[chosen] { state.display[input] = label }
            }
        }
        return HTMLResponse.page(try plans.detailPage(for: view).render(state), cacheControl: "no-store")
    }

    /// `GET /forms/{id}/{object}/edit`: the form of the object's version, filled in.
    @Sendable func edit(_ request: Request, context: AppRequestContext) async throws -> Response {
        var (object, view) = try await load(request, context)
        var notice: String?
        var labels: [String: [String: String]] = [:]
        if object.service != nil, let target = try await services.target(for: try context.form, schema: view.schema) {
            // The edit starts from the entity as the service holds it now, and its ETag is kept
            // for the save's If-Match.
            (object, notice) = await ServiceObjects(objects: objects).current(object, target: target)
            if notice == nil, let link = object.service {
                try await objects.settle(formID: object.formID, id: object.id, link: link, values: object.values)
            }
            labels = await submissions.valueHelps.labels(
                of: InputStrings.of(object.values), schema: view.schema, target: target)
        }
        let stored = InputStrings.of(object.values)
        var state = RenderState(
            values: stored, csrfToken: try context.viewer.csrfToken,
            layout: LayoutMode(query: QueryString.parse(request.uri.query)["layout"]?.first))
        state.objectPath = Self.path(object.formID, object.id)
        let lists = view.schema.itemLists
        state.itemCounts = Submission(fields: stored).gatheringItems(of: lists).itemCounts(of: lists)
        await state.showRules(of: view.form, viewer: try context.viewer)
        state.noLongerOffered = view.offeredChoices.missing(in: stored)
        state.files = InputStrings.files(of: object.values)
        state.choiceLabels = labels
        // The save is sent with the ETag of these values, not of whatever is stored by then.
        state.serviceETag = object.service?.etag
        if let notice { state.errors = [FieldError(field: "", message: notice)] }
        return HTMLResponse.page(view.render(state), cacheControl: "no-store")
    }

    /// `POST /forms/{id}/{object}/rules`: which questions of the object's edit view apply to its
    /// answers (``RulesAnswer``).
    @Sendable func rules(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (_, form) = try await ObjectLookup(objects: objects, forms: forms, plans: plans).prepared(
            context, request: request)
        return try await RulesAnswer.answer(request, form: form, viewer: try context.viewer, reader: reader)
    }

    /// `POST /forms/{id}/{object}`: 303 to the detail page, or 422 with the edit view again.
    @Sendable func update(_ request: Request, context: AppRequestContext) async throws -> Response {
        var (object, view) = try await load(request, context)
        let viewer = try context.viewer
        var received = try await reader.readVerified(request, schema: view.schema, viewer: viewer)
        // The language switch: the edit view again in the language chosen, everything typed kept.
        let switched = LanguageChoice.switched(received)
        if let switched {
            (object, view) = try await ObjectLookup(objects: objects, forms: forms, plans: plans)(
                context, languages: [switched])
        }
        let storedFiles = InputStrings.files(of: object.values)
        try await reader.resolveKept(&received, schema: view.schema, viewer: viewer, stored: storedFiles)
        let stored = InputStrings.of(object.values)
        // Accepted again by the check, and shown again if the edit is refused.
        let kept = view.offeredChoices.missing(in: stored)
        let again: ShownAgain
        let serverValues: [String: [String]]
        var etag = object.service == nil ? nil : ServiceContinuation.etag(sent: received.control(InputName.etag))
        let service =
            object.service == nil ? nil : try await services.target(for: try context.form, schema: view.schema)
        if let (shown, filled) = await ShownAgain.browsing(
            received, view: view, valueHelps: submissions.valueHelps, target: service)
        {
            // A long list's Search button or Use this choice: the edit view again, everything
            // typed kept.
            again = shown
            serverValues = view.form.serverValues(known: stored).merging(filled) { server, _ in server }
        } else {
            switch try await submissions.update(
                received.submission, object: object, form: view.form, viewer: viewer, stagedIDs: received.stagedIDs,
                noLongerOffered: kept, service: service, etag: etag)
            {
            case .stored, .keyReused:  // an update carries no one-time key
                return Response.seeOther(Self.path(object.formID, object.id))
            case .refused(let result, let refusedValues, let continuation):
                again = .refused(result.issues)
                serverValues = refusedValues
                // After a 412 the view shows the service's values now, and goes on from their ETag.
                etag = continuation?.etag ?? etag
            case .serviceAway(let message):
                again = .serviceAway(message)
                serverValues = view.form.serverValues(known: stored)
            case .outcomeUnknown:
                return Response.seeOther(Self.path(object.formID, object.id))
            }
        }
        var state = try await reader.state(
            shownAgain: again, received, view: view, viewer: viewer, serverValues: serverValues, stored: storedFiles)
        if service != nil {
            state.choiceLabels = await submissions.valueHelps.labels(
                of: state.values, schema: view.schema, target: service)
        }
        state.objectPath = Self.path(object.formID, object.id)
        state.noLongerOffered = kept
        state.serviceETag = etag
        var response = HTMLResponse.page(view.render(state), status: again.status, cacheControl: "no-store")
        if let switched {
            response.headers[values: .setCookie].append(LanguageChoice.cookie(switched, policy: cookies))
        }
        return response
    }

    /// `GET /forms/{id}/{object}/delete`: "Are you sure…?" with a POST form; works without scripts.
    @Sendable func confirmDelete(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (object, view) = try await load(request, context)
        var state = RenderState(values: [:], csrfToken: try context.viewer.csrfToken)
        state.objectPath = Self.path(object.formID, object.id)
        state.heading = object.keyText
        // The delete is sent with the ETag of the object as it was when the page was shown.
        state.serviceETag = object.service?.etag
        return HTMLResponse.page(try plans.deletePage(for: view).render(state), cacheControl: "no-store")
    }

    /// `POST /forms/{id}/{object}/delete`: 303 to the parent page.
    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (object, view) = try await load(request, context)
        let fields = try await FormBody.verifiedFields(request, viewer: try context.viewer)
        let target = object.service == nil ? nil : try await services.target(for: try context.form, schema: view.schema)
        let shown = object.service == nil ? nil : ServiceContinuation.etag(sent: fields[InputName.etag]?.first)
        switch try await submissions.delete(object, service: target, etag: shown) {
        case .deleted:
            return Response.seeOther("/forms/\(object.formID)")
        case .refused(let issues):
            throw HTTPError(.conflict, message: issues.map(\.message).joined(separator: " "))
        case .changedMeanwhile:
            throw HTTPError(
                .preconditionFailed,
                message:
                    "Someone changed this object in the service since you opened it; nothing was deleted. Open it again, then delete it."
            )
        case .serviceAway:
            throw HTTPError(
                .serviceUnavailable,
                message:
                    "The service that keeps this object did not answer, so nothing was deleted. Go back and delete it again to try again."
            )
        }
    }

    /// `GET /forms/{id}/{object}/files/{file}`: a file of an object, to whoever may see the object.
    @Sendable func file(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (object, _) = try await load(request, context)
        guard let file = try await attachments.file(id: try context.parameters.require("file"), objectID: object.id)
        else {
            throw HTTPError(.notFound)
        }
        return try await AttachmentResponse.response(for: file, store: attachments, context: context)
    }

    /// `GET /attachments/staged/{file}`: a file just uploaded with a refused form, to its uploader only.
    @Sendable func stagedFile(_ request: Request, context: AppRequestContext) async throws -> Response {
        let owner = try context.viewer.ownerKey
        guard let file = try await attachments.stagedFile(id: try context.parameters.require("file"), owner: owner)
        else { throw HTTPError(.notFound) }
        return try await AttachmentResponse.response(for: file, store: attachments, context: context)
    }

    /// The object and its version's edit view; 404 when either is missing or the viewer is
    /// neither the creator nor an admin, so others cannot even learn it exists.
    /// The object and its version's view, in the form's language the request asks for.
    private func load(_ request: Request, _ context: AppRequestContext) async throws -> (StoredObject, FormView) {
        try await ObjectLookup(objects: objects, forms: forms, plans: plans)(context, request: request)
    }

    /// Where an object's detail page is.
    static func path(_ formID: String, _ objectID: UUID) -> String {
        "/forms/\(formID)/\(objectID.uuidString.lowercased())"
    }
}
