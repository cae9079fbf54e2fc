import FormImport

/// A form as lists show it: its latest version's number, kind and title, without its schema.
public struct FormListing: Sendable, Hashable {
    public var id: String
    public var title: String
    public var access: FormAccess
    public var state: FormState
    public var version: Int
    public var sourceKind: SourceKind
    /// Changes whenever an admin uploads options for one of the form's lists.
    public var listsRevision: Int
}
