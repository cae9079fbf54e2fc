/// Why options could not be applied to a form's list.
package struct UnknownListError: Error, Sendable {
    package var listID: String
}
