import FormImport

/// The stored report of an import (one JSON column).
public struct ImportSummary: Codable, Sendable, Hashable {
    /// A form the import created or updated.
    public struct Form: Codable, Sendable, Hashable {
        public var id: String
        public var title: String
        public var version: Int
        public var fieldCount: Int
    }

    public var documents: [String]
    public var forms: [Form]
    /// Each with how many times it occurred (`count`).
    public var warnings: [ImportWarning]
    public var skipped: [ImportSkip]
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
