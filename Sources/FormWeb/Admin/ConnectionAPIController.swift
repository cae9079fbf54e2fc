import FormService
import FormStore
import Foundation
import Hummingbird
import NIOCore

/// `PUT`, `GET` and `DELETE /api/forms/{id}/connection`: the OData service the import that made
/// the form is connected to (`../shared/spec/interface.md`). Admins only; the secret is taken,
/// sealed, and never answered.
struct ConnectionAPIController {
    let forms: FormStore
    let connections: ConnectionStore
    let service: ServiceConnections

    /// - Parameter adminAPI: the `/api` routes behind ``AdminOnlyMiddleware``.
    func addRoutes(to adminAPI: RouterGroup<AppRequestContext>) {
        adminAPI.put("forms/:id/connection", use: connect)
        adminAPI.get("forms/:id/connection", use: show)
        adminAPI.delete("forms/:id/connection", use: disconnect)
    }

    /// The request body.
    struct Body: Decodable {
        struct Auth: Decodable {
            var kind: String?
            var user: String?
            var secret: String?
            /// The header of `kind: "header"`.
            var header: String?
        }

        var url: String?
        var auth: Auth?
        var mode: String?
        var sapClient: String?
        var sapLanguage: String?
        /// Seconds each request may take.
        var timeout: Int?
        /// Only test the connection: fetch and compare the metadata, store nothing.
        var test: Bool?
    }

    /// The connection as answered: never the secret.
    struct ConnectionJSON: Encodable {
        struct Auth: Encodable {
            var kind: String
            var user: String?
            var header: String?
            /// Whether a secret is stored (never the secret).
            var secretStored: Bool
        }

        var url: String
        var auth: Auth
        var sapClient: String?
        var sapLanguage: String?
        var timeout: Int
        var forms: [String: String]
        var testedAt: Date?
        var updatedAt: Date?

        init(_ connection: StoredConnection) {
            let settings = connection.settings
            url = settings.url
            auth = Auth(
                kind: settings.auth.rawValue, user: settings.user, header: settings.headerName,
                secretStored: connection.hasSecret)
            sapClient = settings.sapClient
            sapLanguage = settings.sapLanguage
            timeout = settings.timeoutSeconds ?? 10
            forms = connection.modes.mapValues(\.rawValue)
            testedAt = connection.testedAt
            updatedAt = connection.updatedAt
        }
    }

    struct Answer: Encodable {
        var connection: ConnectionJSON?
        var drift: [ServiceDrift.Difference]
        /// The value helps in services of their own: followed, and each that was not; absent
        /// when the forms have none.
        var valueHelpReferences: ServiceDrift.References?
        var forms: [String]
        var tested: Bool
    }

    typealias FieldError = APIFieldErrors.FieldError
    typealias Errors = APIFieldErrors

    @Sendable func connect(_ request: Request, context: AppRequestContext) async throws -> Response {
        let formID = try context.parameters.require("id")
        let caller = try context.viewer
        let body: Body
        do {
            body = try JSONDecoder().decode(
                Body.self, from: Data(buffer: try await request.boundedBody(upTo: 64 * 1024)))
        } catch is NIOTooManyBytesError {
            return try JSONResponse.make(APIMessage("The request is larger than 64 KB."), status: .contentTooLarge)
        } catch {
            return try JSONResponse.make(
                Errors(errors: [
                    FieldError(
                        field: "", message: "Send a JSON object: {\"url\": …, \"auth\": {\"kind\": …}, \"mode\": …}.")
                ]), status: .badRequest)
        }
        var problems: [FieldError] = []
        let kind = ServiceConnectionSettings.Auth(rawValue: body.auth?.kind ?? "none")
        if kind == nil {
            problems.append(FieldError(field: "auth.kind", message: "Use none, basic, bearer or header as auth.kind."))
        }
        let mode = ServiceMode(rawValue: body.mode ?? "service")
        if mode == nil { problems.append(FieldError(field: "mode", message: "Use service or local as mode.")) }
        if let timeout = body.timeout, !(1...120).contains(timeout) {
            problems.append(FieldError(field: "timeout", message: "Enter a timeout from 1 to 120 seconds."))
        }
        guard problems.isEmpty, let kind, let mode else {
            return try JSONResponse.make(Errors(errors: problems), status: .unprocessableContent)
        }
        let settings = ServiceConnectionSettings(
            url: (body.url ?? "").trimmingCharacters(in: .whitespaces), auth: kind, user: body.auth?.user,
            headerName: body.auth?.header, sapClient: body.sapClient, sapLanguage: body.sapLanguage,
            timeoutSeconds: body.timeout)
        let outcome = try await service.connect(
            formID: formID,
            .init(settings: settings, secret: body.auth?.secret, mode: mode, testOnly: body.test ?? false),
            by: caller.recordedName)
        switch outcome {
        case .connected(let connection, let drift, let formIDs):
            return try JSONResponse.make(
                Answer(
                    connection: connection.map(ConnectionJSON.init), drift: drift.differences,
                    valueHelpReferences: drift.valueHelpReferences, forms: formIDs, tested: body.test ?? false),
                status: .ok)
        case .invalid(let problems):
            return try JSONResponse.make(
                Errors(
                    errors: problems.sorted { $0.key < $1.key }.map {
                        FieldError(
                            field: $0.key == "secret" || $0.key == "user" || $0.key == "header"
                                ? "auth.\($0.key)" : $0.key, message: $0.value)
                    }), status: .unprocessableContent)
        case .failed(let message):
            return try JSONResponse.make(
                Errors(errors: [FieldError(field: "url", message: message)]), status: .unprocessableContent)
        }
    }

    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        let formID = try context.parameters.require("id")
        guard let form = try await forms.latest(formID: formID) else { throw FormLookupError.unknown(formID) }
        guard let id = form.service?.connectionID, let connection = try await connections.connection(id: id) else {
            return try JSONResponse.make(APIMessage("\(formID) is not connected to a service."), status: .notFound)
        }
        let drift = connection.drift.flatMap { try? JSONDecoder().decode(ServiceDrift.self, from: Data($0.utf8)) }
        return try JSONResponse.make(
            Answer(
                connection: ConnectionJSON(connection), drift: drift?.differences ?? [],
                valueHelpReferences: drift?.valueHelpReferences, forms: connection.modes.keys.sorted(), tested: false),
            status: .ok)
    }

    @Sendable func disconnect(_ request: Request, context: AppRequestContext) async throws -> Response {
        let formID = try context.parameters.require("id")
        guard let form = try await forms.latest(formID: formID) else { throw FormLookupError.unknown(formID) }
        if let id = form.service?.connectionID { try await connections.disconnect(id: id) }
        return Response(status: .noContent)
    }
}
