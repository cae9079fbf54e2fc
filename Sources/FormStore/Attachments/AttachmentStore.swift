import FluentKit
import FormModel
import Foundation
import NIOCore
import NIOPosix

/// Receives, keeps, hands out and forgets the files of attachments fields.
///
/// Rows live in `attachments`; bytes in `<data>/attachments/<id>`, where the id is a random
/// UUID, so no part of a path ever comes from a user. Files arrive staged, owned by the
/// browser that sent them; an object claims them once it is stored; staged files nobody
/// claimed are purged after a day (``AttachmentPurgeService``).
package struct AttachmentStore: Sendable {
    let database: FieldworkDatabase
    /// `<data>/attachments`.
    package let folder: URL
    package let limits: AttachmentLimits
    /// The clock that stamps uploads; tests move it.
    let now: @Sendable () -> Date

    /// - Parameters:
    ///   - database: the open database (migrated, so `attachments` exists).
    ///   - dataFolder: the configuration's data folder; files go to its `attachments/`.
    ///   - folder: where files go instead (``FieldworkConfiguration/attachmentsFolder``): a folder
    ///     every instance on the database shares.
    ///   - limits: upload limits; by default the environment's (`FIELDWORK_MAX_UPLOAD`).
    ///   - now: the clock for `created_at`.
    package init(
        database: FieldworkDatabase, dataFolder: URL, folder: URL? = nil, limits: AttachmentLimits = .fromEnvironment(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.database = database
        self.folder = folder ?? dataFolder.appendingPathComponent("attachments", isDirectory: true)
        self.limits = limits
        self.now = now
    }

    /// Makes the attachments and staging folders, owner-only, or narrows them to that: once, at
    /// start (an upload only makes the staging folder again should it have gone).
    package func makePrivate() throws {
        try PrivateFiles.folder(folder)
        try PrivateFiles.folder(stagingFolder)
    }

    /// Where files are written while they arrive: `<data>/attachments/staging`.
    package var stagingFolder: URL { folder.appendingPathComponent("staging", isDirectory: true) }

    /// Where a stored file's bytes are.
    package func location(of file: StoredAttachment) -> URL { folder.appendingPathComponent(file.id) }

    // MARK: Receiving

    /// Takes the files a request staged (``ReceivedUpload``, read by the web layer into
    /// ``stagingFolder``): moves the complete ones out of staging and writes their rows, all or
    /// nothing, within the owner's quota (``UploadError/stagingFull(limit:)``). On failure none
    /// of them is left on disk.
    package func stage(_ upload: ReceivedUpload, formID: String, owner: String) async throws {
        let kept = upload.files.filter { $0.stagingFile != nil }
        guard !kept.isEmpty else { return }
        let stamp = now()
        let quota = limits.maxStagedBytesPerOwner
        let adding = kept.reduce(0) { $0 + $1.size }
        do {
            // Before the rows' transaction, which on SQLite holds the one write lock: the files
            // take their names (a rename, since staging is in the same folder tree) and the
            // folder is synced, off the concurrency threads. Their bytes were synced in staging;
            // now their names are durable too before the rows commit. A failure below removes them.
            let folder = folder
            try await NIOThreadPool.singleton.runIfActive {
                for file in kept {
                    try FileManager.default.moveItem(at: file.stagingFile!, to: folder.appendingPathComponent(file.id))
                }
                try Self.synchronizeFolder(folder)
            }
            try await database.transaction { db in
                // Summed here rather than with SUM(): PostgreSQL gives SUM of a bigint as numeric,
                // which does not decode as Int; an owner has few staged rows (the quota bounds them).
                let waiting = try await AttachmentRecord.query(on: db)
                    .filter(\.$owner == owner).filter(\.$staged == true).field(\.$id).field(\.$size).all()
                    .reduce(0) { $0 + $1.size }
                if waiting + adding > quota { throw UploadError.stagingFull(limit: quota) }
                let records = kept.enumerated().map { position, file in
                    let record = AttachmentRecord()
                    record.id = file.id
                    record.owner = owner
                    record.formID = formID
                    record.field = file.field
                    record.objectID = nil
                    record.name = file.name
                    record.size = file.size
                    record.contentType = file.contentType
                    record.createdAt = stamp
                    record.staged = true
                    record.position = position
                    return record
                }
                try await records.create(on: db)
            }
        } catch {
            for file in kept {
                try? FileManager.default.removeItem(at: file.stagingFile!)
                try? FileManager.default.removeItem(at: folder.appendingPathComponent(file.id))
            }
            throw error
        }
    }

    /// fsync of a folder: the names made in it (a rename, a new file) survive a power loss.
    /// Blocking: call it off the concurrency threads. Throws the `errno` it met.
    static func synchronizeFolder(_ folder: URL) throws {
        let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    // MARK: Looking up

    /// The staged files among `ids` that `owner` uploaded, in the order of `ids`; any other id
    /// (someone else's, already claimed, purged, made up) is left out.
    package func stagedFiles(ids: [String], owner: String) async throws -> [StoredAttachment] {
        let wanted = Self.wellFormed(ids)
        guard !wanted.isEmpty else { return [] }
        let rows = try await AttachmentRecord.query(on: database.database())
            .filter(\.$id ~~ wanted).filter(\.$owner == owner).filter(\.$staged == true)
            .all().map(StoredAttachment.init)
        return wanted.compactMap { id in rows.first { $0.id == id } }
    }

    /// One staged file of `owner` (for a preview of what they just sent), or nil.
    package func stagedFile(id: String, owner: String) async throws -> StoredAttachment? {
        try await stagedFiles(ids: [id], owner: owner).first
    }

    /// The files of an object, in the order they were sent.
    package func files(objectID: UUID) async throws -> [StoredAttachment] {
        try await AttachmentRecord.query(on: database.database())
            .filter(\.$objectID == objectID).filter(\.$staged == false)
            .sort(\.$createdAt).sort(\.$position).sort(\.$id)
            .all().map(StoredAttachment.init)
    }

    /// The files of several objects (a page of an export) in one query, by object, each
    /// object's in the order they were sent.
    package func files(objectIDs: [UUID]) async throws -> [UUID: [StoredAttachment]] {
        guard !objectIDs.isEmpty else { return [:] }
        let rows = try await AttachmentRecord.query(on: database.database())
            .filter(\.$objectID ~~ objectIDs).filter(\.$staged == false)
            .sort(\.$createdAt).sort(\.$position).sort(\.$id)
            .all().map(StoredAttachment.init)
        var byObject: [UUID: [StoredAttachment]] = [:]
        for file in rows { if let id = file.objectID { byObject[id, default: []].append(file) } }
        return byObject
    }

    /// One file of an object, or nil (also when the id belongs to another object).
    package func file(id: String, objectID: UUID) async throws -> StoredAttachment? {
        guard !Self.wellFormed([id]).isEmpty else { return nil }
        return try await AttachmentRecord.query(on: database.database())
            .filter(\.$id == id).filter(\.$objectID == objectID).filter(\.$staged == false)
            .first().map(StoredAttachment.init)
    }

    /// A claimed file by id alone, for a route whose URL names only the file: the caller must
    /// then check that the viewer may see the object it belongs to (``StoredAttachment/objectID``).
    package func claimedFile(id: String) async throws -> StoredAttachment? {
        guard !Self.wellFormed([id]).isEmpty else { return nil }
        return try await AttachmentRecord.query(on: database.database())
            .filter(\.$id == id).filter(\.$staged == false)
            .first().map(StoredAttachment.init)
    }

    // MARK: Claiming and forgetting

    /// Makes `owner`'s staged files among `ids` the object's, and returns the files claimed;
    /// ids of other owners, of claimed or of unknown files are ignored.
    /// - Parameter transaction: the transaction that creates the object, so both commit
    ///   together; nil runs on its own.
    @discardableResult
    package func claim(
        ids: [String], owner: String, objectID: UUID, in transaction: StoreTransaction? = nil
    ) async throws
        -> [StoredAttachment]
    {
        let wanted = Self.wellFormed(ids)
        guard !wanted.isEmpty else { return [] }
        let db = transaction?.database ?? database.database()
        // One conditional UPDATE: of two requests claiming the same file, only one matches it.
        try await AttachmentRecord.query(on: db)
            .filter(\.$id ~~ wanted).filter(\.$owner == owner).filter(\.$staged == true)
            .set(\.$staged, to: false).set(\.$objectID, to: objectID)
            .update()
        let rows = try await AttachmentRecord.query(on: db)
            .filter(\.$id ~~ wanted).filter(\.$objectID == objectID).filter(\.$staged == false)
            .all().map(StoredAttachment.init)
        return wanted.compactMap { id in rows.first { $0.id == id } }
    }

    /// Deletes some files of an object (those an edit dropped); returns how many went.
    @discardableResult
    package func delete(ids: [String], objectID: UUID) async throws -> Int {
        let wanted = Self.wellFormed(ids)
        guard !wanted.isEmpty else { return 0 }
        return try await delete(
            AttachmentRecord.query(on: database.database()).filter(\.$id ~~ wanted).filter(\.$objectID == objectID))
    }

    /// Deletes every file of an object (the object is being deleted); returns how many went.
    @discardableResult
    package func delete(objectID: UUID) async throws -> Int {
        try await delete(AttachmentRecord.query(on: database.database()).filter(\.$objectID == objectID))
    }

    /// Deletes staged files of an owner by id, rows first, then bytes; claimed files are untouched.
    package func discardStaged(ids: [String], owner: String) async throws {
        let wanted = Self.wellFormed(ids)
        guard !wanted.isEmpty else { return }
        _ = try await delete(
            AttachmentRecord.query(on: database.database())
                .filter(\.$id ~~ wanted).filter(\.$owner == owner).filter(\.$staged == true))
    }

    /// Deletes the staged files created before `date` (uploads nobody claimed), with their
    /// bytes, and whatever a crash left in the staging folder; returns how many rows went.
    @discardableResult
    package func purgeStaged(olderThan date: Date) async throws -> Int {
        let removed = try await delete(
            AttachmentRecord.query(on: database.database()).filter(\.$staged == true).filter(\.$createdAt < date))
        // Complete files are moved out of staging at once; anything still there is from a
        // request that died between writing and recording.
        let leftovers =
            (try? FileManager.default.contentsOfDirectory(
                at: stagingFolder, includingPropertiesForKeys: [.contentModificationDateKey])) ?? []
        for file in leftovers {
            let modified = try? file.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate
            if let modified, modified < date { try? FileManager.default.removeItem(at: file) }
        }
        return removed
    }

    /// Deletes the rows a query selects, then their files (a file without a row is unreachable,
    /// a row without its file would be a broken link, so rows go first).
    private func delete(_ query: QueryBuilder<AttachmentRecord>) async throws -> Int {
        let ids = try await query.copy().all(\.$id)
        guard !ids.isEmpty else { return 0 }
        try await AttachmentRecord.query(on: database.database()).filter(\.$id ~~ ids).delete()
        for id in ids { try? FileManager.default.removeItem(at: folder.appendingPathComponent(id)) }
        return ids.count
    }

    /// The ids shaped like the ones the store makes (lowercase UUIDs), without repeats: the
    /// others cannot exist, and a bounded IN list keeps a crafted request cheap.
    static func wellFormed(_ ids: [String]) -> [String] {
        var seen = Set<String>()
        return ids.prefix(1_000).filter { id in
            guard let uuid = UUID(uuidString: id), uuid.uuidString.lowercased() == id else { return false }
            return seen.insert(id).inserted
        }
    }
}
