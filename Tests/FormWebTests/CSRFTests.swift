import Crypto
import Foundation
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

    @Test("the secret is one for every instance on a database; a first start takes an earlier secret.key")
    func sharedSecret() async throws {
        let data = Fixtures.temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        let legacy = Data((0..<32).map { UInt8($0) })
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try legacy.write(to: data.appendingPathComponent("secret.key"))
        let configuration = Fixtures.configuration(data: data)
        let first = try await FieldworkDatabase.open(configuration.store, logger: Fixtures.logger)
        let second = try await FieldworkDatabase.open(configuration.store, logger: Fixtures.logger)
        async let a = ServerSecret.shared(in: first, legacyFile: configuration.secretFile)
        async let b = ServerSecret.shared(in: second, legacyFile: data.appendingPathComponent("missing.key"))
        let (one, two) = try await (a, b)
        #expect(one.key == two.key)
        #expect(one.key.withUnsafeBytes { Data($0) } == legacy || two.key.withUnsafeBytes { Data($0) } != legacy)
        // A token made with one instance's secret verifies on the other.
        let id = CSRF(secret: one).makeID()
        #expect(CSRF(secret: two).verify(token: CSRF(secret: one).token(for: id), cookie: id))
        await first.shutdown()
        await second.shutdown()
    }
}
