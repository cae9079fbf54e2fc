/// A value that cannot be written as its property's type: a form value of the wrong kind, a
/// number out of range, a text that is no GUID. The form's own validation should have refused
/// it first, so this names the property for whoever reads the log.
package struct ODataValueError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The property (or a value help's list property) the value was for.
    package var property: String
    /// The Edm type it was to be written as.
    package var type: String
    package var message: String

    package init(property: String, type: String, message: String) {
        self.property = property
        self.type = type
        self.message = message
    }

    package var description: String { "\(property) (\(type)): \(message)" }
}
