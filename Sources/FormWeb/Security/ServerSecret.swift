import Crypto
import Foundation

/// The server's 32 random bytes behind CSRF tokens, kept in `<data>/secret.key` across restarts.
public struct ServerSecret: Sendable {
    public let key: SymmetricKey

    public init(key: SymmetricKey) {
        self.key = key
    }

    /// Reads the key file, or creates it (mode 0600) with fresh random bytes on first start.
    public static func loadOrCreate(at file: URL) throws -> ServerSecret {
        let manager = FileManager.default
        if let data = manager.contents(atPath: file.path) {
            guard data.count == 32 else { throw ServerSecretError.wrongLength(path: file.path, bytes: data.count) }
            return ServerSecret(key: SymmetricKey(data: data))
        }
        try manager.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let key = SymmetricKey(size: .bits256)
        let data = key.withUnsafeBytes { Data($0) }
        // Created with 0600 from the start, so the key is never readable by others, even briefly.
        guard manager.createFile(atPath: file.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw ServerSecretError.cannotWrite(path: file.path)
        }
        return ServerSecret(key: key)
    }
}

/// Why the secret key file could not be used.
public enum ServerSecretError: Error, CustomStringConvertible {
    case wrongLength(path: String, bytes: Int)
    case cannotWrite(path: String)

    public var description: String {
        switch self {
        case .wrongLength(let path, let bytes):
            "\(path) holds \(bytes) bytes; it must hold exactly 32. Delete it to make a new one."
        case .cannotWrite(let path): "Cannot create \(path); check the data folder's permissions."
        }
    }
}
