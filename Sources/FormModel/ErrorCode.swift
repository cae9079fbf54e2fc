/// A stable, machine-readable code of a kind of error: its text is part of the JSON API, the
/// reports and the command line's output, so never renamed. Each error type lists its codes as
/// constants of its own `Code`; a string literal is one too, for tests that compare with text.
public protocol ErrorCode: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible
where RawValue == String {
    init(rawValue: String)
}

extension ErrorCode {
    public init(_ rawValue: String) {
        self.init(rawValue: rawValue)
    }

    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    public var description: String { rawValue }
}
