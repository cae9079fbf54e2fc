import Crypto
import FluentKit
import Foundation

/// The server's 32 random bytes behind CSRF tokens, sealed prefill values, kept drafts and list
/// cursors: kept beside the sealing key, never in the database (``load(environment:dataFolder:legacyFile:database:)``);
/// every instance on one database signs alike, so a page from one is accepted by another.
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
        return finish(inner)
    }

    /// HMAC-SHA256 of a text's UTF-8 bytes, read in place (a CSRF token's browser id: no `Data`
    /// made, and SHA-256 fed the bytes at once rather than through `DataProtocol`'s regions).
    package func authenticationCode(utf8 text: String) -> SHA256Digest {
        var inner = inner
        var text = text
        text.withUTF8 { inner.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        return finish(inner)
    }

    private func finish(_ inner: SHA256) -> SHA256Digest {
        var outer = outer
        inner.finalize().withUnsafeBytes { outer.update(bufferPointer: $0) }
        return outer.finalize()
    }

    /// The server's signing key (ASVS 4.0 2.10.4, 6.4.1: a secret the application uses is kept
    /// out of the database, where a copy of the database would carry it, and readable by the
    /// server's account only): `FIELDWORK_SIGNING_KEY` (32 bytes in base64; instances that share
    /// a database share it, as they share the sealing key), else `<data>/signing.key`, beside
    /// `sealing.key`, made with mode 600. On the first start of this version it is what earlier
    /// versions kept, so their pages stay valid: the database's `server_secrets` row, or an
    /// older `<data>/secret.key`; the row is then deleted. The database keeps only a check of the
    /// key (an HMAC of a constant, which tells nothing of the key): an instance whose key is not
    /// the one the others use refuses to start, rather than refuse every page they made.
    package static func load(
        environment: String?, dataFolder: URL, legacyFile: URL, database: FieldworkDatabase
    ) async throws -> ServerSecret {
        let db = database.database()
        let file = dataFolder.appendingPathComponent("signing.key")
        let key: Data
        if let environment, !environment.isEmpty {
            guard let bytes = KeyFile.decode(environment) else { throw ServerSecretError.badEnvironment }
            key = bytes
        } else if let kept = try KeyFile.read(file, malformed: ServerSecretError.badFile(file.path)) {
            key = kept
        } else {
            let earlier = try await ServerSecretRecord.find(name, on: db).map(decode)
            let fromFile = FileManager.default.contents(atPath: legacyFile.path).flatMap { $0.count == 32 ? $0 : nil }
            let taken = earlier ?? fromFile ?? SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
            let created: Bool
            (key, created) = try KeyFile.readOrCreate(
                file, fresh: { taken }, malformed: ServerSecretError.badFile(file.path))
            if created, fromFile != nil, earlier == nil { try? FileManager.default.removeItem(at: legacyFile) }
        }
        let secret = ServerSecret(key: SymmetricKey(data: key))
        try await ServerSecretRecord.query(on: db).filter(\.$id == name).delete()
        let check = secret.check
        if let stored = try await ServerSecretRecord.find(checkName, on: db) {
            guard stored.key == check else { throw ServerSecretError.differsFromOthers }
        } else {
            do {
                try await ServerSecretRecord(name: checkName, text: check).create(on: db)
            } catch {
                // Another instance stored its check first: this one's key must be the same.
                guard let stored = try await ServerSecretRecord.find(checkName, on: db) else { throw error }
                guard stored.key == check else { throw ServerSecretError.differsFromOthers }
            }
        }
        return secret
    }

    /// What the database keeps of the key: the base64 HMAC of a constant, which tells whether two
    /// instances hold one key and nothing of the key.
    var check: String {
        Data(authenticationCode(for: Data("fieldwork signing key check".utf8))).base64EncodedString()
    }

    private static let name = "csrf"
    private static let checkName = "signing-check"

    private static func decode(_ record: ServerSecretRecord) throws -> Data {
        guard let data = Data(base64Encoded: record.key), data.count == 32 else {
            throw ServerSecretError.wrongLength(
                path: "server_secrets", bytes: Data(base64Encoded: record.key)?.count ?? 0)
        }
        return data
    }
}

/// Why the signing key could not be used.
package enum ServerSecretError: Error, CustomStringConvertible {
    case wrongLength(path: String, bytes: Int)
    case badEnvironment
    case badFile(String)
    case differsFromOthers

    package var description: String {
        switch self {
        case .wrongLength(let path, let bytes):
            "\(path) holds a secret of \(bytes) bytes; it must be exactly 32. Delete its row to make a new one."
        case .badEnvironment:
            "FIELDWORK_SIGNING_KEY must be 32 bytes in base64 (make one with: openssl rand -base64 32)."
        case .badFile(let path):
            "\(path) must hold 32 bytes in base64. Restore it from a backup, or remove it to make a new one "
                + "(pages open in browsers then need reloading)."
        case .differsFromOthers:
            "This instance's signing key is not the one the other instances on this database use: set the same "
                + "FIELDWORK_SIGNING_KEY on every instance (or give them one data folder). If this is the only "
                + "instance and its signing.key was lost, delete the row 'signing-check' of server_secrets to take "
                + "the new key."
        }
    }
}
