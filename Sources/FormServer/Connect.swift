import ArgumentParser
import FormStore
import FormWeb
import Foundation

struct Connect: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Connect the import that made a form (all its forms) to its OData service.",
        discussion: """
            Fetches the service's $metadata with the given settings and compares it with the \
            imported metadata (differences are printed as warnings), then stores the connection, \
            the password or token sealed. The secret is read from the environment variable named \
            by --secret-env, never from the command line. Exit status 1 when the service cannot \
            be reached or refuses the credentials; nothing is stored then.
            """
    )

    @Argument(help: "The id of a form the import made.")
    var form: String

    @Option(help: "The service root URL, e.g. https://host/sap/opu/odata/sap/GWSAMPLE_BASIC/.")
    var url: String

    @Option(help: "none, basic, bearer or header.")
    var auth: String = "none"

    @Option(help: "The user name of basic authentication.")
    var user: String?

    @Option(name: .customLong("header"), help: "The header that carries the secret, for --auth header.")
    var headerName: String?

    @Option(name: .customLong("secret-env"), help: "The environment variable that holds the password or token.")
    var secretEnv: String?

    @Option(help: "service (the service holds the objects) or local.")
    var mode: String = "service"

    @Option(name: .customLong("sap-client"), help: "SAP's sap-client, sent with every request.")
    var sapClient: String?

    @Option(name: .customLong("sap-language"), help: "SAP's sap-language, sent with every request.")
    var sapLanguage: String?

    @Option(help: "Seconds each request may take (default 10).")
    var timeout: Int?

    @Flag(help: "Only test the connection; store nothing.")
    var test = false

    @OptionGroup var store: StoreOptions

    func run() async throws {
        guard let kind = ServiceConnectionSettings.Auth(rawValue: auth) else {
            throw ValidationError("--auth must be none, basic, bearer or header.")
        }
        guard let chosenMode = ServiceMode(rawValue: mode) else {
            throw ValidationError("--mode must be service or local.")
        }
        var secret: String?
        if let secretEnv {
            guard let value = ProcessInfo.processInfo.environment[secretEnv], !value.isEmpty else {
                throw ValidationError(
                    "The environment variable \(secretEnv) is not set; put the password or token there.")
            }
            secret = value
        }
        let settings = ServiceConnectionSettings(
            url: url, auth: kind, user: user, headerName: headerName, sapClient: sapClient, sapLanguage: sapLanguage,
            timeoutSeconds: timeout)
        let (succeeded, lines) = try await connectCommand(
            configuration: try store.configuration(), formID: form, settings: settings, secret: secret,
            mode: chosenMode, testOnly: test)
        for line in lines {
            if succeeded && !line.hasPrefix("warning:") { print(line) } else { printError(line) }
        }
        if !succeeded { throw ExitCode(1) }
    }
}
