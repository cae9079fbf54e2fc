import FormImport
import FormModel
import FormStore
import Foundation

/// Importing documents, whoever sends them: the admin page, the admin JSON API, `fieldwork
/// import` and the demo seed. The callers only read their input and write their answer; this
/// parses the documents into imports (a native spec on its own, OData metadata with the
/// annotation files after it, ``FormImporter/importBatch(_:)``), refuses or stores them as the
/// caller's ``Policy`` says, and counts what became of them.
package struct FormImports: Sendable {
    let forms: FormStore

    package init(forms: FormStore) {
        self.forms = forms
    }

    /// What a refusal means for the rest of the batch.
    package enum Policy: Sendable {
        /// One refused import refuses the batch: all of it is stored as one import, or nothing
        /// (the admin page and the API, whose answer is one report).
        case allOrNothing
        /// Each import is stored on its own; a refused one stores nothing of itself, the others
        /// are still stored (`fieldwork import`, which reports each file).
        case eachOnItsOwn
    }

    /// What became of a batch: each import as the importer judged it, and what was stored.
    package struct Run: Sendable {
        /// Every import of the batch, in order, with what it read and what came of it.
        package var outcomes: [ImportOutcome]
        /// What was stored, by the index of the import in ``outcomes``: under
        /// ``Policy/allOrNothing`` every accepted import shares one record.
        package var stored: [Int: StoredImport]

        /// Whether any import was refused.
        package var refused: Bool { !outcomes.failures.isEmpty }

        /// The stored import record, when the batch was stored as one (``Policy/allOrNothing``).
        package var record: StoredImport? { stored.values.first }

        /// The versions stored for one import of the batch, in the order of its forms: its share
        /// of its record's versions (a record of several imports lists theirs in batch order).
        package func versions(of index: Int) -> [StoredVersion] {
            guard let record = stored[index] else { return [] }
            let formCount = { (index: Int) in (try? outcomes[index].result.get().forms.count) ?? 0 }
            let start = (0..<index).filter { stored[$0]?.id == record.id }.map(formCount).reduce(0, +)
            return Array(record.versions.dropFirst(start).prefix(formCount(index)))
        }
    }

    /// Imports a batch of documents.
    /// - Parameters:
    ///   - importedBy: the account (or "api token") to record; nil for the seed and the command line.
    ///   - access: who may fill the forms that are new to the store.
    ///   - channel: where the batch came from, for the counters.
    package func run(
        _ documents: [ImportDocument], importedBy: String?, access: FormAccess = .users,
        via channel: FieldworkMetrics.ImportChannel, policy: Policy
    ) async throws -> Run {
        let outcomes = FormImporter.importBatch(documents)
        var run = Run(outcomes: outcomes, stored: [:])
        switch policy {
        case .allOrNothing:
            guard !run.refused else {
                FieldworkMetrics.importRefused(via: channel)
                return run
            }
            let record = try await forms.storeImport(outcomes.accepted, importedBy: importedBy, access: access)
            for index in outcomes.indices { run.stored[index] = record }
            FieldworkMetrics.importStored(via: channel)
        case .eachOnItsOwn:
            for (index, outcome) in outcomes.enumerated() {
                switch outcome.result {
                case .success(let result):
                    run.stored[index] = try await forms.storeImport([result], importedBy: importedBy, access: access)
                    FieldworkMetrics.importStored(via: channel)
                case .failure:
                    FieldworkMetrics.importRefused(via: channel)
                }
            }
        }
        return run
    }
}
