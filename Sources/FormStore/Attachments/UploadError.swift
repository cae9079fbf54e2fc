import FormModel

/// Why a multipart request was refused before its submission could be validated.
///
/// The web layer answers it with the status its ``kind`` calls for and a page (or JSON) with
/// its ``message``. Whatever the request had staged is already gone when this is thrown.
package struct UploadError: Error, Hashable, CustomStringConvertible {
    /// Stable code: `too-large`, `staging-full`, `text-too-large`, `malformed`, `not-multipart`.
    package var code: Code
    /// For people: what happened and what to do.
    package var message: String
    package var kind: Kind

    /// What sort of refusal it is, for the answer's status.
    package enum Kind: Sendable, Hashable {
        /// More than the request, a text or the sender's waiting files may hold (413).
        case tooLarge
        /// Not well-formed `multipart/form-data` (400).
        case malformed
        /// Not `multipart/form-data` at all (415).
        case notMultipart
    }

    /// The whole request is over its limit (413).
    package static func tooLarge(limit: Int) -> UploadError {
        UploadError(
            code: .tooLarge,
            message: "The files you sent are larger than \(AttachmentLimits.describe(limit)) altogether. "
                + "Send fewer or smaller files.",
            kind: .tooLarge)
    }

    /// The sender already has as many files waiting in refused forms as anyone may (413).
    package static func stagingFull(limit: Int) -> UploadError {
        UploadError(
            code: .stagingFull,
            message:
                "You already have \(AttachmentLimits.describe(limit)) of files waiting in forms that were not sent. "
                + "Send or cancel those forms first, or try again tomorrow.",
            kind: .tooLarge)
    }

    /// A text field, or all of them together, is over its limit (413).
    package static func textTooLarge(limit: Int) -> UploadError {
        UploadError(
            code: .textTooLarge,
            message:
                "The text you sent is longer than \(AttachmentLimits.describe(limit)). Shorten it and send the form again.",
            kind: .tooLarge)
    }

    /// The body is not well-formed `multipart/form-data` (400).
    package static let malformed = UploadError(
        code: .malformed, message: "The form data could not be read. Reload the page and send the form again.",
        kind: .malformed)

    /// The request is not `multipart/form-data` with a boundary (415).
    package static let notMultipart = UploadError(
        code: .notMultipart,
        message: "This form must be sent as multipart/form-data. Reload the page and send it again.",
        kind: .notMultipart)

    package var description: String { "\(code): \(message)" }

    /// A stable, machine-readable code, so never renamed. The constants are every code there is.
    package struct Code: ErrorCode {
        package var rawValue: String

        package init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The body is not well-formed `multipart/form-data`.
        package static let malformed = Code("malformed")
        /// The request is not `multipart/form-data` with a boundary.
        package static let notMultipart = Code("not-multipart")
        /// The sender's files waiting in refused forms are at their quota.
        package static let stagingFull = Code("staging-full")
        /// A text field, or all of them together, is over its limit.
        package static let textTooLarge = Code("text-too-large")
        /// The whole request is over its limit.
        package static let tooLarge = Code("too-large")
    }
}
