import FormModel
import Foundation
import Hummingbird
import NIOCore

/// Objects in the browser: create, detail, edit, update, delete.
struct ObjectController {
    let forms: FormStore
    let objects: ObjectStore
    let plans: PlanCache
    let viewers: ViewerResolver
    let prefill: SignedPrefill
    let submissions: SubmissionReader
    let attachments: AttachmentStore

    func addRoutes(to router: Router<AppRequestContext>) {
        router.post("/forms/:id", use: create)
        router.get("/forms/:id/:object", use: detail)
        router.post("/forms/:id/:object", use: update)
        router.get("/forms/:id/:object/edit", use: edit)
        router.get("/forms/:id/:object/delete", use: confirmDelete)
        router.post("/forms/:id/:object/delete", use: delete)
        router.get("/forms/:id/:object/files/:file", use: file)
        router.get("/attachments/staged/:file", use: stagedFile)
    }

    /// `POST /forms/{id}`: 303 to the new object once it is committed, or 422 with the create view again.
    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        guard let form = try await forms.latest(formID: id) else { throw HTTPError(.notFound) }
        guard form.state == .active else { throw HTTPError(.gone) }
        let viewer = try await viewers.viewer(request, context: context)
        if let signIn = Access.signInRedirect(form: form, viewer: viewer, request: request) { return signIn }
        let view = try await plans.createView(for: form)
        var received = try await readVerified(request, schema: view.schema, viewer: viewer)
        try await submissions.resolveKept(&received, schema: view.schema, viewer: viewer, stored: [:])
        // Read-only values come from the seal the create view carried, or, when it is missing or
        // altered, from the form's own defaults: never from what the browser sent for them.
        let sealed =
            prefill.open(received.control(SignedPrefill.fieldName), formID: form.id, version: form.version)
            ?? view.readOnlyValues(view.initialValues(query: [:]))
        let serverValues = Self.serverValues(view: view, known: sealed)
        let result = FormValidator.validate(
            view.schema, received.submission,
            context: ValidationContext(mode: .create, serverValues: serverValues, today: view.today()))
        guard result.isValid else {
            var state = Self.failedState(view: view, received: received, result: result, serverValues: serverValues)
            state.files = try await submissions.listable(received, schema: view.schema, viewer: viewer, stored: [:])
            state.csrfToken = viewers.token(for: viewer)
            state.layout = LayoutMode(query: QueryString.parse(request.uri.query)["layout"]?.first)
            if !view.readOnlyFields.isEmpty {
                state.prefillSeal = prefill.seal(formID: form.id, version: form.version, values: sealed)
            }
            var response = HTMLResponse.page(view.render(state), status: .unprocessableContent, cacheControl: "no-store")
            response.remember(viewer)
            return response
        }
        let fileIDs = SubmissionReader.fileIDs(result.values)
        let attachments = attachments
        let owner = viewer.ownerKey
        let object = try await objects.create(
            formID: form.id, version: form.version, values: result.values,
            keyText: InputStrings.keyText(result.values, schema: view.schema), creator: viewer.creator
        ) { db, objectID in
            // The files become the object's in the object's own transaction.
            if !fileIDs.isEmpty { try await attachments.claim(ids: fileIDs, owner: owner, objectID: objectID, on: db) }
        }
        var response = Response.seeOther(Self.path(form.id, object.id))
        response.remember(viewer)
        return response
    }

    /// `GET /forms/{id}/{object}`: the object's values for people.
    @Sendable func detail(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (_, object, view, viewer) = try await load(request, context: context)
        var state = RenderState(values: [:], csrfToken: "")
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
        }
        var response = HTMLResponse.page(try await plans.detailPage(for: view).render(state), cacheControl: "no-store")
        response.remember(viewer)
        return response
    }

    /// `GET /forms/{id}/{object}/edit`: the form of the object's version, filled in.
    @Sendable func edit(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (_, object, view, viewer) = try await load(request, context: context)
        var state = RenderState(
            values: InputStrings.of(object.values), csrfToken: viewers.token(for: viewer),
            layout: LayoutMode(query: QueryString.parse(request.uri.query)["layout"]?.first))
        state.objectPath = Self.path(object.formID, object.id)
        state.files = InputStrings.files(of: object.values)
        var response = HTMLResponse.page(view.render(state), cacheControl: "no-store")
        response.remember(viewer)
        return response
    }

    /// Reads a submitted form and checks its CSRF token (403 without a valid one); a refused
    /// submission leaves none of the files it uploaded staged.
    private func readVerified(_ request: Request, schema: FormSchema, viewer: Viewer) async throws -> ReceivedSubmission {
        let received = try await submissions.read(request, schema: schema, viewer: viewer)
        do {
            try viewers.requireToken(received.control(CSRF.fieldName), for: viewer)
        } catch {
            await submissions.discard(received, viewer: viewer)
            throw error
        }
        return received
    }

    /// `POST /forms/{id}/{object}`: 303 to the detail page, or 422 with the edit view again.
    @Sendable func update(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (_, object, view, viewer) = try await load(request, context: context)
        var received = try await readVerified(request, schema: view.schema, viewer: viewer)
        let storedFiles = InputStrings.files(of: object.values)
        try await submissions.resolveKept(&received, schema: view.schema, viewer: viewer, stored: storedFiles)
        let serverValues = Self.serverValues(view: view, known: InputStrings.of(object.values))
        let result = FormValidator.validate(
            view.schema, received.submission,
            context: ValidationContext(mode: .edit, serverValues: serverValues, today: view.today()))
        guard result.isValid else {
            var state = Self.failedState(view: view, received: received, result: result, serverValues: serverValues)
            state.files = try await submissions.listable(received, schema: view.schema, viewer: viewer, stored: storedFiles)
            state.csrfToken = viewers.token(for: viewer)
            state.objectPath = Self.path(object.formID, object.id)
            var response = HTMLResponse.page(view.render(state), status: .unprocessableContent, cacheControl: "no-store")
            response.remember(viewer)
            return response
        }
        let keptIDs = SubmissionReader.fileIDs(result.values)
        let newIDs = keptIDs.filter { received.stagedIDs.contains($0) }
        let attachments = attachments
        let owner = viewer.ownerKey
        guard
            try await objects.update(
                formID: object.formID, id: object.id, values: result.values,
                keyText: InputStrings.keyText(result.values, schema: view.schema),
                alongside: { db, objectID in
                    if !newIDs.isEmpty { try await attachments.claim(ids: newIDs, owner: owner, objectID: objectID, on: db) }
                })
        else { throw HTTPError(.notFound) }
        // Files the edit dropped go once the new values are committed.
        let dropped = storedFiles.values.flatMap { $0.map(\.id) }.filter { !keptIDs.contains($0) }
        if !dropped.isEmpty { try await attachments.delete(ids: dropped, objectID: object.id) }
        return Response.seeOther(Self.path(object.formID, object.id))
    }

    /// `GET /forms/{id}/{object}/delete`: "Are you sure…?" with a POST form; works without scripts.
    @Sendable func confirmDelete(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (_, object, view, viewer) = try await load(request, context: context)
        var state = RenderState(values: [:], csrfToken: viewers.token(for: viewer))
        state.objectPath = Self.path(object.formID, object.id)
        state.heading = object.keyText
        var response = HTMLResponse.page(try await plans.deletePage(for: view).render(state), cacheControl: "no-store")
        response.remember(viewer)
        return response
    }

    /// `POST /forms/{id}/{object}/delete`: 303 to the parent page.
    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (_, object, _, viewer) = try await load(request, context: context)
        let fields = try await FormBody.fields(request)
        try viewers.requireToken(fields[CSRF.fieldName]?.first, for: viewer)
        try await objects.delete(formID: object.formID, id: object.id)
        try await attachments.delete(objectID: object.id)
        return Response.seeOther("/forms/\(object.formID)")
    }

    /// `GET /forms/{id}/{object}/files/{file}`: a file of an object, to whoever may see the object.
    @Sendable func file(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (_, object, _, _) = try await load(request, context: context)
        guard let file = try await attachments.file(id: try context.parameters.require("file"), objectID: object.id) else {
            throw HTTPError(.notFound)
        }
        return try await AttachmentResponse.response(for: file, store: attachments, context: context)
    }

    /// `GET /attachments/staged/{file}`: a file just uploaded with a refused form, to its uploader only.
    @Sendable func stagedFile(_ request: Request, context: AppRequestContext) async throws -> Response {
        let viewer = try await viewers.viewer(request, context: context)
        guard let file = try await attachments.stagedFile(id: try context.parameters.require("file"), owner: viewer.ownerKey)
        else { throw HTTPError(.notFound) }
        return try await AttachmentResponse.response(for: file, store: attachments, context: context)
    }

    /// The form, the object, its version's edit view and the viewer; 404 when any is missing or
    /// the viewer is neither the creator nor an admin, so others cannot even learn it exists.
    private func load(_ request: Request, context: AppRequestContext) async throws
        -> (StoredForm, StoredObject, CreateView, Viewer)
    {
        let formID = try context.parameters.require("id")
        guard let objectID = UUID(uuidString: try context.parameters.require("object")),
            let form = try await forms.latest(formID: formID),
            let object = try await objects.find(formID: formID, id: objectID)
        else { throw HTTPError(.notFound) }
        let viewer = try await viewers.viewer(request, context: context)
        guard viewer.mayAccess(object) else { throw HTTPError(.notFound) }
        let view: CreateView
        if let cached = await plans.cachedEditView(
            formID: formID, version: object.formVersion, listsRevision: form.listsRevision)
        {
            view = cached
        } else {
            guard let version = try await forms.version(formID: formID, version: object.formVersion) else {
                throw HTTPError(.notFound)
            }
            view = try await plans.editView(for: version)
        }
        return (form, object, view, viewer)
    }

    /// Every read-only field gets a server value, empty when there is none, so whatever the
    /// browser sent for it is never used.
    static func serverValues(view: CreateView, known: [String: [String]]) -> [String: [String]] {
        var values: [String: [String]] = [:]
        for name in view.readOnlyFields { values[name] = known[name] ?? [] }
        return values
    }

    /// The view's state after a failed validation: every entered string kept (unchecked boxes
    /// stay unchecked because they are absent), read-only fields showing the server's values,
    /// the files already received listed, and the issues in form order.
    static func failedState(
        view: CreateView, received: ReceivedSubmission, result: ValidationResult, serverValues: [String: [String]]
    ) -> RenderState {
        var values = received.submission.fields
        for (name, strings) in serverValues { values[name] = strings }
        var state = RenderState(
            values: values, errors: result.issues.map { FieldError(field: $0.field, message: $0.message) }, csrfToken: "")
        state.stagedFileIDs = received.stagedIDs
        return state
    }

    static func path(_ formID: String, _ objectID: UUID) -> String {
        "/forms/\(formID)/\(objectID.uuidString.lowercased())"
    }

}
