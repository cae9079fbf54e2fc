import Crypto
import Foundation
import Testing

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

    @Test("the secret key file is created once with mode 0600 and read back")
    func secretFile() throws {
        let folder = Fixtures.temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("secret.key")
        let first = try ServerSecret.loadOrCreate(at: file)
        let second = try ServerSecret.loadOrCreate(at: file)
        #expect(first.key == second.key)
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect((attributes[.size] as? NSNumber)?.intValue == 32)
    }
}
