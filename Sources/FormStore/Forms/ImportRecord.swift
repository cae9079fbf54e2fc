import FluentKit
import FormImport
import Foundation

/// A row of `imports`: one import as an admin (or the command line) made it, with its report,
/// so the result page can be shown again and each version can say where it came from.
final class ImportRecord: Model, @unchecked Sendable {
    static let schema = "imports"

    @ID(key: .id)
    var id: UUID?

    @Field(key: "source_kind")
    var sourceKind: String

    /// What was imported and what came of it: files, forms made, warnings, skipped parts.
    @Field(key: "summary")
    var summary: ImportSummary

    @Timestamp(key: "imported_at", on: .create)
    var importedAt: Date?

    @OptionalField(key: "imported_by")
    var importedBy: String?

    init() {}

    init(id: UUID, sourceKind: SourceKind, summary: ImportSummary, importedBy: String?) {
        self.id = id
        self.sourceKind = sourceKind.rawValue
        self.summary = summary
        self.importedBy = importedBy
    }
}
