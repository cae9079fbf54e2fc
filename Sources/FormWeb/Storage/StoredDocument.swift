import Foundation

/// A source document kept with a form version, so admins can download what was imported.
public struct StoredDocument: Codable, Sendable, Hashable {
    /// The file's name as the admin gave it.
    public var name: String
    /// Raw bytes (base64 in the JSON column), so documents in any encoding survive unchanged.
    public var data: Data
}
