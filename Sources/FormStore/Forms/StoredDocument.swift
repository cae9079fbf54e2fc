import Foundation

/// A source document kept with a form version, so admins can download what was imported.
package struct StoredDocument: Codable, Sendable, Hashable {
    /// The file's name as the admin gave it.
    package var name: String
    /// Raw bytes (base64 in the JSON column), so documents in any encoding survive unchanged.
    package var data: Data
}
