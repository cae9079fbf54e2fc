import FluentKit
import FormModel
import Foundation

/// How Fieldwork reaches a service: its root and authentication, without the secret.
package struct ServiceConnectionSettings: Sendable, Hashable {
    /// How requests to the service authenticate.
    package enum Auth: String, Sendable, Hashable, CaseIterable {
        case none
        case basic
        case bearer
        /// A named header with the secret as its value (`APIKey: …`).
        case header
    }

    /// The service root, ending in `/`.
    package var url: String
    package var auth: Auth
    package var user: String?
    package var headerName: String?
    package var sapClient: String?
    package var sapLanguage: String?
    package var caFile: String?
    package var timeoutSeconds: Int?

    package init(
        url: String, auth: Auth = .none, user: String? = nil, headerName: String? = nil, sapClient: String? = nil,
        sapLanguage: String? = nil, caFile: String? = nil, timeoutSeconds: Int? = nil
    ) {
        self.url = url
        self.auth = auth
        self.user = user
        self.headerName = headerName
        self.sapClient = sapClient
        self.sapLanguage = sapLanguage
        self.caFile = caFile
        self.timeoutSeconds = timeoutSeconds
    }
}

/// A stored connection: its settings, whether it holds a secret (never the secret), the forms it
/// serves and the last test's drift report.
package struct StoredConnection: Sendable, Hashable {
    package var id: UUID
    package var settings: ServiceConnectionSettings
    package var hasSecret: Bool
    /// The last test's drift report as JSON, when tested.
    package var drift: String?
    package var testedAt: Date?
    package var updatedAt: Date?
    package var updatedBy: String?
    /// The connected forms and each one's mode, by form id.
    package var modes: [String: ServiceMode]
    fileprivate var sealed: String?
}

/// What a connect does with the stored secret.
package enum SecretChange: Sendable, Hashable {
    /// Keeps the one stored (an admin who changes only the mode types no password again).
    case keep
    case set(String)
    case clear
}

/// Reads and writes service connections. Secrets are sealed with the ``SealingKey`` before they
/// reach the database and opened only to send a request.
package struct ConnectionStore: Sendable {
    let database: FieldworkDatabase
    let sealing: SealingKey

    package init(database: FieldworkDatabase, sealing: SealingKey) {
        self.database = database
        self.sealing = sealing
    }

    /// Connects the forms (the forms of one import) to a service, each in `mode`, replacing the
    /// connection they had; every instance's form caches hear of it.
    package func connect(
        formIDs: [String], settings: ServiceConnectionSettings, secret: SecretChange, mode: ServiceMode,
        drift: String?, by account: String?
    ) async throws -> StoredConnection {
        let sealing = sealing
        let id: UUID = try await database.transaction(recording: formIDs.map { .form($0) }) { db in
            let forms = try await FormRecord.query(on: db).filter(\.$id ~~ formIDs).all()
            var record = ServiceConnectionRecord()
            if let id = forms.compactMap(\.serviceConnectionID).first,
                let existing = try await ServiceConnectionRecord.find(id, on: db)
            {
                record = existing
            }
            let id = record.id ?? UUID()
            record.id = id
            record.url = settings.url
            record.authKind = settings.auth.rawValue
            record.authUser = settings.user
            record.headerName = settings.headerName
            record.sapClient = settings.sapClient
            record.sapLanguage = settings.sapLanguage
            record.caFile = settings.caFile
            record.timeoutSeconds = settings.timeoutSeconds
            switch secret {
            case .keep: break
            case .set(let value): record.sealedSecret = try sealing.seal(value, context: id.uuidString)
            case .clear: record.sealedSecret = nil
            }
            if settings.auth == .none { record.sealedSecret = nil }
            record.drift = drift
            record.testedAt = Date()
            record.updatedBy = account
            try await record.save(on: db)
            for form in forms {
                form.serviceConnectionID = id
                form.serviceMode = mode.rawValue
                try await form.save(on: db)
            }
            return id
        }
        guard let stored = try await connection(id: id) else { throw ConnectionStoreError.vanished }
        return stored
    }

    /// Sets one connected form's mode.
    package func setMode(_ mode: ServiceMode, formID: String) async throws {
        try await database.transaction(recording: [.form(formID)]) { db in
            guard let form = try await FormRecord.find(formID, on: db), form.serviceConnectionID != nil else { return }
            form.serviceMode = mode.rawValue
            try await form.save(on: db)
        }
    }

    /// Disconnects the forms of a connection and forgets it (its secret with it).
    package func disconnect(id: UUID) async throws {
        let formIDs = try await FormRecord.query(on: database.database()).filter(\.$serviceConnectionID == id).all()
            .compactMap(\.id)
        try await database.transaction(recording: formIDs.map { .form($0) }) { db in
            for form in try await FormRecord.query(on: db).filter(\.$serviceConnectionID == id).all() {
                form.serviceConnectionID = nil
                form.serviceMode = nil
                try await form.save(on: db)
            }
            try await ServiceConnectionRecord.query(on: db).filter(\.$id == id).delete()
        }
    }

    /// A connection with its forms, or nil.
    package func connection(id: UUID) async throws -> StoredConnection? {
        let db = database.database()
        guard let record = try await ServiceConnectionRecord.find(id, on: db) else { return nil }
        var modes: [String: ServiceMode] = [:]
        for form in try await FormRecord.query(on: db).filter(\.$serviceConnectionID == id).all() {
            if let formID = form.id { modes[formID] = ServiceMode(rawValue: form.serviceMode ?? "") ?? .service }
        }
        return StoredConnection(
            id: id,
            settings: ServiceConnectionSettings(
                url: record.url, auth: ServiceConnectionSettings.Auth(rawValue: record.authKind) ?? .none,
                user: record.authUser, headerName: record.headerName, sapClient: record.sapClient,
                sapLanguage: record.sapLanguage, caFile: record.caFile, timeoutSeconds: record.timeoutSeconds),
            hasSecret: record.sealedSecret != nil, drift: record.drift, testedAt: record.testedAt,
            updatedAt: record.updatedAt, updatedBy: record.updatedBy, modes: modes, sealed: record.sealedSecret)
    }

    /// The connection's secret, opened: only to put in a request's headers.
    package func secret(of connection: StoredConnection) throws -> String? {
        guard let sealed = connection.sealed else { return nil }
        return try sealing.open(sealed, context: connection.id.uuidString)
    }
}

package enum ConnectionStoreError: Error {
    case vanished
}
