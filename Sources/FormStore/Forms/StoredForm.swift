import FormImport
import FormModel
import Foundation

/// One stored version of a form with the form's settings: what the pages need.
package struct StoredForm: Sendable, Hashable {
    package var id: String
    package var access: FormAccess
    package var state: FormState
    package var version: Int
    package var sourceKind: SourceKind
    /// The canonical JSON, as served at `GET /api/forms/{id}`.
    package var schemaJSON: String
    package var importedAt: Date?
    package var importedBy: String?
    /// The import that made this version, when known.
    package var importID: UUID?
    /// Changes whenever an admin uploads options for one of the form's lists.
    package var listsRevision: Int = 0

    /// The schema decoded from its canonical JSON, as imported (without uploaded options; see
    /// `FormStore.schema(of:)`).
    package func schema() throws -> FormSchema {
        try FormSchema.fromCanonicalJSON(Data(schemaJSON.utf8))
    }
}
