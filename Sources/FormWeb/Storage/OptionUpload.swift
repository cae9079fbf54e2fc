import FormModel
import Foundation

/// The options an admin uploaded for one list of a form, with when and by whom.
public struct OptionUpload: Sendable, Hashable {
    public var groups: [OptionGroup]
    /// When they were last uploaded.
    public var at: Date?
    /// The account that uploaded them.
    public var by: String?
}
