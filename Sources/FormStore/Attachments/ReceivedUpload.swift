import FormModel
import Foundation

/// What one multipart request carried, before anything is recorded.
package struct ReceivedUpload: Sendable {
    package var fields: [String: [String]] = [:]
    /// Files of attachments fields in arrival order.
    package var files: [ReceivedFile] = []
    /// Per field, the files dropped unread because more than `max-count` + margin came.
    package var droppedFiles: [String: Int] = [:]

    package init() {}
}

/// One file part of an attachments field.
package struct ReceivedFile: Sendable, Hashable {
    package var id: String
    package var field: String
    /// Sanitised.
    package var name: String
    /// Every byte the part held, even past `max-size`.
    package var size: Int
    /// Sniffed from the content only.
    package var contentType: String?
    /// The complete file in the staging folder; nil when it was over `max-size` (nothing kept).
    package var stagingFile: URL?

    package init(id: String, field: String, name: String, size: Int, contentType: String?, stagingFile: URL?) {
        self.id = id
        self.field = field
        self.name = name
        self.size = size
        self.contentType = contentType
        self.stagingFile = stagingFile
    }

    package var submitted: SubmittedFile { SubmittedFile(id: id, name: name, size: size, contentType: contentType) }
}
