import FormService
import FormStore
import Foundation
import Logging

/// `fieldwork connect`: ``ServiceConnections/runCommand(configuration:formID:settings:secret:mode:testOnly:)``.
package func connectCommand(
    configuration: FieldworkConfiguration, formID: String, settings: ServiceConnectionSettings, secret: String?,
    mode: ServiceMode, testOnly: Bool
) async throws -> (succeeded: Bool, lines: [String]) {
    try await ServiceConnections.runCommand(
        configuration: configuration, formID: formID, settings: settings, secret: secret, mode: mode,
        testOnly: testOnly)
}

extension ServiceConnections {
    /// `fieldwork connect`: tests, and unless `testOnly` connects, the import that made `formID`,
    /// on the store the configuration names. Returns whether it succeeded and the lines to print;
    /// the secret is never among them.
    static func runCommand(
        configuration: FieldworkConfiguration, formID: String, settings: ServiceConnectionSettings, secret: String?,
        mode: ServiceMode, testOnly: Bool
    ) async throws -> (succeeded: Bool, lines: [String]) {
        var logger = Logger(label: "fieldwork.connect")
        logger.logLevel = .warning
        let sealing = try SealingKey.load(environment: configuration.sealingKey, dataFolder: configuration.dataFolder)
        let database = try await FieldworkDatabase.open(configuration.store, logger: logger)
        let http = ServiceHTTPClient()
        let outcome: Outcome
        do {
            let use = ServiceConnections(
                forms: database.forms, connections: ConnectionStore(database: database, sealing: sealing), http: http,
                timeZone: configuration.timeZone)
            outcome = try await use.connect(
                formID: formID, Request(settings: settings, secret: secret, mode: mode, testOnly: testOnly), by: nil)
        } catch {
            try? await http.shutdown()
            await database.shutdown()
            if case FormLookupError.unknown = error { return (false, ["No form has the id \(formID)."]) }
            throw error
        }
        try? await http.shutdown()
        await database.shutdown()
        switch outcome {
        case .connected(_, let drift, let forms):
            var lines =
                testOnly
                ? ["\(settings.url): reached; its $metadata reads as OData. Nothing was stored (--test)."]
                : forms.map { "\($0): connected to \(settings.url), mode \(mode.rawValue)" }
            lines += drift.differences.map { "warning: \($0.message)" }
            if drift.isEmpty { lines.append("No drift: the service's metadata matches the import.") }
            if let references = drift.valueHelpReferences {
                lines.append(references.summary)
                lines += references.unresolved.map { "warning: \($0.message)" }
            }
            return (true, lines)
        case .invalid(let problems):
            return (false, problems.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" })
        case .failed(let message):
            return (false, [message])
        }
    }
}
