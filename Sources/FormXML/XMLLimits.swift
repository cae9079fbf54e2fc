/// The limits every XML document is held to before and while it is parsed.
///
/// A form spec is small and shallow (the demo is 5 KB and 7 elements deep), so these leave
/// generous room while keeping hostile documents cheap to refuse.
public enum XMLLimits {
    /// Largest document accepted, in bytes (16 MB); larger ones are refused before parsing (`too-large`).
    public static let maximumDocumentBytes = 16 * 1024 * 1024

    /// Deepest element nesting accepted (256); the parser stops at the first element deeper (`too-deep`).
    public static let maximumDepth = 256
}
