import Crypto
import Foundation
import Testing

@testable import FormStore

@Suite("The server secret's MAC")
struct ServerSecretTests {
    @Test("the MAC is HMAC-SHA256 as swift-crypto computes it, for keys shorter and longer than a block")
    func matchesHMAC() {
        let texts = ["", "browser", String(repeating: "Z", count: 63), String(repeating: "é", count: 500)]
        let messages = texts.map { Data($0.utf8) }
        for keySize in [1, 32, 63, 64, 65, 100] {
            let key = SymmetricKey(data: Data((0..<keySize).map { UInt8(($0 * 37 + 11) % 256) }))
            let secret = ServerSecret(key: key)
            for message in messages {
                let expected = Data(HMAC<SHA256>.authenticationCode(for: message, using: key))
                #expect(
                    Data(secret.authenticationCode(for: message)) == expected, "key \(keySize), \(message.count) bytes")
            }
            for text in texts {
                let expected = Data(HMAC<SHA256>.authenticationCode(for: Data(text.utf8), using: key))
                #expect(
                    Data(secret.authenticationCode(utf8: text)) == expected, "key \(keySize), text of \(text.count)")
            }
        }
    }

    @Test("the same message twice gives the same MAC; another secret another one")
    func repeatable() {
        let secret = ServerSecret(key: SymmetricKey(data: Data(repeating: 7, count: 32)))
        let other = ServerSecret(key: SymmetricKey(data: Data(repeating: 8, count: 32)))
        let message = Data("fieldwork".utf8)
        #expect(secret.authenticationCode(for: message) == secret.authenticationCode(for: message))
        #expect(secret.authenticationCode(for: message) != other.authenticationCode(for: message))
    }
}
