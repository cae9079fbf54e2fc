import Crypto
import Foundation
import Testing

@testable import FormStore

@Suite("The sealing key of connection secrets")
struct SealingKeyTests {
    private func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("sealing-\(UUID().uuidString)")
    }

    @Test("a sealed secret opens with the same key and context, and holds no trace of the secret")
    func roundTrip() throws {
        let key = SealingKey(key: SymmetricKey(size: .bits256))
        let sealed = try key.seal("hunter2-password", context: "connection-1")
        #expect(!sealed.contains("hunter2"))
        #expect(!(Data(base64Encoded: sealed).map { String(decoding: $0, as: UTF8.self).contains("hunter2") } ?? true))
        #expect(try key.open(sealed, context: "connection-1") == "hunter2-password")
        // Sealing twice gives two texts (a fresh nonce each time).
        #expect(try key.seal("hunter2-password", context: "connection-1") != sealed)
    }

    @Test("another key or another connection's context does not open it")
    func wrongKeyOrContext() throws {
        let sealed = try SealingKey(key: SymmetricKey(size: .bits256)).seal("token", context: "a")
        #expect(throws: SealingKeyError.self) {
            try SealingKey(key: SymmetricKey(size: .bits256)).open(sealed, context: "a")
        }
        let key = SealingKey(key: SymmetricKey(size: .bits256))
        let other = try key.seal("token", context: "a")
        #expect(throws: SealingKeyError.self) { try key.open(other, context: "b") }
        #expect(throws: SealingKeyError.self) { try key.open("not base64 at all!", context: "a") }
    }

    @Test("the first start makes a key file with mode 600, and later starts read the same key")
    func keyFile() throws {
        let data = folder()
        defer { try? FileManager.default.removeItem(at: data) }
        let first = try SealingKey.load(environment: nil, dataFolder: data)
        let path = data.appendingPathComponent("sealing.key").path
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        let sealed = try first.seal("s3cret", context: "c")
        #expect(try SealingKey.load(environment: nil, dataFolder: data).open(sealed, context: "c") == "s3cret")
    }

    @Test("FIELDWORK_SEALING_KEY wins over the file; one that is not 32 bytes of base64 is refused with what to do")
    func environmentKey() throws {
        let data = folder()
        defer { try? FileManager.default.removeItem(at: data) }
        let text = Data(repeating: 9, count: 32).base64EncodedString()
        let a = try SealingKey.load(environment: text, dataFolder: data)
        let b = try SealingKey.load(environment: text, dataFolder: folder())
        #expect(try b.open(try a.seal("x", context: "c"), context: "c") == "x")
        #expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent("sealing.key").path))
        #expect(throws: SealingKeyError.self) { try SealingKey.load(environment: "short", dataFolder: data) }
        #expect(
            SealingKeyError.badEnvironment.description
                == "FIELDWORK_SEALING_KEY must be 32 bytes in base64 (make one with: openssl rand -base64 32).")
    }
}
