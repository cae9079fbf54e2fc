import FormStore
import Foundation
import Hummingbird
import Logging

/// The admin's JSON API for a form's objects in bulk: the object list by cursor, for scripts
/// that follow a form's changes, and the three exports. Admins only (the admin token or an
/// admin's session: ``AdminOnlyMiddleware`` guards the group).
struct ExportAPIController {
    let objects: ObjectStore
    let exports: ObjectExports
    let cursors: ObjectCursor
    /// Where a date, or a date and time without an offset, in `since` and `until` is read.
    let timeZone: TimeZone

    /// - Parameter adminForm: `/api/forms/{id}`, behind ``AdminOnlyMiddleware`` then ``FormAccessMiddleware``.
    func addRoutes(to adminForm: RouterGroup<AppRequestContext>) {
        adminForm.get("objects", use: list)
        adminForm.get("export.csv") { request, context in try download(.csv, request, context) }
        adminForm.get("export.jsonl") { request, context in try download(.jsonl, request, context) }
        adminForm.get("export.zip") { request, context in try download(.zip, request, context) }
        adminForm.get("export.instances.zip") { request, context in try download(.instances, request, context) }
    }

    /// `GET /api/forms/{id}/objects?since=&cursor=&limit=`: `{"objects": [...], "next": cursor
    /// or null}`, oldest change first; 400 with `{"error"}` for a parameter it cannot read.
    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try context.form
        let parameters = ExportDownload.parameters(request)
        let limit: Int
        let query: ExportQuery
        do throws(ExportQuery.Refusal) {
            limit = try ExportQuery.limit(parameters)
            query = try ExportQuery.read(parameters, timeZone: timeZone)
        } catch {
            return try JSONResponse.make(APIMessage(error.message), status: .badRequest)
        }
        var position: ChangePosition?
        if let cursor = parameters["cursor"], !cursor.isEmpty {
            guard let opened = cursors.open(cursor, formID: form.id) else { return try Self.badCursor() }
            position = opened
        }
        let page: [ObjectChange]
        do {
            // One more than asked: whether there is a next page, without a count.
            page = try await objects.changes(formID: form.id, after: position, window: query.window, limit: limit + 1)
        } catch is UnreadableChangePosition {
            return try Self.badCursor()
        }
        let shown = page.prefix(limit)
        let next = page.count > limit ? shown.last.map { cursors.make(formID: form.id, position: $0.position) } : nil
        return try JSONResponse.make(ObjectPage(objects: shown.map { ObjectJSON($0.object) }, next: next), status: .ok)
    }

    private static func badCursor() throws -> Response {
        try JSONResponse.make(
            APIMessage(
                "The cursor is not one this server gave for this form; start again without it (or with since)."),
            status: .badRequest)
    }

    /// `GET /api/forms/{id}/export.csv`, `.jsonl`, `.zip`: the whole form, or `since`/`until`.
    func download(_ format: ExportDownload, _ request: Request, _ context: AppRequestContext) throws -> Response {
        let form = try context.form
        let query: ExportQuery
        do throws(ExportQuery.Refusal) {
            query = try ExportQuery.read(ExportDownload.parameters(request), timeZone: timeZone)
        } catch {
            return try JSONResponse.make(APIMessage(error.message), status: .badRequest)
        }
        return format.response(form: form, query: query, exports: exports, logger: context.logger)
    }

    /// A page of the object list. `next` is written as `null` on the last page, not left out.
    struct ObjectPage: Encodable {
        var objects: [ObjectJSON]
        var next: String?

        enum CodingKeys: String, CodingKey {
            case objects, next
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(objects, forKey: .objects)
            try container.encode(next, forKey: .next)
        }
    }
}
