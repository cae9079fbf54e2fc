import FormImport
import Foundation

/// The stored report of an import, with its source kind and when and by whom it was made.
public struct ImportReport: Sendable, Hashable {
    public var summary: ImportSummary
    public var kind: SourceKind
    /// When the import was stored.
    public var at: Date?
    /// The account that imported it; nil for the seed and the command line.
    public var by: String?
}
