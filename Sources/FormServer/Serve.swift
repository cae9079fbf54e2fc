import ArgumentParser
import FormWeb
import Foundation
import Hummingbird
import Logging

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the server (SQLite in the data folder unless FIELDWORK_DATABASE_URL is set).",
        discussion: "The data folder is created on first start, with the demo form \"New Issue\" in it."
    )

    @Option(help: "Address to listen on.")
    var hostname = "127.0.0.1"

    @Option(help: "Port to listen on.")
    var port = 8080

    @OptionGroup var store: StoreOptions

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical (env LOG_LEVEL).")
    var logLevel: String?

    @Option(help: "Log line format: text, json or logfmt (env FIELDWORK_LOG_FORMAT, default text).")
    var logFormat: String?

    func run() async throws {
        var configuration = try store.configuration()
        if let logFormat {
            guard let format = LogFormat(rawValue: logFormat.lowercased()) else {
                throw ValidationError("Unknown log format \(logFormat); use text, json or logfmt.")
            }
            configuration.logFormat = format
            configuration.unknownLogFormat = nil
        }
        configuration.logFormat.bootstrap()
        configuration.hostname = hostname
        configuration.port = port
        if let logLevel {
            guard let level = Logger.Level(rawValue: logLevel.lowercased()) else {
                throw ValidationError(
                    "Unknown log level \(logLevel); use trace, debug, info, notice, warning, error or critical.")
            }
            configuration.logLevel = level
        }
        let app = try await buildApplication(configuration)
        try await app.runService()
    }
}

extension StoreOptions {
    /// The environment's configuration with these flags on top.
    func configuration() throws -> FieldworkConfiguration {
        var configuration = FieldworkConfiguration.fromEnvironment()
        if let dataFolder { configuration.dataFolder = URL(fileURLWithPath: dataFolder) }
        if let databaseURL {
            guard databaseURL.hasPrefix("postgres://") || databaseURL.hasPrefix("postgresql://") else {
                throw ValidationError(
                    "--database-url must be a postgres:// URL, like postgres://user:pass@localhost:5432/fieldwork.")
            }
            configuration.databaseURL = databaseURL
        }
        return configuration
    }
}
