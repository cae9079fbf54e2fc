import FormModel
import Foundation

/// The options an admin uploaded for one list of a form, with when and by whom.
package struct OptionUpload: Sendable, Hashable {
    package var groups: [OptionGroup]
    /// When they were last uploaded.
    package var at: Date?
    /// The account that uploaded them.
    package var by: String?
    /// For an XForm's external instance, the uploaded file as the instance's XML.
    package var instanceXML: String? = nil
}
