import Foundation

/// The id of an import and the versions it stored.
public struct StoredImport: Sendable, Hashable {
    public var id: UUID
    public var versions: [StoredVersion]
}
