import FormImport
import FormModel
import Foundation

/// One stored version of a form with the form's settings: what the pages need.
public struct StoredForm: Sendable, Hashable {
    public var id: String
    public var access: FormAccess
    public var state: FormState
    public var version: Int
    public var sourceKind: SourceKind
    /// The canonical JSON, as served at `GET /api/forms/{id}`.
    public var schemaJSON: String
    public var importedAt: Date?
    public var importedBy: String?
    /// The import that made this version, when known.
    public var importID: UUID?
    /// Changes whenever an admin uploads options for one of the form's lists.
    public var listsRevision: Int = 0

    /// The schema decoded from its canonical JSON, as imported (without uploaded options; see
    /// `FormStore.schema(of:)`).
    public func schema() throws -> FormSchema {
        try FormSchema.fromCanonicalJSON(Data(schemaJSON.utf8))
    }
}
