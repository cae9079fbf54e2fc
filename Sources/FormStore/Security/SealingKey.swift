import Crypto
import Foundation

/// The key that seals the secrets of service connections at rest (ChaCha20-Poly1305). It is never
/// in the database, so a copy of the database alone reveals no credential: it comes from
/// `FIELDWORK_SEALING_KEY` (32 bytes in base64; instances that share a database share it), or from
/// `<data>/sealing.key`, made with mode 600 on first start.
package struct SealingKey: Sendable {
    private let key: SymmetricKey

    package init(key: SymmetricKey) {
        self.key = key
    }

    /// The environment's key, else the data folder's key file, made when missing.
    package static func load(environment: String?, dataFolder: URL) throws -> SealingKey {
        if let environment, !environment.isEmpty {
            guard let bytes = KeyFile.decode(environment) else { throw SealingKeyError.badEnvironment }
            return SealingKey(key: SymmetricKey(data: bytes))
        }
        let file = dataFolder.appendingPathComponent("sealing.key")
        let (key, _) = try KeyFile.readOrCreate(
            file, fresh: { SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) } },
            malformed: SealingKeyError.badFile(file.path))
        return SealingKey(key: SymmetricKey(data: key))
    }

    /// The secret sealed, as base64; `context` (the connection's id) is bound in, so a sealed
    /// secret copied to another connection does not open.
    package func seal(_ secret: String, context: String) throws -> String {
        try ChaChaPoly.seal(Data(secret.utf8), using: key, authenticating: Data(context.utf8)).combined
            .base64EncodedString()
    }

    /// A keyed digest of `text` (HMAC-SHA256 under a key derived from this one for `context`), in
    /// base64: what a database keeps of a value it must recognise but never reveal, such as a
    /// recovery code, which has too few bits to survive a plain hash.
    package func digest(_ text: String, context: String) -> String {
        let derived = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: key, info: Data(("fieldwork digest " + context).utf8), outputByteCount: 32)
        return Data(HMAC<SHA256>.authenticationCode(for: Data(text.utf8), using: derived)).base64EncodedString()
    }

    /// The secret a ``seal(_:context:)`` made; throws when the key or context differ.
    package func open(_ sealed: String, context: String) throws -> String {
        guard let data = Data(base64Encoded: sealed) else { throw SealingKeyError.cannotOpen }
        do {
            let box = try ChaChaPoly.SealedBox(combined: data)
            return String(
                decoding: try ChaChaPoly.open(box, using: key, authenticating: Data(context.utf8)), as: UTF8.self)
        } catch {
            throw SealingKeyError.cannotOpen
        }
    }
}

/// Why the sealing key cannot be used.
package enum SealingKeyError: Error, CustomStringConvertible {
    case badEnvironment
    case badFile(String)
    case cannotOpen

    package var description: String {
        switch self {
        case .badEnvironment:
            "FIELDWORK_SEALING_KEY must be 32 bytes in base64 (make one with: openssl rand -base64 32)."
        case .badFile(let path):
            "\(path) must hold 32 bytes in base64. Restore it from a backup, or remove it and enter the connections' secrets again."
        case .cannotOpen:
            "A connection's secret cannot be opened with this sealing key: the key differs from the one that sealed it. Set the same FIELDWORK_SEALING_KEY on every instance, or enter the secret again."
        }
    }
}
