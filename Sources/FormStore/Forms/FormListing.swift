import FormImport

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
