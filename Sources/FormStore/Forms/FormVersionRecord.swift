import FluentKit
import FormImport
import Foundation

/// A row of `form_versions`: one imported schema of a form, numbered 1, 2, 3, ... per form.
final class FormVersionRecord: Model, @unchecked Sendable {
    static let schema = "form_versions"

    @ID(key: .id)
    var id: UUID?

    @Parent(key: "form_id")
    var form: FormRecord

    @Field(key: "version")
    var version: Int

    @Field(key: "source_kind")
    var sourceKind: String

    /// The source documents, for versions stored before `import_sources`; newer versions keep
    /// an empty list here and point at their import's sources with `sourcesID`.
    @Field(key: "source_documents")
    var sourceDocuments: StoredDocuments

    /// The canonical JSON text, exactly as `FormSchema.canonicalJSON()` wrote it.
    @Field(key: "schema_json")
    var schemaJSON: String

    @Timestamp(key: "imported_at", on: .create)
    var importedAt: Date?

    @OptionalField(key: "imported_by")
    var importedBy: String?

    /// The import that made this version (its report); nil for versions older than imports.
    @OptionalField(key: "import_id")
    var importID: UUID?

    /// The `import_sources` row holding this version's source documents.
    @OptionalField(key: "sources_id")
    var sourcesID: UUID?

    /// The schema's title, beside its JSON, so lists of forms decode no schema.
    @OptionalField(key: "title")
    var title: String?

    /// How an OData version maps onto its service (``ServiceBinding`` as JSON); nil for native
    /// specs and for versions imported before connections.
    @OptionalField(key: "binding_json")
    var bindingJSON: String?

    /// An imported XForm's rules (``XFormRules``) as JSON; nil for other sources.
    @OptionalField(key: "rules_json")
    var rulesJSON: String?

    init() {}

    init(
        formID: String, version: Int, sourceKind: SourceKind, sourceDocuments: StoredDocuments, schemaJSON: String,
        title: String, importedBy: String?, importID: UUID? = nil, sourcesID: UUID? = nil, bindingJSON: String? = nil,
        rulesJSON: String? = nil
    ) {
        self.bindingJSON = bindingJSON
        self.rulesJSON = rulesJSON
        self.$form.id = formID
        self.version = version
        self.sourceKind = sourceKind.rawValue
        self.sourceDocuments = sourceDocuments
        self.schemaJSON = schemaJSON
        self.title = title
        self.importedBy = importedBy
        self.importID = importID
        self.sourcesID = sourcesID
    }
}
