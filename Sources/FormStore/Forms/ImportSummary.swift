import FormImport

/// The stored report of an import (one JSON column).
package struct ImportSummary: Codable, Sendable, Hashable {
    /// A form the import created or updated.
    package struct Form: Codable, Sendable, Hashable {
        package var id: String
        package var title: String
        package var version: Int
        package var fieldCount: Int
    }

    package var documents: [String]
    package var forms: [Form]
    /// Each with how many times it occurred (`count`).
    package var warnings: [ImportWarning]
    package var skipped: [ImportSkip]
}

extension ImportSummary {
    /// The report of accepted imports whose forms were stored as `versions`, in the same order.
    init(results: [ImportResult], versions: [StoredVersion]) {
        documents = results.flatMap { $0.sources.map(\.name) }
        let schemas = results.flatMap(\.forms)
        forms = zip(schemas, versions).map { schema, stored in
            Form(id: stored.formID, title: schema.title, version: stored.version, fieldCount: schema.allFields.count)
        }
        warnings = results.flatMap(\.warnings)
        skipped = results.flatMap(\.skipped)
    }
}
