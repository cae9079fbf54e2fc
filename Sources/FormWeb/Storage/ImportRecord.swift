import FluentKit
import FormImport
import Foundation
import SQLKit

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

/// The tables and columns the admin page needs: `imports`, `import_sources`, `option_lists`, each
/// version's import and sources, and each form's list revision (which makes cached pages of the form stale when it changes).
struct AddAdminTables: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(ImportRecord.schema)
            .id()
            .field("source_kind", .string, .required)
            .field("summary", .json, .required)
            .field("imported_at", .datetime)
            .field("imported_by", .string)
            .create()
        try await database.schema(OptionListRecord.schema)
            .id()
            .field("form_id", .string, .required, .references(FormRecord.schema, "id"))
            .field("list_id", .string, .required)
            .field("options", .json, .required)
            .field("uploaded_at", .datetime)
            .field("uploaded_by", .string)
            .unique(on: "form_id", "list_id")
            .create()
        try await database.schema(ImportSourcesRecord.schema)
            .id()
            .field("documents", .json, .required)
            .field("names", .array(of: .string), .required)
            .create()
        try await database.schema(FormVersionRecord.schema)
            .field("import_id", .uuid)
            .update()
        try await database.schema(FormVersionRecord.schema)
            .field("sources_id", .uuid)
            .update()
        try await database.schema(FormRecord.schema)
            .field("lists_revision", .int, .required, .sql(.default(0)))
            .update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(FormRecord.schema).deleteField("lists_revision").update()
        try await database.schema(FormVersionRecord.schema).deleteField("sources_id").update()
        try await database.schema(FormVersionRecord.schema).deleteField("import_id").update()
        try await database.schema(ImportSourcesRecord.schema).delete()
        try await database.schema(OptionListRecord.schema).delete()
        try await database.schema(ImportRecord.schema).delete()
    }
}
