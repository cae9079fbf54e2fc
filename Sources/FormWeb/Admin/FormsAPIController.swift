import FormImport
import FormModel
import FormStore
import Foundation
import Hummingbird
import NIOCore

/// `POST /api/forms`: imports a spec sent as the body, for scripts. Authenticated by
/// `Authorization: Bearer $FIELDWORK_ADMIN_TOKEN` or an admin's session.
///
/// The body is one `application/xml` (or `text/xml`) document, or, with the token only, a
/// `multipart/form-data` body of several files (OData metadata and its annotation files, in the
/// order they apply), imported as one batch like `fieldwork import`. A cross-site page cannot
/// send XML without a CORS preflight we never grant, but it can send multipart: so a session
/// may send XML only, which keeps session-authenticated calls safe from CSRF.
struct FormsAPIController {
    let forms: FormStore
    let imports: FormImports

    /// Largest body: the import's own document limit.
    static let limit = ImportLimits.maximumDocumentBytes

    /// - Parameter adminAPI: the `/api` routes behind ``AdminOnlyMiddleware``.
    func addRoutes(to adminAPI: RouterGroup<AppRequestContext>) {
        adminAPI.post("forms", use: create)
        adminAPI.put("forms/:id/lists/:list", use: replaceOptions)
    }

    /// 201 `{"id", "version", "forms": [{"id", "version"}…], "warnings": […]}` (id and version of
    /// the first form: OData metadata may give several), or 422 `{"errors": [{"line", "column",
    /// "message", "code"}…]}`; with several files, each error and warning names its `file`.
    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        let caller = try context.viewer
        let type = request.headers[.contentType]?.split(separator: ";").first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        let documents: [ImportDocument]
        switch type {
        case "application/xml", "text/xml":
            let body: ByteBuffer
            do {
                body = try await request.boundedBody(upTo: Self.limit)
            } catch {
                return try JSONResponse.make(
                    APIMessage("The spec is larger than \(Self.limit / 1024 / 1024) MB."), status: .contentTooLarge)
            }
            documents = [ImportDocument(name: "request body", data: Array(buffer: body))]
        case "multipart/form-data":
            guard caller.byAdminToken else {
                return try JSONResponse.make(
                    APIMessage(
                        "Send several files with the admin token (Authorization: Bearer); a session may send one application/xml body."
                    ),
                    status: .forbidden)
            }
            let upload: AdminUpload
            do {
                upload = try await AdminUpload.read(request)
            } catch let error as HTTPError {
                return try JSONResponse.make(
                    APIMessage(error.body ?? "The upload could not be read."), status: error.status)
            }
            documents = upload.files().map { ImportDocument(name: FileName.sanitise($0.filename ?? ""), data: $0.data) }
            guard !documents.isEmpty else {
                return try JSONResponse.make(
                    APIMessage("Send at least one file part (curl -F documents=@metadata.xml)."), status: .badRequest)
            }
        default:
            return try JSONResponse.make(
                APIMessage("Send the spec as application/xml, or several files as multipart/form-data."),
                status: .unsupportedMediaType)
        }
        let several = documents.count > 1
        let run = try await imports.run(documents, importedBy: caller.recordedName, via: .api, policy: .allOrNothing)
        guard let stored = run.record else {
            let errors = run.outcomes.failures.flatMap(\.errors).map {
                ImportMessage(
                    line: $0.line, column: $0.column, message: $0.message, code: $0.code.rawValue,
                    file: several ? $0.file : nil)
            }
            return try JSONResponse.make(ImportRefusal(errors: errors), status: .unprocessableContent)
        }
        let answer = ImportAnswer(
            id: stored.versions.first?.formID, version: stored.versions.first?.version,
            forms: stored.versions.map { ImportAnswer.Form(id: $0.formID, version: $0.version) },
            warnings: run.outcomes.accepted.flatMap(\.warnings).map {
                ImportMessage(
                    line: $0.line, column: $0.column, message: $0.message, code: $0.code.rawValue,
                    file: several ? $0.file : nil)
            })
        var response = try JSONResponse.make(answer, status: .created)
        if let first = stored.versions.first { response.headers[.location] = "/api/forms/\(first.formID)" }
        return response
    }

    /// `PUT /api/forms/{id}/lists/{list}`: replaces a list's options with a CSV body
    /// (`text/csv`, `value,label[,group]`, as on the admin page), for scripts that keep value lists
    /// in step with another system. 200 `{"list", "options"}`; 422 `{"errors": [{"line", "message"}…]}`
    /// with the old options kept; 404 for an unknown form or list. PUT with `text/csv` needs a
    /// CORS preflight, so an admin's session is as safe from CSRF here as on `POST /api/forms`.
    @Sendable func replaceOptions(_ request: Request, context: AppRequestContext) async throws -> Response {
        let caller = try context.viewer
        let formID = try context.parameters.require("id")
        let listID = try context.parameters.require("list")
        guard let form = try await forms.latest(formID: formID), try form.schema().list(id: listID) != nil else {
            return try JSONResponse.make(APIMessage("No list \(listID) in a form \(formID)."), status: .notFound)
        }
        let type = request.headers[.contentType]?.split(separator: ";").first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        guard type == "text/csv" else {
            return try JSONResponse.make(
                APIMessage("Send the options as text/csv: value,label[,group] a line."), status: .unsupportedMediaType)
        }
        let body: ByteBuffer
        do {
            body = try await request.boundedBody(upTo: AdminUpload.limit)
        } catch {
            return try JSONResponse.make(
                APIMessage("The CSV is larger than \(AdminUpload.limit / 1024 / 1024) MB."), status: .contentTooLarge)
        }
        guard let text = String(validating: Array(buffer: body), as: UTF8.self) else {
            let error = OptionsRefusal.Line(line: 1, message: "The file is not UTF-8 text; save it as CSV UTF-8")
            return try JSONResponse.make(OptionsRefusal(errors: [error]), status: .unprocessableContent)
        }
        switch OptionCSV.parse(text) {
        case .failure(let failure):
            let errors = failure.errors.map { OptionsRefusal.Line(line: $0.line, message: $0.message) }
            return try JSONResponse.make(OptionsRefusal(errors: errors), status: .unprocessableContent)
        case .success(let groups):
            try await forms.replaceOptions(groups, formID: formID, listID: listID, by: caller.recordedName)
            return try JSONResponse.make(
                OptionsAnswer(list: listID, options: groups.reduce(0) { $0 + $1.options.count }), status: .ok)
        }
    }
}

/// One error or warning of an import, as the API reports it; `file` only when several were sent.
struct ImportMessage: Encodable {
    var line: Int
    var column: Int
    var message: String
    var code: String
    var file: String?
}

/// `{"errors": […]}`: why an import was refused.
struct ImportRefusal: Encodable {
    var errors: [ImportMessage]
}

/// `{"id", "version", "forms", "warnings"}`: what an import stored.
struct ImportAnswer: Encodable {
    struct Form: Encodable {
        var id: String
        var version: Int
    }

    var id: String?
    var version: Int?
    var forms: [Form]
    var warnings: [ImportMessage]
}

/// `{"errors": [{"line", "message"}…]}`: why a CSV of options was refused.
struct OptionsRefusal: Encodable {
    struct Line: Encodable {
        var line: Int
        var message: String
    }

    var errors: [Line]
}

/// `{"list", "options"}`: the options a CSV put into a list.
struct OptionsAnswer: Encodable {
    var list: String
    var options: Int
}
