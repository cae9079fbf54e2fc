import Foundation

/// Where a service is and how to talk to it: the settings an admin gives when connecting an
/// import. Checked when made, so a client never holds a root it may not use.
package struct ODataConnection: Sendable, CustomStringConvertible {
    /// The service root, ending in `/`: every request goes below it.
    package let serviceRoot: URL
    /// ``serviceRoot`` as text, made once: every request's URL and every cached answer's key
    /// start with it (Foundation's `absoluteString` writes the URL anew each time).
    package let rootText: String
    package let origin: ServiceOrigin
    package var auth: ServiceAuth
    /// SAP's `sap-client` query option, on every request.
    package var sapClient: String?
    /// SAP's `sap-language` query option, on every request.
    package var sapLanguage: String?
    /// The time one request may take, redirects and reading the answer included.
    package var timeLimit: Duration
    /// The longest answer read, in bytes; a longer one is refused when the limit is reached.
    package var sizeLimit: Int
    /// A PEM file of CA certificates trusted besides the system's (a company CA). TLS is always
    /// verified.
    package var caFile: String?
    /// How a V2 `Edm.DateTime` is written (ISO unless the service wants `/Date(ms)/`).
    package var v2DateTime: ODataJSON.V2DateTime
    /// The zone people enter local dates and times in, for `Edm.DateTimeOffset`.
    package var timeZone: TimeZone
    /// V4 `IEEE754Compatible=true`: decimals and Int64 as JSON strings.
    package var ieee754Compatible: Bool

    /// Checks and keeps the settings.
    /// - Parameters:
    ///   - serviceRoot: an absolute `http` or `https` URL, without credentials, query or fragment.
    package init(
        serviceRoot: String, auth: ServiceAuth = .none, sapClient: String? = nil, sapLanguage: String? = nil,
        timeLimit: Duration = .seconds(10), sizeLimit: Int = 8 << 20, caFile: String? = nil,
        v2DateTime: ODataJSON.V2DateTime = .iso, timeZone: TimeZone = .utc, ieee754Compatible: Bool = false
    ) throws(ConnectionSettingsError) {
        guard let url = URL(string: serviceRoot), let scheme = url.scheme else {
            throw ConnectionSettingsError(code: "root-url", message: "Enter the service root as a full URL, https://…")
        }
        guard let origin = ServiceOrigin(url: url) else {
            throw ConnectionSettingsError(
                code: "root-scheme",
                message: "Enter an http or https URL for the service root; \(scheme.lowercased()) is not supported")
        }
        guard url.user == nil, url.password == nil else {
            throw ConnectionSettingsError(
                code: "root-credentials",
                message: "Remove the user and password from the URL and enter them as basic authentication")
        }
        guard url.query == nil, url.fragment == nil else {
            throw ConnectionSettingsError(
                code: "root-query",
                message: "Remove the query and fragment from the service root; enter sap-client as its own setting")
        }
        guard timeLimit > .zero, sizeLimit > 0 else {
            throw ConnectionSettingsError(code: "limits", message: "Enter a time limit and a size limit above zero")
        }
        let text = url.absoluteString
        self.serviceRoot = text.hasSuffix("/") ? url : URL(string: text + "/")!
        self.rootText = self.serviceRoot.absoluteString
        self.origin = origin
        self.auth = auth
        self.sapClient = sapClient
        self.sapLanguage = sapLanguage
        self.timeLimit = timeLimit
        self.sizeLimit = sizeLimit
        self.caFile = caFile
        self.v2DateTime = v2DateTime
        self.timeZone = timeZone
        self.ieee754Compatible = ieee754Compatible
    }

    /// The JSON reader and writer for a binding's version with these settings.
    package func json(_ version: ODataVersion) -> ODataJSON {
        ODataJSON(version: version, v2DateTime: v2DateTime, timeZone: timeZone, ieee754Compatible: ieee754Compatible)
    }

    /// The root and the auth kind, never its secret.
    package var description: String { "\(rootText) (\(auth))" }
}
