import FormStore
import Foundation
import Logging
import Synchronization

/// Everything the server needs to start: where to listen, where data and resources live, how loud to log.
package struct FieldworkConfiguration: Sendable {
    package var hostname: String
    package var port: Int
    /// Holds `fieldwork.sqlite`, `secret.key` and attachment files; created on first start.
    package var dataFolder: URL
    /// `postgres://user:pass@host:port/db` switches the store to PostgreSQL; nil means embedded SQLite.
    package var databaseURL: String?
    package var resources: ResourceRoot
    package var logLevel: Logger.Level
    /// Whether the demo form (`Specs/new-issue.xml`) is imported on first start.
    package var seedsDemo: Bool
    /// The `admin` account's password on first start (`FIELDWORK_ADMIN_PASSWORD`); nil generates one and logs it once.
    package var adminPassword: String?
    /// The bearer token of the admin JSON API (`FIELDWORK_ADMIN_TOKEN`); nil means that API takes
    /// an admin's session only.
    package var adminToken: String?
    /// Where `default="today"` and `default="now"` are read (`FIELDWORK_TIME_ZONE`, an IANA name);
    /// the server's own zone when unset.
    package var timeZone: TimeZone = .current
    /// A `FIELDWORK_TIME_ZONE` that names no zone: the server refuses to start with it.
    package var unknownTimeZone: String?
    /// bcrypt's work factor for passwords: 12; tests lower it to keep sign-ins fast.
    package var bcryptCost: UInt8 = 12
    /// How long a sign-in lasts without use.
    package var sessionLifetime: Duration = .seconds(12 * 60 * 60)
    /// How long a client may take to send a request's head and body
    /// (`FIELDWORK_HEAD_TIMEOUT`, `FIELDWORK_BODY_TIMEOUT`, `FIELDWORK_BODY_MIN_RATE`).
    package var requestDeadlines = RequestDeadlines()
    /// Settings in the environment that cannot be used, each with what to write instead: the
    /// server refuses to start with them.
    package var unusableSettings: [String] = []
    /// The logger the server and its requests log to; nil: the process's logging system's
    /// (`fieldwork`). Tests give one that keeps what is logged.
    package var logger: Logger?
    /// How the log lines look (`FIELDWORK_LOG_FORMAT`: `text`, `json`, `logfmt`).
    package var logFormat: LogFormat = .text
    /// A `FIELDWORK_LOG_FORMAT` that names no format: the server refuses to start with it.
    package var unknownLogFormat: String?
    /// How long PostgreSQL calls may take before they count as an outage; tests allow more.
    package var databaseDeadlines = DatabaseDeadlines()
    /// How long `GET /ready` waits for the database before it answers 503.
    package var readinessTimeout: Duration = .seconds(2)
    /// The time two-step sign-in codes are made for: the system's; tests set their own.
    package var codeClock: @Sendable () -> Date = { Date() }
    /// Counts the create and edit views whose plans are built; tests read it.
    package var builtViews = BuiltViews()
    /// Given the application's change feed once it is made; tests wait on it.
    package var onChangeFeed: (@Sendable (ChangeFeed) -> Void)?
    /// The address people use (`FIELDWORK_PUBLIC_URL`, `https://forms.example.com`): behind
    /// HTTPS, the cookies are `Secure` and `__Host-` (``CookiePolicy``), pages send
    /// `Strict-Transport-Security`, and a state-changing request must come from this origin
    /// (``OriginCheckMiddleware``). Nil: plain HTTP, origins judged by `Sec-Fetch-Site` only.
    package var publicURL: URL?
    /// The cookies' names and attributes, from ``publicURL``.
    package var cookies: CookiePolicy { CookiePolicy(publicURL: publicURL) }
    /// The key that seals service connections' secrets (`FIELDWORK_SEALING_KEY`, 32 bytes in
    /// base64); nil uses `<data>/sealing.key`, made on first start.
    package var sealingKey: String?
    /// The key behind CSRF tokens and signed values (`FIELDWORK_SIGNING_KEY`, 32 bytes in base64);
    /// nil uses `<data>/signing.key`, made (or taken from an earlier version) on first start.
    package var signingKey: String?

    package init(
        hostname: String = "127.0.0.1", port: Int = 8080, dataFolder: URL = URL(fileURLWithPath: "data"),
        databaseURL: String? = nil, resources: ResourceRoot = .resolve(), logLevel: Logger.Level = .info,
        seedsDemo: Bool = true
    ) {
        self.hostname = hostname
        self.port = port
        self.dataFolder = dataFolder
        self.databaseURL = databaseURL
        self.resources = resources
        self.logLevel = logLevel
        self.seedsDemo = seedsDemo
    }

    /// The configuration the environment describes (`FIELDWORK_DATA`, `FIELDWORK_DATABASE_URL`,
    /// `FIELDWORK_RESOURCES`, `FIELDWORK_ADMIN_PASSWORD`, `FIELDWORK_ADMIN_TOKEN`, `FIELDWORK_SEALING_KEY`, `FIELDWORK_TIME_ZONE`, the request deadlines, `FIELDWORK_LOG_FORMAT`, `LOG_LEVEL`); flags given to the CLI override it afterwards.
    package static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Self {
        var configuration = FieldworkConfiguration(resources: .resolve(environment: environment))
        if let data = environment["FIELDWORK_DATA"], !data.isEmpty {
            configuration.dataFolder = URL(fileURLWithPath: data)
        }
        if let url = environment["FIELDWORK_DATABASE_URL"], !url.isEmpty {
            configuration.databaseURL = url
        }
        if let folder = environment["FIELDWORK_ATTACHMENTS"], !folder.isEmpty {
            configuration.attachmentsFolder = URL(fileURLWithPath: folder, isDirectory: true)
        }
        if let password = environment["FIELDWORK_ADMIN_PASSWORD"], !password.isEmpty {
            configuration.adminPassword = password
        }
        if let name = environment["FIELDWORK_TIME_ZONE"], !name.isEmpty {
            if let zone = TimeZone(identifier: name) {
                configuration.timeZone = zone
            } else {
                configuration.unknownTimeZone = name
            }
        }
        if let token = environment["FIELDWORK_ADMIN_TOKEN"], !token.isEmpty {
            configuration.adminToken = token
        }
        if let key = environment["FIELDWORK_SEALING_KEY"], !key.isEmpty {
            configuration.sealingKey = key
        }
        if let key = environment["FIELDWORK_SIGNING_KEY"], !key.isEmpty {
            configuration.signingKey = key
        }
        var unusable: [String] = []
        if let text = environment["FIELDWORK_PUBLIC_URL"], !text.isEmpty {
            if let url = Self.publicURL(text) {
                configuration.publicURL = url
            } else {
                unusable.append(
                    "FIELDWORK_PUBLIC_URL=\(text) is not the address of a site: give its scheme and host and nothing "
                        + "after them, such as https://forms.example.com")
            }
        }
        (configuration.requestDeadlines, configuration.unusableSettings) = RequestDeadlines.fromEnvironment(
            environment)
        configuration.unusableSettings += unusable
        if let name = environment["FIELDWORK_LOG_FORMAT"], !name.isEmpty {
            if let format = LogFormat(rawValue: name.lowercased()) {
                configuration.logFormat = format
            } else {
                configuration.unknownLogFormat = name
            }
        }
        if let level = environment["LOG_LEVEL"].flatMap({ Logger.Level(rawValue: $0.lowercased()) }) {
            configuration.logLevel = level
        }
        return configuration
    }

    /// An `http` or `https` address with a host, an optional port and nothing after them (a
    /// trailing `/` is dropped); nil for anything else.
    static func publicURL(_ text: String) -> URL? {
        var text = text.trimmingCharacters(in: .whitespaces)
        if text.hasSuffix("/") { text.removeLast() }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty,
            components.path.isEmpty, components.query == nil, components.fragment == nil, components.user == nil
        else { return nil }
        return components.url
    }

    /// Where attachments and files being uploaded are kept, when not in `<data>/attachments`:
    /// with several instances on PostgreSQL, a folder they all share (`FIELDWORK_ATTACHMENTS`).
    package var attachmentsFolder: URL?

    /// Where the store keeps its data.
    package var store: StoreLocation {
        StoreLocation(dataFolder: dataFolder, databaseURL: databaseURL, deadlines: databaseDeadlines)
    }
    /// `<data>/fieldwork.sqlite`.
    package var sqliteFile: URL { store.sqliteFile }
    /// `<data>/secret.key`: 32 random bytes behind the CSRF tokens.
    package var secretFile: URL { dataFolder.appendingPathComponent("secret.key") }
}

/// A configuration the server cannot start with, and what to change.
package struct FieldworkConfigurationError: Error, CustomStringConvertible {
    package var description: String

    package init(_ description: String) {
        self.description = description
    }
}

/// How many create and edit views' plans an application built (``PlanCache``): what a test
/// reads to see that a route answered from the prepared version alone.
package final class BuiltViews: Sendable {
    private let built = Atomic<Int>(0)

    package init() {}

    package var count: Int { built.load(ordering: .relaxed) }

    func add() { built.add(1, ordering: .relaxed) }
}
