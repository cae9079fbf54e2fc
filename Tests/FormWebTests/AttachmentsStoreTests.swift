import FluentKit
import FormModel
import Foundation
import Logging
import TestSupport
import Testing

@testable import FormPages
@testable import FormStore
@testable import FormWeb

@Suite("Attachments: store")
struct AttachmentsStoreTests {
    typealias F = AttachmentFixtures

    /// Sends two files for `owner` and returns them.
    func upload(_ store: AttachmentStore, owner: String) async throws -> [SubmittedFile] {
        let submission = try await store.receive(
            ChunkedBody(
                F.body([
                    .file("files", filename: "a.png", bytes: F.png), .file("files", filename: "b.pdf", bytes: F.pdf),
                ]),
                chunkSize: 64),
            contentType: F.contentType, contentLength: nil, schema: F.schema, owner: owner)
        return try #require(submission.files["files"])
    }

    @Test("an owner may have only so many bytes staged; over it the request is refused with 413 and leaves nothing")
    func stagingQuota() async throws {
        var limits = AttachmentLimits()
        limits.maxStagedBytesPerOwner = 200
        try await F.withStore(limits: limits) { store, database in
            let first = try await upload(store, owner: "browser-a")
            let second = try await upload(store, owner: "browser-a")
            #expect(first.count == 2 && second.count == 2)
            await #expect(throws: UploadError.stagingFull(limit: 200)) {
                _ = try await upload(store, owner: "browser-a")
            }
            #expect(try await AttachmentRecord.query(on: database.database()).count() == 4)
            #expect(F.files(in: store.folder).count == 4)
            // Others have their own allowance; claimed files no longer count.
            _ = try await upload(store, owner: "browser-b")
            _ = try await store.claim(ids: first.map(\.id), owner: "browser-a", objectID: UUID())
            #expect(try await upload(store, owner: "browser-a").count == 2)
        }
    }

    @Test("staged files belong to their uploader: nobody else can look them up or claim them")
    func ownership() async throws {
        try await F.withStore { store, _ in
            let files = try await upload(store, owner: "browser-a")
            let ids = files.map(\.id)
            #expect(try await store.stagedFiles(ids: ids, owner: "browser-b").isEmpty)
            #expect(try await store.stagedFile(id: ids[0], owner: "browser-b") == nil)
            let object = UUID()
            #expect(try await store.claim(ids: ids, owner: "browser-b", objectID: object).isEmpty)
            #expect(try await store.files(objectID: object).isEmpty)
            // Still the uploader's, and made-up or malformed ids are simply not there.
            #expect(
                try await store.stagedFiles(
                    ids: ids + ["../secret.key", UUID().uuidString.lowercased()], owner: "browser-a"
                ).map(\.id) == ids)
            #expect(try await store.stagedFile(id: ids[1], owner: "browser-a")?.name == "b.pdf")
            #expect(try await store.claimedFile(id: ids[1]) == nil)
        }
    }

    @Test("claiming moves staged files to the object, once, inside the caller's transaction")
    func claim() async throws {
        try await F.withStore { store, database in
            let files = try await upload(store, owner: "browser-a")
            let object = UUID()
            let claimed = try await database.database().transaction { db in
                try await store.claim(
                    ids: files.map(\.id).reversed(), owner: "browser-a", objectID: object,
                    in: StoreTransaction(database: db))
            }
            #expect(claimed.map(\.id) == files.map(\.id).reversed())
            #expect(claimed.allSatisfy { !$0.staged && $0.objectID == object })
            // Listed in the order they were sent; no longer staged; a second claim gets nothing.
            #expect(try await store.files(objectID: object).map(\.submitted) == files)
            #expect(try await store.stagedFiles(ids: files.map(\.id), owner: "browser-a").isEmpty)
            #expect(try await store.claim(ids: files.map(\.id), owner: "browser-a", objectID: UUID()).isEmpty)
            #expect(try await store.file(id: files[0].id, objectID: object)?.name == "a.png")
            #expect(try await store.file(id: files[0].id, objectID: UUID()) == nil)
            #expect(try await store.claimedFile(id: files[1].id)?.objectID == object)
        }
    }

    @Test("a claim in a transaction that rolls back leaves the files staged")
    func claimRolledBack() async throws {
        struct Refused: Error {}
        try await F.withStore { store, database in
            let files = try await upload(store, owner: "browser-a")
            await #expect(throws: Refused.self) {
                try await database.database().transaction { db in
                    try await store.claim(
                        ids: files.map(\.id), owner: "browser-a", objectID: UUID(), in: StoreTransaction(database: db))
                    throw Refused()
                }
            }
            #expect(try await store.stagedFiles(ids: files.map(\.id), owner: "browser-a").count == 2)
        }
    }

    @Test("deleting an object's files removes rows and bytes; some or all")
    func delete() async throws {
        try await F.withStore { store, _ in
            let files = try await upload(store, owner: "a")
            let object = UUID()
            try await store.claim(ids: files.map(\.id), owner: "a", objectID: object)
            #expect(try await store.delete(ids: [files[0].id], objectID: UUID()) == 0)
            #expect(try await store.delete(ids: [files[0].id], objectID: object) == 1)
            #expect(F.files(in: store.folder) == [files[1].id])
            #expect(try await store.delete(objectID: object) == 1)
            #expect(try await store.files(objectID: object).isEmpty)
            #expect(F.files(in: store.folder).isEmpty)
        }
    }

    @Test("the purge removes staged uploads older than a day, keeps newer and claimed ones")
    func purge() async throws {
        let clock = TestClock()
        try await F.withStore(clock: clock) { store, _ in
            let old = try await upload(store, owner: "a")
            let kept = try await upload(store, owner: "a")
            let object = UUID()
            try await store.claim(ids: kept.map(\.id), owner: "a", objectID: object)
            clock.advance(by: 20 * 3600)
            let recent = try await upload(store, owner: "a")
            // A file a crashed request left in staging, last touched long ago.
            let leftover = store.stagingFolder.appendingPathComponent(UUID().uuidString.lowercased())
            try Data([1, 2, 3]).write(to: leftover)
            try FileManager.default.setAttributes(
                [.modificationDate: clock.now.addingTimeInterval(-2 * 86400)], ofItemAtPath: leftover.path)

            clock.advance(by: 5 * 3600)  // 25 hours after the first upload
            let service = AttachmentPurgeService(store: store, logger: Fixtures.logger)
            await service.purgeOnce()

            #expect(try await store.stagedFiles(ids: old.map(\.id), owner: "a").isEmpty)
            #expect(try await store.stagedFiles(ids: recent.map(\.id), owner: "a").map(\.id) == recent.map(\.id))
            #expect(try await store.files(objectID: object).map(\.id) == kept.map(\.id))
            #expect(F.files(in: store.folder) == (kept + recent).map(\.id).sorted())
            #expect(F.files(in: store.stagingFolder).isEmpty)
        }
    }

    @Test("the purge service stops on graceful shutdown")
    func serviceStops() async throws {
        try await F.withStore { store, _ in
            let service = AttachmentPurgeService(store: store, interval: .seconds(3600), logger: Fixtures.logger)
            let task = Task { try await service.run() }
            try await Task.sleep(for: .milliseconds(50))
            task.cancel()
            // Would hang for an hour if the sleep were not cancelled.
            try await task.value
        }
    }

    @Test("a folder is synced after files move into it; a folder that is not there is an error, not a silent pass")
    func synchronizeFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try AttachmentStore.synchronizeFolder(folder)
        #expect(throws: POSIXError(.ENOENT)) {
            try AttachmentStore.synchronizeFolder(folder.appendingPathComponent("missing"))
        }
    }
}
