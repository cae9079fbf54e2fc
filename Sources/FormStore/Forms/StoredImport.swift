import Foundation

/// The id of an import and the versions it stored.
package struct StoredImport: Sendable, Hashable {
    package var id: UUID
    package var versions: [StoredVersion]
}
