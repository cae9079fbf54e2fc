import FormImport
import FormModel
import FormService
import FormStore
import Foundation

/// Connecting an import's forms to their OData service, for the admin page, the admin API and
/// `fieldwork connect` alike (`../shared/spec/odata-service.md`, "Connection"): the settings are
/// checked, the service's `$metadata` is fetched with them and compared with the imported one
/// (the drift report), the value helps in services of their own are followed, and only then is
/// the connection stored, its secret sealed.
struct ServiceConnections: Sendable {
    let forms: FormStore
    let connections: ConnectionStore
    let http: ServiceHTTPClient
    let timeZone: TimeZone

    /// What an admin asks for.
    struct Request: Sendable {
        var settings: ServiceConnectionSettings
        /// The password, token or header value; nil keeps the one stored.
        var secret: String?
        var mode: ServiceMode = .service
        /// Only test: fetch and compare, store nothing.
        var testOnly = false
    }

    /// What became of it.
    enum Outcome: Sendable {
        /// Stored (or, for a test, only tested): the connection without its secret, the drift.
        case connected(StoredConnection?, drift: ServiceDrift, forms: [String])
        /// A setting cannot be used, by setting name (`url`, `auth`, `user`, `secret`, `mode`).
        case invalid([String: String])
        /// The service was not reached, refused the credentials, or served no metadata that reads
        /// as OData: nothing stored; the message says what to do.
        case failed(String)
    }

    /// Tests and connects the import that made `formID` (all its forms).
    func connect(formID: String, _ request: Request, by account: String?) async throws -> Outcome {
        guard let form = try await forms.latest(formID: formID) else { throw FormLookupError.unknown(formID) }
        guard form.sourceKind != .native, form.bindingJSON != nil else {
            return .invalid([
                "url":
                    "\(formID) was not imported from OData metadata with this version of Fieldwork; import its metadata again, then connect it."
            ])
        }
        var problems: [String: String] = [:]
        let settings = request.settings
        var stored: StoredConnection?
        if let id = form.service?.connectionID { stored = try await connections.connection(id: id) }
        var secret = request.secret
        if secret == nil, let stored, stored.settings.auth == settings.auth, stored.settings.user == settings.user {
            secret = try connections.secret(of: stored)
        }
        switch settings.auth {
        case .none: secret = nil
        case .basic:
            if (settings.user ?? "").isEmpty { problems["user"] = "Enter the user name for basic authentication." }
            if (secret ?? "").isEmpty { problems["secret"] = "Enter the password for basic authentication." }
        case .bearer:
            if (secret ?? "").isEmpty { problems["secret"] = "Enter the bearer token." }
        case .header:
            if (settings.headerName ?? "").isEmpty || !Self.isToken(settings.headerName ?? "") {
                problems["header"] = "Enter the name of the header that carries the key, such as APIKey."
            }
            if (secret ?? "").isEmpty { problems["secret"] = "Enter the header's value." }
        }
        let connection: ODataConnection
        do {
            connection = try ServiceClients.connection(settings, secret: secret, timeZone: timeZone)
        } catch {
            problems["url"] = error.message.hasSuffix(".") ? error.message : error.message + "."
            return .invalid(problems)
        }
        guard problems.isEmpty else { return .invalid(problems) }

        let client: ODataClient
        do {
            client = try ODataClient(connection: connection, http: http)
        } catch {
            return .invalid(["url": error.message])
        }
        let metadata: [UInt8]
        do {
            metadata = try await client.metadata()
        } catch {
            return .failed(Self.why(error, url: connection.serviceRoot.absoluteString))
        }
        let formIDs = try await forms.formsOfSameImport(formID: formID)
        var imported: [ServiceBinding] = []
        for id in formIDs {
            if let binding = try await forms.latest(formID: id)?.binding() { imported.append(binding) }
        }
        let served: [ServiceBinding]
        switch FormImporter.importBatch([ImportDocument(name: "$metadata", data: metadata)]).first?.result {
        case .success(let result): served = Array(result.bindings.values)
        case .failure(let failure):
            let first = failure.errors.first.map { " (line \($0.line): \($0.message))" } ?? ""
            return .failed(
                "\(connection.serviceRoot.absoluteString)$metadata is not OData metadata Fieldwork can read\(first). Check the service root URL."
            )
        case nil: served = []
        }
        var drift = ServiceDrift.compare(imported: imported, served: served)
        if imported.contains(where: ValueHelpReferences.refers) {
            let (followed, unresolved) = await ValueHelpReferences.check(imported, client: client)
            drift.valueHelpReferences = ServiceDrift.References(followed: followed, unresolved: unresolved)
        }
        if request.testOnly { return .connected(stored, drift: drift, forms: formIDs) }
        let driftJSON = String(decoding: try JSONEncoder().encode(drift), as: UTF8.self)
        let change: SecretChange = settings.auth == .none ? .clear : (secret.map { .set($0) } ?? .keep)
        let connected = try await connections.connect(
            formIDs: formIDs, settings: settings, secret: change, mode: request.mode, drift: driftJSON, by: account)
        return .connected(connected, drift: drift, forms: formIDs)
    }

    /// A failed `$metadata` fetch in words an admin can act on; never a secret.
    static func why(_ failure: ServiceFailure, url: String) -> String {
        switch failure {
        case .refused(let status, _) where status == 401 || status == 403:
            "The service at \(url) refused the credentials (\(status)). Check the user and the password or token."
        case .refused(let status, _), .unreachable(.serviceError(let status, _)):
            "The service at \(url) answered \(status) for its $metadata. Check the service root URL."
        case .notFound:
            "The service at \(url) has no $metadata (404). Check the service root URL."
        case .unreachable(.timedOut):
            "The service at \(url) did not answer in time. Check that it runs and that Fieldwork can reach it."
        case .unreachable(.tls(let detail)):
            "The secure connection to \(url) failed (\(detail)). If a company CA signs its certificate, give its CA file."
        case .unreachable(.connectionFailed):
            "The service at \(url) cannot be reached. Check the URL, and that the service runs and Fieldwork may connect to it."
        case .redirectRefused(let origin):
            "The service at \(url) redirected to another origin (\(origin)); Fieldwork sends requests to the connection's origin only. Enter the URL it redirects to."
        case .answerTooLarge(let limit):
            "The service's $metadata is larger than \(limit / 1024 / 1024) MB."
        default:
            "The service at \(url) did not answer with OData metadata: \(failure). Check the service root URL."
        }
    }

    /// An HTTP header name: RFC 9110 token characters.
    static func isToken(_ name: String) -> Bool {
        !name.isEmpty
            && name.unicodeScalars.allSatisfy {
                $0.isASCII
                    && ($0.properties.isAlphabetic || ("0"..."9").contains($0)
                        || "!#$%&'*+-.^_`|~".unicodeScalars.contains($0))
            }
    }
}
