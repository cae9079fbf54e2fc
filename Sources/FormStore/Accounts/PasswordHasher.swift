import Crypto
import Foundation
import HummingbirdBcrypt
import NIOPosix

/// bcrypt on the shared thread pool: a cost-12 hash takes a few hundred milliseconds, which
/// must not block an event loop.
///
/// bcrypt reads at most 72 bytes, and 128 characters of any script take up to 512: so the
/// password, in Unicode's composed form (NFC: `é` typed either way is one password), is first
/// hashed with SHA-256 and bcrypt hashes that digest in base64 (44 bytes, no NUL), as
/// Dropbox and Django's BCryptSHA256 do. Such hashes are stored as `sha256$` and bcrypt's
/// string; a hash of an earlier version (bcrypt of the password itself) still verifies, and
/// ``needsRehash(_:)`` says to replace it at the next sign-in.
package struct PasswordHasher: Sendable {
    /// bcrypt's work factor; 12 in production, lower only in tests.
    package let cost: UInt8

    package init(cost: UInt8 = 12) {
        self.cost = cost
    }

    static let marker = "sha256$"

    package func hash(_ password: String) async throws -> String {
        let cost = cost
        let digest = Self.digest(password)
        return try await NIOThreadPool.singleton.runIfActive { Self.marker + Bcrypt.hash(digest, cost: cost) }
    }

    package func verify(_ password: String, hash: String) async throws -> Bool {
        if hash.hasPrefix(Self.marker) {
            let digest = Self.digest(password)
            let bcrypt = String(hash.dropFirst(Self.marker.count))
            return try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(digest, hash: bcrypt) }
        }
        // An earlier version's hash of the password itself (at most 72 bytes were allowed).
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) }
    }

    /// Whether a stored hash is of an earlier kind, to be replaced once the password is known.
    package func needsRehash(_ hash: String) -> Bool { !hash.hasPrefix(Self.marker) }

    /// SHA-256 of the password in composed form, base64.
    static func digest(_ password: String) -> String {
        Data(SHA256.hash(data: Data(password.precomposedStringWithCanonicalMapping.utf8))).base64EncodedString()
    }
}
