import Crypto
import Foundation
import TestSupport
import Testing

@testable import FormPages
@testable import FormStore
@testable import FormWeb

@Suite("CSRF tokens")
struct CSRFTests {
    let csrf = CSRF(secret: ServerSecret(key: SymmetricKey(data: Data(repeating: 7, count: 32))))

    @Test("a token derived from the cookie's id verifies")
    func tokenVerifies() {
        let id = csrf.makeID()
        #expect(csrf.verify(token: csrf.token(for: id), cookie: id))
    }

    @Test("a token for another browser, a changed token or a missing one is refused")
    func wrongTokensFail() {
        let id = csrf.makeID()
        let other = csrf.makeID()
        let token = csrf.token(for: id)
        #expect(!csrf.verify(token: csrf.token(for: other), cookie: id))
        #expect(!csrf.verify(token: String(token.dropLast()) + (token.last == "A" ? "B" : "A"), cookie: id))
        #expect(!csrf.verify(token: nil, cookie: id))
        #expect(!csrf.verify(token: token, cookie: nil))
        #expect(!csrf.verify(token: "", cookie: ""))
    }

    @Test("the token is HMAC-SHA256 of the id under the server secret, base64url")
    func tokenIsHMAC() {
        let key = SymmetricKey(data: Data(repeating: 7, count: 32))
        let mac = Data(HMAC<SHA256>.authenticationCode(for: Data("browser".utf8), using: key))
        let expected = mac.base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        #expect(csrf.token(for: "browser") == expected)
        let otherServer = CSRF(secret: ServerSecret(key: SymmetricKey(data: Data(repeating: 8, count: 32))))
        #expect(otherServer.token(for: "browser") != expected)
    }

    @Test("browser ids are 43 url-safe characters and differ each time")
    func idsAreRandom() {
        let a = csrf.makeID()
        let b = csrf.makeID()
        #expect(a != b)
        #expect(CSRF.isWellFormedID(a))
        #expect(!CSRF.isWellFormedID("short"))
    }

    @Test(
        "the signing key lives beside the sealing key, 0600, never in the database; a first start takes an earlier one")
    func signingKey() async throws {
        let data = Fixtures.temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        let legacy = Data((0..<32).map { UInt8($0) })
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try legacy.write(to: data.appendingPathComponent("secret.key"))
        let configuration = Fixtures.configuration(data: data)
        let first = try await FieldworkDatabase.open(configuration.store, logger: Fixtures.logger)
        let second = try await FieldworkDatabase.open(configuration.store, logger: Fixtures.logger)
        let one = try await ServerSecret.load(
            environment: nil, dataFolder: data, legacyFile: configuration.secretFile, database: first)
        let two = try await ServerSecret.load(
            environment: nil, dataFolder: data, legacyFile: configuration.secretFile, database: second)
        #expect(one.key.withUnsafeBytes { Data($0) } == legacy)
        #expect(two.key.withUnsafeBytes { Data($0) } == legacy)
        let file = data.appendingPathComponent("signing.key")
        #expect(try Fixtures.permissions(of: file) == 0o600)
        #expect(!FileManager.default.fileExists(atPath: configuration.secretFile.path), "taken over")
        // A token made with one instance's secret verifies on the other.
        let id = CSRF(secret: one).makeID()
        #expect(CSRF(secret: two).verify(token: CSRF(secret: one).token(for: id), cookie: id))
        // The database holds a check of the key, not the key.
        let rows = try await ServerSecretRecord.query(on: first.database()).all()
        #expect(rows.map(\.id) == ["signing-check"])
        #expect(!rows.contains { Data(base64Encoded: $0.key) == legacy })
        // An instance with another key is refused at start, saying what to do.
        let other = Data(repeating: 9, count: 32).base64EncodedString()
        await #expect(throws: ServerSecretError.self) {
            _ = try await ServerSecret.load(
                environment: other, dataFolder: data, legacyFile: configuration.secretFile, database: second)
        }
        await first.shutdown()
        await second.shutdown()
    }

    @Test("an earlier version's key in the database is taken to signing.key and its row deleted")
    func takenFromDatabase() async throws {
        try await TestDatabases.run { data, databases in
            let earlier = Data(repeating: 42, count: 32)
            try await ServerSecretRecord(name: "csrf", text: earlier.base64EncodedString()).create(
                on: databases[0].database())
            let secret = try await ServerSecret.load(
                environment: nil, dataFolder: data, legacyFile: data.appendingPathComponent("secret.key"),
                database: databases[0])
            #expect(secret.key.withUnsafeBytes { Data($0) } == earlier)
            let text = try #require(
                FileManager.default.contents(atPath: data.appendingPathComponent("signing.key").path))
            #expect(Data(base64Encoded: String(decoding: text, as: UTF8.self)) == earlier)
            #expect(try await ServerSecretRecord.find("csrf", on: databases[0].database()) == nil)
        }
    }
}
