import FormModel
import Foundation
import Hummingbird
import NIOCore

/// `GET /api/openapi.json` and `GET /api/forms/{id}/openapi.json`: the OpenAPI descriptions,
/// from memory. The whole API's is built once; a form's on its first request after the form
/// changed (``OpenAPICache``), from the schema its create view was prepared with.
struct OpenAPIController {
    let plans: PlanCache
    let cache = OpenAPICache()
    /// The whole API's description, escaped for the API once.
    let whole: ByteBuffer

    init(plans: PlanCache) throws {
        self.plans = plans
        whole = Self.bytes(OpenAPIDocument.whole().encoded())
    }

    /// - Parameters:
    ///   - api: the `/api` routes; `apiForm`, the API's `/api/forms/{id}` group (a form's
    ///     description follows the form's access, as its schema does).
    func addRoutes(api: APIRoutes, apiForm: RouterGroup<AppRequestContext>) {
        api.get("openapi.json", use: showWhole)
        apiForm.get("openapi.json", use: showForm)
    }

    @Sendable func showWhole(_ request: Request, context: AppRequestContext) async throws -> Response {
        JSONResponse.prepared(whole, status: .ok)
    }

    @Sendable func showForm(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try context.form
        let body = try await cache.bytes(for: form) {
            let prepared = try await plans.versions.prepared(form, mode: .create)
            return Self.bytes(
                OpenAPIDocument.form(prepared.schema, version: form.version, access: form.access).encoded())
        }
        return JSONResponse.prepared(body, status: .ok)
    }

    private static func bytes(_ data: Data) -> ByteBuffer {
        JSONResponse.withoutMarkup(ByteBuffer(bytes: data))
    }
}
