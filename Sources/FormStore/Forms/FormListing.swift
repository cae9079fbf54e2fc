import FormImport
import FormModel

/// A form as lists show it: its latest version's number, kind and title, without its schema.
package struct FormListing: Sendable, Hashable {
    package var id: String
    package var title: String
    package var access: FormAccess
    package var state: FormState
    package var version: Int
    package var sourceKind: SourceKind
    /// Changes whenever an admin uploads options for one of the form's lists.
    package var listsRevision: Int
}

/// The key the admin's forms list is ordered by: the form's id.
package struct FormListKey: ListKey {
    package var id: String

    package init(id: String) {
        self.id = id
    }

    package var listKeyBytes: [UInt8] { Array(id.utf8) }

    /// Only a valid form id (lowercase letters, digits and hyphens, at most 100).
    package init?(listKeyBytes bytes: ArraySlice<UInt8>) {
        guard let id = String(validating: bytes, as: UTF8.self), FormSchema.isValidID(id) else { return nil }
        self.id = id
    }
}

/// A page of the admin's forms list.
package typealias FormPage = ListPage<FormListing, FormListKey>
