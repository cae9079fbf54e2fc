import FormImport
import FormStore
import Foundation
import Logging

/// Imports the demo form (`Specs/new-issue.xml`) on first start, as a public form.
enum DemoSeed {
    static let formID = "new-issue"
    static let fileName = "new-issue.xml"

    /// Does nothing when a form `new-issue` exists, so admins' changes to it survive restarts.
    static func seedIfNeeded(store: FormStore, resources: ResourceRoot, logger: Logger) async throws {
        guard try await !store.contains(formID: formID) else { return }
        let file = resources.specs.appendingPathComponent(fileName)
        let bytes = try [UInt8](Data(contentsOf: file))
        let run = try await FormImports(forms: store).run(
            [ImportDocument(name: fileName, data: bytes)], importedBy: nil, access: .public, via: .commandLine,
            policy: .allOrNothing)
        if case .failure(let failure) = run.outcomes.first?.result { throw failure }
        for version in run.record?.versions ?? [] {
            logger.info(
                "Seeded the demo form", metadata: ["form": "\(version.formID)", "version": "\(version.version)"])
        }
    }
}
