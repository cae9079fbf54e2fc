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

/// A row of `option_lists`: the options an admin uploaded for a list of a form. They replace the
/// list's options in every version of the form that has a list with this id.
final class OptionListRecord: Model, @unchecked Sendable {
    static let schema = "option_lists"

    @ID(key: .id)
    var id: UUID?

    @Field(key: "form_id")
    var formID: String

    @Field(key: "list_id")
    var listID: String

    @Field(key: "options")
    var options: UploadedOptions

    @Timestamp(key: "uploaded_at", on: .update)
    var uploadedAt: Date?

    @OptionalField(key: "uploaded_by")
    var uploadedBy: String?

    init() {}
}

/// A row of `import_sources`: the source documents of one accepted import result, stored once
/// however many forms (OData entity sets) it gave; their versions point here.
final class ImportSourcesRecord: Model, @unchecked Sendable {
    static let schema = "import_sources"

    @ID(key: .id)
    var id: UUID?

    @Field(key: "documents")
    var documents: StoredDocuments

    /// The documents' names, apart from their bytes, so a page listing them reads no bytes.
    @Field(key: "names")
    var names: [String]

    init() {}

    init(id: UUID, documents: StoredDocuments) {
        self.id = id
        self.documents = documents
        self.names = documents.documents.map(\.name)
    }
}
