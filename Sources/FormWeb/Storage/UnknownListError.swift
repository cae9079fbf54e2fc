/// Why options could not be applied to a form's list.
public struct UnknownListError: Error, Sendable {
    public var listID: String
}
