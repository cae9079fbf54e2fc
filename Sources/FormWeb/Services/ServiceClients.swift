import FormModel
import FormService
import FormStore
import Foundation
import ServiceLifecycle
import Synchronization

/// The OData clients of connected forms: one per connection, made from the stored connection (its
/// secret opened only here) when first needed, and dropped when any form changes, which every
/// change of a connection records, here or on another instance.
final class ServiceClients: Sendable {
    let http: ServiceHTTPClient
    let connections: ConnectionStore
    /// The zone people enter local dates and times in, for `Edm.DateTimeOffset`.
    let timeZone: TimeZone
    private let clients = Mutex<[UUID: ODataClient]>([:])
    /// Each version's binding, its fields' kinds and whether it has value helps in services of
    /// their own to follow, worked out once: a version never changes.
    private let bindings = Mutex<[String: (binding: ServiceBinding, kinds: [String: FieldKind], refers: Bool)]>([:])
    /// The value helps in services of their own, followed once per connection.
    let references = ValueHelpReferences()

    init(http: ServiceHTTPClient, connections: ConnectionStore, feed: ChangeFeed?, timeZone: TimeZone) {
        self.http = http
        self.connections = connections
        self.timeZone = timeZone
        feed?.subscribe { [weak self] change in
            guard case .form = change else { return }
            self?.clients.withLock { $0.removeAll() }
            self?.references.forget()
        }
    }

    /// What a form in mode `service` writes to: its connection's client, its version's binding
    /// (its value helps in services of their own followed) and its fields' kinds; nil for a form
    /// whose objects Fieldwork keeps.
    func target(for form: StoredForm, schema: FormSchema) async throws -> ServiceTarget? {
        guard form.usesService, let connection = form.service else { return nil }
        let key = "\(form.id)#\(form.version)"
        let decoded: (binding: ServiceBinding, kinds: [String: FieldKind], refers: Bool)
        if let known = bindings.withLock({ $0[key] }) {
            decoded = known
        } else {
            guard let binding = try form.binding() else { return nil }
            decoded = (binding, Self.kinds(of: schema), ValueHelpReferences.refers(binding))
            bindings.withLock { $0[key] = decoded }
        }
        let client = try await client(connection.connectionID)
        // Only a binding with references asks for them to be followed (or for the ones followed).
        let binding =
            decoded.refers
            ? await references.resolve(decoded.binding, client: client, connection: connection.connectionID)
            : decoded.binding
        return ServiceTarget(client: client, binding: binding, kinds: decoded.kinds)
    }

    /// The client of a stored connection.
    func client(_ id: UUID) async throws -> ODataClient {
        if let client = clients.withLock({ $0[id] }) { return client }
        guard let stored = try await connections.connection(id: id) else { throw ServiceClientsError.noConnection }
        let client = try ODataClient(
            connection: try Self.connection(
                stored.settings, secret: try connections.secret(of: stored), timeZone: timeZone),
            http: http)
        clients.withLock { $0[id] = client }
        return client
    }

    /// The connector's settings from the stored ones and the opened secret.
    static func connection(
        _ settings: ServiceConnectionSettings, secret: String?, timeZone: TimeZone
    ) throws(ConnectionSettingsError) -> ODataConnection {
        let auth: ServiceAuth =
            switch settings.auth {
            case .none: .none
            case .basic: .basic(user: settings.user ?? "", password: secret ?? "")
            case .bearer: .bearer(token: secret ?? "")
            case .header: .header(name: settings.headerName ?? "", value: secret ?? "")
            }
        return try ODataConnection(
            serviceRoot: settings.url, auth: auth, sapClient: settings.sapClient, sapLanguage: settings.sapLanguage,
            timeLimit: .seconds(settings.timeoutSeconds ?? 10), caFile: settings.caFile, timeZone: timeZone)
    }

    /// Each field's kind, by name: values come back from the service as the form holds them.
    /// Items' fields are named as their rules name them: `_Booking[].FlightDate`.
    static func kinds(of schema: FormSchema) -> [String: FieldKind] {
        var kinds = Dictionary(schema.allFields.map { ($0.name, $0.kind) }, uniquingKeysWith: { first, _ in first })
        func add(_ lists: [ItemList], prefix: String) {
            for list in lists {
                let within = "\(prefix)\(list.name)[]."
                for field in list.fields where kinds[within + field.name] == nil {
                    kinds[within + field.name] = field.kind
                }
                add(list.lists, prefix: within)
            }
        }
        add(schema.itemLists, prefix: "")
        return kinds
    }
}

/// Where a form in mode `service` writes its objects.
struct ServiceTarget: Sendable {
    let client: ODataClient
    let binding: ServiceBinding
    let kinds: [String: FieldKind]
}

enum ServiceClientsError: Error {
    case noConnection
}

/// Closes the connectors' HTTP connections when the server stops.
struct ServiceHTTPClientService: Service {
    let http: ServiceHTTPClient

    func run() async throws {
        try? await gracefulShutdown()
        try await http.shutdown()
    }
}
