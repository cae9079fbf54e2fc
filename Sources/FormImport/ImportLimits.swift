import FormXML

/// What an import accepts, for callers that read the documents (the web layer, the command line)
/// without knowing the XML layer.
public enum ImportLimits {
    /// The largest document an import reads; a larger one is refused before parsing.
    public static let maximumDocumentBytes = XMLLimits.maximumDocumentBytes
}
