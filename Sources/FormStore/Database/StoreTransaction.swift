import FluentKit
import Foundation

/// A transaction of the store, handed to work that must commit or roll back with a write: an
/// object's files are claimed in the object's own transaction. Callers above the store pass it
/// on to another store's method and never see the database behind it.
package struct StoreTransaction: Sendable {
    let database: any Database
}

/// Work that runs in a write's transaction with the written object's id.
package typealias AlongsideWork = @Sendable (StoreTransaction, UUID) async throws -> Void
