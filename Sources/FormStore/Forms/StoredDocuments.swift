/// The source documents of one import, stored as one JSON value (SQLite text, PostgreSQL jsonb).
struct StoredDocuments: Codable, Sendable, Hashable {
    var documents: [StoredDocument]
}
