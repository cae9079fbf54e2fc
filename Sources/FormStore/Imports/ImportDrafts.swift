import FluentKit
import FormImport
import Foundation

/// The files of a refused admin import, kept so that the admin need not choose them again.
///
/// A browser cannot refill a file input, so after a refusal the admin page lists the files it
/// kept, each with a ticked box: the next submit imports them again, in the same order, with
/// any file chosen then. A file chosen again under the same name takes the kept one's place (the
/// fixed annotation file replaces the broken one and stays after its metadata). Each admin has
/// at most one set: a refusal replaces the previous set, an accepted import clears it, and sets
/// older than a day are purged with unclaimed uploads (``AttachmentPurgeService``).
package struct ImportDraftStore: Sendable {
    let database: FieldworkDatabase
    /// The clock that stamps kept files; tests move it.
    let now: @Sendable () -> Date

    package init(database: FieldworkDatabase, now: @escaping @Sendable () -> Date = { Date() }) {
        self.database = database
        self.now = now
    }

    /// A kept file or one chosen now: kept ones have an id.
    package struct Document: Sendable, Hashable {
        package var id: UUID?
        package var name: String
        package var data: [UInt8]

        package init(id: UUID? = nil, name: String, data: [UInt8]) {
            self.id = id
            self.name = name
            self.data = data
        }

        package var importDocument: ImportDocument { ImportDocument(name: name, data: data) }
    }

    /// The owner's kept files among `ids`, in the order of `ids`; ids of others, or purged, are
    /// left out.
    package func documents(ids: [UUID], owner: UUID) async throws -> [Document] {
        guard !ids.isEmpty else { return [] }
        let rows = try await StagedDocumentRecord.query(on: database.database())
            .filter(\.$id ~~ ids).filter(\.$owner == owner).all()
        let byID = Dictionary(
            rows.compactMap { row in row.id.map { ($0, row) } }, uniquingKeysWith: { first, _ in first })
        return ids.compactMap { id in byID[id].map { Document(id: id, name: $0.name, data: [UInt8]($0.data)) } }
    }

    /// Keeps exactly `documents` for `owner`: kept ones stay, new ones are written, and the
    /// owner's other kept files are deleted. Returns them in their order, each with its id (the
    /// page posts the ids back in that order).
    package func keep(_ documents: [Document], owner: UUID) async throws -> [Document] {
        let stamp = now()
        return try await database.transaction(deadline: database.deadlines.importTransaction) { db in
            let staying = documents.compactMap(\.id)
            try await StagedDocumentRecord.query(on: db).filter(\.$owner == owner).filter(\.$id !~ staying).delete()
            var kept: [Document] = []
            for document in documents {
                if document.id != nil {
                    kept.append(document)
                } else {
                    let record = StagedDocumentRecord(
                        owner: owner, name: document.name, data: document.data, createdAt: stamp)
                    try await record.create(on: db)
                    kept.append(Document(id: record.id, name: document.name, data: document.data))
                }
            }
            return kept
        }
    }

    /// Forgets the owner's kept files (after an accepted import).
    package func clear(owner: UUID) async throws {
        try await StagedDocumentRecord.query(on: database.database()).filter(\.$owner == owner).delete()
    }

    /// Deletes the kept files written before `date`; returns how many.
    @discardableResult
    package func purge(olderThan date: Date) async throws -> Int {
        let old = StagedDocumentRecord.query(on: database.database()).filter(\.$createdAt < date)
        let count = try await old.count()
        if count > 0 {
            try await StagedDocumentRecord.query(on: database.database()).filter(\.$createdAt < date).delete()
        }
        return count
    }

    /// The import: kept files first, in their order, a file chosen now under a kept file's name
    /// in that file's place, other chosen files after them.
    package static func merge(kept: [Document], chosen: [Document]) -> [Document] {
        var merged = kept
        for file in chosen {
            if let place = merged.firstIndex(where: { $0.name == file.name }) {
                merged[place] = file
            } else {
                merged.append(file)
            }
        }
        return merged
    }
}

/// A row of `staged_documents`: one file of a refused admin import.
final class StagedDocumentRecord: Model, @unchecked Sendable {
    static let schema = "staged_documents"

    @ID(key: .id)
    var id: UUID?

    /// The admin account that sent it; only that account sees it again.
    @Field(key: "owner")
    var owner: UUID

    /// Sanitised file name.
    @Field(key: "name")
    var name: String

    @Field(key: "data")
    var data: Data

    @Field(key: "created_at")
    var createdAt: Date

    init() {}

    init(owner: UUID, name: String, data: [UInt8], createdAt: Date) {
        self.id = UUID()
        self.owner = owner
        self.name = name
        self.data = Data(data)
        self.createdAt = createdAt
    }
}
