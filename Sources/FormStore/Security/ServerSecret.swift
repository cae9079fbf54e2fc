import Crypto
import FluentKit
import Foundation

/// The server's 32 random bytes behind CSRF tokens and sealed prefill values, kept in the
/// database (`server_secrets`), so every instance on one database signs alike and a page from
/// one is accepted by another.
package struct ServerSecret: Sendable {
    package let key: SymmetricKey

    package init(key: SymmetricKey) {
        self.key = key
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
