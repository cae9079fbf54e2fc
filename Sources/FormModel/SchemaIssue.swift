/// A rule of the form spec that a schema breaks; importers add the line and column.
public struct SchemaIssue: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable identifier of the rule, e.g. `duplicate-name`.
    public var code: String
    /// What is wrong and what to do, for people.
    public var message: String
    /// The field (or list) the issue is about.
    public var subject: String?
    public var location: SourceLocation?

    public init(code: String, message: String, subject: String? = nil, location: SourceLocation? = nil) {
        self.code = code
        self.message = message
        self.subject = subject
        self.location = location
    }

    public var description: String {
        (location.map { "\($0): " } ?? "") + message + " [\(code)]"
    }
}
