import FluentKit
import Foundation
import SQLKit
import TestSupport
import Testing

@testable import FormStore

@Suite("Private files")
struct PrivateFilesTests {
    /// A folder 0755 holding a database 0644, as earlier versions left them.
    static func earlierVersionFolder() throws -> URL {
        let data = Fixtures.temporaryDataFolder()
        try FileManager.default.createDirectory(
            at: data, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        #expect(
            FileManager.default.createFile(
                atPath: data.appendingPathComponent("fieldwork.sqlite").path, contents: nil,
                attributes: [.posixPermissions: 0o644]))
        return data
    }

    @Test("the data folder is the owner's alone: folder 0700, SQLite's file, log and shared memory 0600")
    func fresh() async throws {
        let parent = Fixtures.temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        let data = parent.appendingPathComponent("data")
        let database = try await FieldworkDatabase.open(
            Fixtures.storeLocation(data: data), logger: Fixtures.logger)
        // A write makes the log and the shared memory file if the open did not.
        try await (database.database() as! any SQLDatabase).raw("CREATE TABLE probe (x INTEGER)").run()
        await database.shutdown()
        #expect(try Fixtures.permissions(of: data) == 0o700)
        for name in ["fieldwork.sqlite", "fieldwork.sqlite-wal", "fieldwork.sqlite-shm"] {
            let file = data.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: file.path) else { continue }
            #expect(try Fixtures.permissions(of: file) == 0o600, "\(name)")
        }
    }

    @Test("what an earlier version made readable to others is narrowed at start")
    func narrowed() async throws {
        let data = try Self.earlierVersionFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        #expect(try Fixtures.permissions(of: data.appendingPathComponent("fieldwork.sqlite")) == 0o644)
        let database = try await FieldworkDatabase.open(
            Fixtures.storeLocation(data: data), logger: Fixtures.logger)
        await database.shutdown()
        #expect(try Fixtures.permissions(of: data) == 0o700)
        #expect(try Fixtures.permissions(of: data.appendingPathComponent("fieldwork.sqlite")) == 0o600)
        // The attachments of an earlier version too, at start.
        let attachmentsFolder = data.appendingPathComponent("attachments")
        try FileManager.default.createDirectory(
            at: attachmentsFolder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let reopened = try await FieldworkDatabase.open(
            Fixtures.storeLocation(data: data), logger: Fixtures.logger)
        try AttachmentStore(database: reopened, dataFolder: data).makePrivate()
        await reopened.shutdown()
        #expect(try Fixtures.permissions(of: attachmentsFolder) == 0o700)
        #expect(try Fixtures.permissions(of: attachmentsFolder.appendingPathComponent("staging")) == 0o700)
        let sealing = data.appendingPathComponent("sealing.key")
        _ = try SealingKey.load(environment: nil, dataFolder: data)
        #expect(try Fixtures.permissions(of: sealing) == 0o600)
    }
}
