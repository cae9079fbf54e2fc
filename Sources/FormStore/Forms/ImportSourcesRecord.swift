import FluentKit
import Foundation

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
