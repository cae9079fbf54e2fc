import HummingbirdBcrypt
import NIOPosix

/// bcrypt on the shared thread pool: a cost-12 hash takes a few hundred milliseconds, which
/// must not block an event loop.
package struct PasswordHasher: Sendable {
    /// bcrypt's work factor; 12 in production, lower only in tests.
    package let cost: UInt8

    package init(cost: UInt8 = 12) {
        self.cost = cost
    }

    package func hash(_ password: String) async throws -> String {
        let cost = cost
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    package func verify(_ password: String, hash: String) async throws -> Bool {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) }
    }
}
