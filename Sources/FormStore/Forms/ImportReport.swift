import FormImport
import Foundation

/// The stored report of an import, with its source kind and when and by whom it was made.
package struct ImportReport: Sendable, Hashable {
    package var summary: ImportSummary
    package var kind: SourceKind
    /// When the import was stored.
    package var at: Date?
    /// The account that imported it; nil for the seed and the command line.
    package var by: String?
}
