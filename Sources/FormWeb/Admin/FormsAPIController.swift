import FormImport
import Foundation
import Hummingbird
import NIOCore

/// `POST /api/forms`: imports a spec sent as the body, for scripts. Authenticated by
/// `Authorization: Bearer $FIELDWORK_ADMIN_TOKEN` or an admin's session.
///
/// Only `application/xml` (or `text/xml`) is taken: a cross-site page cannot send that type
/// without a CORS preflight we never grant, which keeps session-authenticated calls safe from CSRF.
struct FormsAPIController {
    let forms: FormStore
    let gate: AdminGate

    /// Largest body: the import's own document limit.
    static let limit = XMLLimits.maximumDocumentBytes

    func addRoutes(to router: Router<AppRequestContext>) {
        router.post("/api/forms", use: create)
    }

    /// 201 `{"id", "version", "forms": [{"id", "version"}…], "warnings": […]}` (id and version of
    /// the first form: OData metadata may give several), or 422 `{"errors": [{"line", "column", "message"}…]}`.
    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let caller = try await gate.apiCaller(request, context: context) else {
            var response = try Self.json(["error": "Send Authorization: Bearer with the admin token, or sign in as an admin."], status: .unauthorized)
            response.headers[.wwwAuthenticate] = "Bearer"
            return response
        }
        let type = request.headers[.contentType]?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard type == "application/xml" || type == "text/xml" else {
            return try Self.json(["error": "Send the spec as application/xml."], status: .unsupportedMediaType)
        }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: Self.limit)
        } catch {
            return try Self.json(["error": "The spec is larger than \(Self.limit / 1024 / 1024) MB."], status: .contentTooLarge)
        }
        let document = ImportDocument(name: "request body", data: Array(buffer: body))
        let result: ImportResult
        do {
            result = try FormImporter.importDocuments([document])
        } catch {
            let errors = error.errors.map { ["line": $0.line, "column": $0.column, "message": $0.message, "code": $0.code] as [String: Any] }
            return try Self.json(["errors": errors], status: .unprocessableContent)
        }
        let stored = try await forms.storeImport([result], importedBy: caller)
        var answer: [String: Any] = [
            "forms": stored.versions.map { ["id": $0.formID, "version": $0.version] },
            "warnings": result.warnings.map { ["line": $0.line, "column": $0.column, "message": $0.message, "code": $0.code] as [String: Any] },
        ]
        if let first = stored.versions.first {
            answer["id"] = first.formID
            answer["version"] = first.version
        }
        var response = try Self.json(answer, status: .created)
        if let first = stored.versions.first { response.headers[.location] = "/api/forms/\(first.formID)" }
        return response
    }

    static func json(_ object: [String: Any], status: HTTPResponse.Status) throws -> Response {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
