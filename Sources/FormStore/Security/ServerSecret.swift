import Crypto
import FluentKit
import Foundation

/// The server's 32 random bytes behind CSRF tokens and sealed prefill values, kept in the
/// database (`server_secrets`), so every instance on one database signs alike and a page from
/// one is accepted by another.
package struct ServerSecret: Sendable {
    package let key: SymmetricKey
    /// SHA-256 after the key's inner and outer pads (RFC 2104): HMAC-SHA256 hashes these same
    /// first blocks for every message, so they are hashed once, and a MAC copies the two states
    /// and hashes only the message and the inner digest. Every page derives a CSRF token; working
    /// out the keyed state each time took most of each MAC's instructions.
    private let inner: SHA256
    private let outer: SHA256

    package init(key: SymmetricKey) {
        self.key = key
        // A key longer than SHA-256's 64-byte block is hashed first; any key is then zero-padded
        // to a block (the server's is 32 bytes).
        var block = key.withUnsafeBytes { bytes in
            bytes.count > 64 ? Array(SHA256.hash(data: bytes)) : Array(bytes)
        }
        block += [UInt8](repeating: 0, count: 64 - block.count)
        var inner = SHA256()
        inner.update(data: block.map { $0 ^ 0x36 })
        var outer = SHA256()
        outer.update(data: block.map { $0 ^ 0x5C })
        self.inner = inner
        self.outer = outer
    }

    /// HMAC-SHA256 of `message` under the secret: the 32 bytes of the MAC.
    package func authenticationCode(for message: some DataProtocol) -> SHA256Digest {
        var inner = inner
        inner.update(data: message)
        var outer = outer
        inner.finalize().withUnsafeBytes { outer.update(bufferPointer: $0) }
        return outer.finalize()
    }

    /// The database's secret; on first start, the one of `<data>/secret.key` (where earlier
    /// versions kept it, so their pages stay valid) or fresh random bytes. When two instances
    /// start at once, the first to store its secret wins and the other reads it.
    package static func shared(in database: FieldworkDatabase, legacyFile: URL) async throws -> ServerSecret {
        let db = database.database()
        if let stored = try await ServerSecretRecord.find(name, on: db) { return try decode(stored) }
        let fromFile = FileManager.default.contents(atPath: legacyFile.path).flatMap { $0.count == 32 ? $0 : nil }
        let fresh = fromFile ?? SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        do {
            try await ServerSecretRecord(name: name, key: fresh).create(on: db)
        } catch {
            // Another instance stored one first: that one is the secret.
            guard let stored = try await ServerSecretRecord.find(name, on: db) else { throw error }
            return try decode(stored)
        }
        return ServerSecret(key: SymmetricKey(data: fresh))
    }

    private static let name = "csrf"

    private static func decode(_ record: ServerSecretRecord) throws -> ServerSecret {
        guard let data = Data(base64Encoded: record.key), data.count == 32 else {
            throw ServerSecretError.wrongLength(
                path: "server_secrets", bytes: Data(base64Encoded: record.key)?.count ?? 0)
        }
        return ServerSecret(key: SymmetricKey(data: data))
    }
}

/// Why the stored secret could not be used.
package enum ServerSecretError: Error, CustomStringConvertible {
    case wrongLength(path: String, bytes: Int)

    package var description: String {
        switch self {
        case .wrongLength(let path, let bytes):
            "\(path) holds a secret of \(bytes) bytes; it must be exactly 32. Delete its row to make a new one."
        }
    }
}
