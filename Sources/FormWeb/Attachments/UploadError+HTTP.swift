import FormStore
import HTTPTypes

extension UploadError {
    /// The answer's status: 413, 400 or 415.
    var status: HTTPResponse.Status {
        switch kind {
        case .tooLarge: .contentTooLarge
        case .malformed: .badRequest
        case .notMultipart: .unsupportedMediaType
        }
    }

    /// What happened, as the error page's heading.
    var heading: String {
        kind == .tooLarge ? "Too much to upload" : "The form could not be read"
    }
}
