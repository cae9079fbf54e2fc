/// The form id and version number an import stored.
package struct StoredVersion: Sendable, Hashable {
    package var formID: String
    package var version: Int
}
