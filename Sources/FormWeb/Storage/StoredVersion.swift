/// The form id and version number an import stored.
public struct StoredVersion: Sendable, Hashable {
    public var formID: String
    public var version: Int
}
