import AsyncHTTPClient
import FormModel
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL

/// Talks to one connected OData service (V2 or V4, as each binding says) over the shared HTTP
/// client: reads `$metadata`, creates, reads, changes and deletes entities, runs draft
/// activation, and reads value helps. Every request goes to the connection's origin only, within
/// its time and size limits; every failure is a `ServiceFailure` with no secret in it.
package final class ODataClient: Sendable {
    package let connection: ODataConnection
    let http: ServiceHTTPClient
    let session = ServiceSession()
    /// The TLS settings with the connection's CA file, or nil for the shared client's own.
    let tls: TLSConfiguration?

    /// A client for one connection. Reads the CA file now, so that a wrong file is said when
    /// the connection is made, not on the first request.
    package init(connection: ODataConnection, http: ServiceHTTPClient) throws(ConnectionSettingsError) {
        self.connection = connection
        self.http = http
        if let caFile = connection.caFile {
            let certificates: [NIOSSLCertificate]
            do {
                certificates = try NIOSSLCertificate.fromPEMFile(caFile)
            } catch {
                throw ConnectionSettingsError(
                    code: "ca-file", message: "The CA file \(caFile) cannot be read as PEM certificates")
            }
            guard !certificates.isEmpty else {
                throw ConnectionSettingsError(code: "ca-file", message: "The CA file \(caFile) holds no certificate")
            }
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.certificateVerification = .fullVerification
            configuration.additionalTrustRoots = [.certificates(certificates)]
            tls = configuration
        } else {
            tls = nil
        }
    }

    // MARK: Metadata

    /// The service's `$metadata` document, as bytes for the importer and the drift check; with
    /// `root`, that of another service on the same origin (a value help's, `valueHelpRoot`), read
    /// with this connection's credentials, limits and `sap-client`.
    package func metadata(root: URL? = nil) async throws(ServiceFailure) -> [UInt8] {
        try await guarded { () async throws(ServiceFailure) in
            let answer = try await exchange(
                .GET, url: url("$metadata", root: root), accept: "application/xml", exposure: .read)
            try check(answer, binding: nil)
            return answer.body
        }
    }

    /// The root of the service a `Common.ValueListReferences` URL names
    /// (`../../srvd_f4/sap/i_currency/0001;ps='…';va='…'/$metadata`): resolved against this
    /// service's `$metadata`, as Fiori elements resolves it, without its `$metadata` and query.
    /// Refused (`redirectRefused`) when it leaves the connection's origin: the credentials go
    /// nowhere else.
    package func valueHelpRoot(_ reference: String) throws(ServiceFailure) -> URL {
        var written = Substring(reference)
        if let query = written.firstIndex(of: "?") { written = written[..<query] }
        if written.hasSuffix("$metadata") { written = written.dropLast("$metadata".count) }
        return try sameOriginRoot(String(written))
    }

    /// A service root written relative to this one (a value help's `CollectionRoot`, a value-help
    /// service's) as an absolute URL ending in `/`, on the connection's origin only.
    func sameOriginRoot(_ written: String) throws(ServiceFailure) -> URL {
        guard let resolved = URL(string: written, relativeTo: connection.serviceRoot)?.absoluteURL else {
            throw .badAnswer("the value list's service root \(written) is no URL")
        }
        guard ServiceOrigin(url: resolved) == connection.origin else {
            throw .redirectRefused(origin: ServiceOrigin(url: resolved)?.description ?? written)
        }
        let text = resolved.absoluteString
        return text.hasSuffix("/") ? resolved : URL(string: text + "/") ?? resolved
    }

    // MARK: Entities

    /// Creates an entity from the given fields (computed ones never sent) and returns it as the
    /// service answered. On a draft root this makes a draft, which `activateDraft` makes active.
    /// - Parameters:
    ///   - requestID: the create's own id, recorded before sending (`Repeatability-Request-ID`).
    ///   - firstSent: when it was first sent (`Repeatability-First-Sent`), the same on a repeat.
    ///   - kinds: the form's field kinds, so that values come back as the form holds them.
    ///   - deep: whether the items of the values' lists go along under their compositions'
    ///     navigation properties (a deep insert); otherwise only the parent's fields are sent.
    package func create(
        _ values: [String: FieldValue], binding: ServiceBinding, kinds: [String: FieldKind] = [:], requestID: UUID,
        firstSent: Date, deep: Bool = false
    ) async throws(ServiceFailure) -> ODataEntity {
        try await guarded { () async throws(ServiceFailure) in
            let json = connection.json(binding.version)
            let body = try writable { () throws(ODataValueError) in
                deep ? try json.deepBody(values, binding: binding) : try json.body(values, binding: binding)
            }
            var headers = versionHeaders(binding.version) + [("Content-Type", contentType(binding.version))]
            headers.append(("Repeatability-Request-ID", requestID.uuidString.lowercased()))
            headers.append(("Repeatability-First-Sent", ODataClient.imfFixdate(firstSent)))
            if binding.version == .v4 { headers.append(("Prefer", "return=representation")) }
            let answer = try await change(
                .POST, url: url(PercentEncoding.pathSegment(binding.entitySet)), headers: headers, body: body)
            try check(answer, binding: binding)
            return try await entity(answer, binding: binding, kinds: kinds, created: true)
        }
    }

    /// The entity with this key, as the service holds it now; with `expand`, its compositions'
    /// items too (``ODataEntity/items``), every level.
    package func read(
        key: [String: FieldValue], binding: ServiceBinding, kinds: [String: FieldKind] = [:], expand: Bool = false
    ) async throws(ServiceFailure) -> ODataEntity {
        try await guarded { () async throws(ServiceFailure) in
            let expansion = expand ? Self.expansion(binding, version: binding.version) : ""
            let query = expansion.isEmpty ? [] : [("$expand", expansion)]
            let answer = try await exchange(
                .GET, url: try entityURL(key, binding: binding, query: query), headers: versionHeaders(binding.version),
                accept: accept(binding.version), exposure: .read)
            try check(answer, binding: binding)
            return try await entity(answer, binding: binding, kinds: kinds, created: false)
        }
    }

    /// Changes the given fields of an entity: V4 `PATCH`, V2 `MERGE`, with `If-Match` when an
    /// ETag is given. A 412 reads the entity back for the page that says someone changed it.
    package func update(
        key: [String: FieldValue], changes: [String: FieldValue], etag: String?, binding: ServiceBinding,
        kinds: [String: FieldKind] = [:]
    ) async throws(ServiceFailure) -> ChangeAnswer {
        try await guarded { () async throws(ServiceFailure) in
            let json = connection.json(binding.version)
            let body = try writable { () throws(ODataValueError) in try json.body(changes, binding: binding) }
            var headers = versionHeaders(binding.version) + [("Content-Type", contentType(binding.version))]
            if let etag { headers.append(("If-Match", etag)) }
            if binding.version == .v4 { headers.append(("Prefer", "return=representation")) }
            let method: HTTPMethod = binding.version == .v4 ? .PATCH : .RAW(value: "MERGE")
            let answer = try await change(
                method, url: try entityURL(key, binding: binding), headers: headers, body: body)
            if answer.status == 412 {
                throw .preconditionFailed(current: await current(key, binding: binding, kinds: kinds))
            }
            try check(answer, binding: binding)
            let entity =
                answer.body.isEmpty ? nil : try await entity(answer, binding: binding, kinds: kinds, created: false)
            return ChangeAnswer(entity: entity, etag: entity?.etag ?? answer.headers.first(name: "etag"))
        }
    }

    /// Deletes an entity, with `If-Match` when an ETag is given.
    package func delete(key: [String: FieldValue], etag: String?, binding: ServiceBinding) async throws(ServiceFailure)
    {
        try await guarded { () async throws(ServiceFailure) in
            var headers = versionHeaders(binding.version)
            if let etag { headers.append(("If-Match", etag)) }
            let answer = try await change(
                .DELETE, url: try entityURL(key, binding: binding), headers: headers, body: nil)
            if answer.status == 412 {
                throw .preconditionFailed(current: await current(key, binding: binding, kinds: [:]))
            }
            try check(answer, binding: binding)
        }
    }

    // MARK: Pieces

    /// Runs an operation and takes every secret out of its failure: the credential, the CSRF
    /// token and the session cookies, wherever a service or a library might have echoed them.
    func guarded<T>(_ body: () async throws(ServiceFailure) -> T) async throws(ServiceFailure) -> T {
        do {
            return try await body()
        } catch {
            throw error.redacting(connection.auth.secrets + session.secrets)
        }
    }

    /// A create or change: with the CSRF token when the service issues one, fetched first; on a
    /// 403 that says the token is required (it expired with the session), fetched again once and
    /// sent again, which is safe because the service refused before doing anything.
    func change(
        _ method: HTTPMethod, url: String, headers: [(String, String)], body: [UInt8]?
    ) async throws(ServiceFailure) -> ServiceAnswer {
        var token = try await csrfToken(refresh: false)
        var attempt = 0
        while true {
            var all = headers
            if let token { all.append(("X-CSRF-Token", token)) }
            let answer = try await exchange(method, url: url, headers: all, body: body, exposure: .change)
            attempt += 1
            if attempt == 1, answer.status == 403,
                answer.headers.first(name: "x-csrf-token")?.lowercased() == "required"
            {
                token = try await csrfToken(refresh: true)
                continue
            }
            return answer
        }
    }

    /// The CSRF token: fetched with `X-CSRF-Token: Fetch` on the service root the first time (the
    /// session cookies come with it); a service that sends none is not asked again.
    func csrfToken(refresh: Bool) async throws(ServiceFailure) -> String? {
        if !refresh {
            switch session.token {
            case .none: return nil
            case .value(let token): return token
            case .unknown: break
            }
        }
        let answer = try await exchange(.GET, url: url(""), headers: [("X-CSRF-Token", "Fetch")], exposure: .read)
        if let token = answer.headers.first(name: "x-csrf-token"), !token.isEmpty, token.lowercased() != "required" {
            session.setToken(.value(token))
            return token
        }
        if answer.status == 401 || answer.status == 403 || answer.status >= 500 { try check(answer, binding: nil) }
        session.setToken(.none)
        return nil
    }

    /// The entity read back after a 412, or nil when that failed too.
    func current(
        _ key: [String: FieldValue], binding: ServiceBinding, kinds: [String: FieldKind]
    ) async -> ODataEntity? {
        try? await read(key: key, binding: binding, kinds: kinds)
    }

    /// A value written for a request, or `notWritable`: nothing is sent.
    func writable<T>(_ body: () throws(ODataValueError) -> T) throws(ServiceFailure) -> T {
        do {
            return try body()
        } catch {
            throw .notWritable(error)
        }
    }

    /// Throws the failure a status means; a 2xx passes.
    func check(_ answer: ServiceAnswer, binding: ServiceBinding?) throws(ServiceFailure) {
        guard !answer.isSuccess else { return }
        switch answer.status {
        case 404: throw .notFound
        case 412: throw .preconditionFailed(current: nil)
        case 400..<500:
            throw .refused(
                status: answer.status,
                messages: ODataErrorBody.messages(status: answer.status, body: answer.body, binding: binding))
        case 500...:
            throw .unreachable(
                .serviceError(
                    status: answer.status,
                    messages: ODataErrorBody.messages(status: answer.status, body: answer.body, binding: binding)))
        default: throw .badAnswer("status \(answer.status)")
        }
    }

    /// The entity of an answer; a create answered without a body (V4 `return=minimal`, 204) is
    /// read from its `Location`.
    func entity(
        _ answer: ServiceAnswer, binding: ServiceBinding, kinds: [String: FieldKind], created: Bool
    ) async throws(ServiceFailure) -> ODataEntity {
        let json = connection.json(binding.version)
        if answer.body.isEmpty, created,
            let location = answer.headers.first(name: "location") ?? answer.headers.first(name: "odata-entityid")
        {
            guard let target = URL(string: location, relativeTo: connection.serviceRoot)?.absoluteURL,
                ServiceOrigin(url: target) == connection.origin
            else { throw .badAnswer("the created entity's location is not on the service's origin") }
            let readBack: ServiceAnswer
            do {
                readBack = try await exchange(
                    .GET, url: target.absoluteString, headers: versionHeaders(binding.version),
                    accept: accept(binding.version), exposure: .read)
                try check(readBack, binding: binding)
            } catch {
                throw .outcomeUnknown("the object was created but could not be read back: \(error)")
            }
            return try json.entity(
                json.entityObject(ODataJSON.parse(readBack.body, entity: true, binding: binding)), binding: binding,
                kinds: kinds,
                headerETag: readBack.headers.first(name: "etag"))
        }
        return try json.entity(
            json.entityObject(ODataJSON.parse(answer.body, entity: true, binding: binding)), binding: binding,
            kinds: kinds,
            headerETag: answer.headers.first(name: "etag"))
    }

    /// The URL of an entity by its key, with an optional path after it (a bound action).
    func entityURL(
        _ key: [String: FieldValue], binding: ServiceBinding, suffix: String = "", query: [(String, String)] = []
    ) throws(ServiceFailure) -> String {
        let predicate = try writable { () throws(ODataValueError) in
            try ODataLiteral.keyPredicate(
                key, keys: binding.keys, version: binding.version, timeZone: connection.timeZone)
        }
        return url(PercentEncoding.pathSegment(binding.entitySet) + predicate + suffix, query: query)
    }

    /// A URL below the root, with the query options and SAP's client and language.
    func url(_ path: String, query: [(String, String)] = [], root: URL? = nil) -> String {
        var options = query
        if let client = connection.sapClient { options.append(("sap-client", client)) }
        if let language = connection.sapLanguage { options.append(("sap-language", language)) }
        let text = options.map { "\($0.0)=\(PercentEncoding.queryValue($0.1))" }.joined(separator: "&")
        return (root?.absoluteString ?? connection.rootText) + path + (text.isEmpty ? "" : "?" + text)
    }

    func versionHeaders(_ version: ODataVersion) -> [(String, String)] {
        switch version {
        case .v2: [("MaxDataServiceVersion", "2.0"), ("DataServiceVersion", "2.0")]
        case .v4: [("OData-MaxVersion", "4.0"), ("OData-Version", "4.0")]
        }
    }

    func accept(_ version: ODataVersion) -> String {
        version == .v4 && connection.ieee754Compatible ? "application/json;IEEE754Compatible=true" : "application/json"
    }

    func contentType(_ version: ODataVersion) -> String {
        version == .v4 && connection.ieee754Compatible ? "application/json;IEEE754Compatible=true" : "application/json"
    }

    /// An IMF-fixdate (RFC 9110 §5.6.7), `Thu, 26 Nov 2026 18:00:00 GMT`, without a formatter
    /// whose words would follow the process locale.
    package static func imfFixdate(_ date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let value = CivilTime.dateTime(seconds: seconds)!
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let weekday = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][Int(((days % 7) + 7) % 7)]
        let month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][
            value.date.month - 1]
        return
            "\(weekday), \(CivilTime.two(value.date.day)) \(month) \(value.date.year) \(CivilTime.timeText(value.time)) GMT"
    }
}
