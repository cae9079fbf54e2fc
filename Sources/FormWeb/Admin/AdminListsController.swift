import FormImport
import FormModel
import FormPages
import FormStore
import Foundation
import Hummingbird

/// The value lists of a form on the admin page: an upload of options (CSV, or an XForm's
/// external file) replaces a list's options in every version. Behind ``AdminFormMiddleware``.
struct AdminListsController {
    let forms: FormStore
    let page: AdminFormPage

    func addRoutes(to form: RouterGroup<AppRequestContext>) {
        form.post("lists/:list", use: uploadOptions)
    }

    /// `POST /admin/forms/{id}/lists/{list}`: a CSV of options for a list; 303 when applied,
    /// 422 with each line's error when not (the old options stay).
    @Sendable func uploadOptions(_ request: Request, context: AppRequestContext) async throws -> Response {
        let viewer = try context.viewer
        let upload = try await AdminUpload.read(request)
        try viewer.requireToken(upload.field(InputName.csrf))
        let form = try context.form
        let listID = try context.parameters.require("list")
        guard try form.schema().list(id: listID) != nil else { throw HTTPError(.notFound) }
        guard let file = upload.files("csv").first else {
            return try await page(
                form, viewer: viewer, listErrors: [listID: ["Choose a CSV file of options"]],
                status: .unprocessableContent)
        }
        if form.sourceKind == .xforms, let rules = try form.rules(), rules.externalInstance(forList: listID) != nil {
            // The XForm's external file as ODK tools take it: its columns are what the form's
            // choice filters read.
            let instance: XFormExternalInstance
            do throws(XFormExternalInstance.Failure) {
                instance = try XFormExternalInstance.read(file.data)
            } catch {
                return try await page(
                    form, viewer: viewer, listErrors: [listID: error.errors], status: .unprocessableContent)
            }
            try await forms.replaceOptions(
                [OptionGroup(options: instance.options)], formID: form.id, listID: listID, by: viewer.account?.name,
                instanceXML: instance.xml)
            return Response.seeOther("/admin/forms/\(form.id)?done=options#list-\(listID)")
        }
        guard let text = String(validating: file.data, as: UTF8.self) else {
            return try await page(
                form, viewer: viewer, listErrors: [listID: ["The file is not UTF-8 text; save it as CSV UTF-8"]],
                status: .unprocessableContent)
        }
        switch OptionCSV.parse(text) {
        case .failure(let failure):
            return try await page(
                form, viewer: viewer, listErrors: [listID: failure.errors.map(\.description)],
                status: .unprocessableContent)
        case .success(let groups):
            try await forms.replaceOptions(groups, formID: form.id, listID: listID, by: viewer.account?.name)
            return Response.seeOther("/admin/forms/\(form.id)?done=options#list-\(listID)")
        }
    }
}
