import FormModel
import Hummingbird
import NIOCore

/// Why a multipart request was refused before its submission could be validated.
///
/// A route that lets it escape answers with its status and the `error` page, with ``heading``
/// and ``message`` (``ErrorPageMiddleware``); a route may also catch it and render its own page
/// from ``message``. Whatever the request had staged is already gone when this is thrown.
public struct UploadError: HTTPResponseError, Hashable, CustomStringConvertible {
    /// Stable code: `too-large`, `staging-full`, `text-too-large`, `malformed`, `not-multipart`.
    public var code: Code
    /// For people: what happened and what to do.
    public var message: String
    public var status: HTTPResponse.Status

    /// The whole request is over its limit (413).
    public static func tooLarge(limit: Int) -> UploadError {
        UploadError(
            code: .tooLarge,
            message: "The files you sent are larger than \(AttachmentLimits.describe(limit)) altogether. "
                + "Send fewer or smaller files.",
            status: .contentTooLarge)
    }

    /// The sender already has as many files waiting in refused forms as anyone may (413).
    public static func stagingFull(limit: Int) -> UploadError {
        UploadError(
            code: .stagingFull,
            message:
                "You already have \(AttachmentLimits.describe(limit)) of files waiting in forms that were not sent. "
                + "Send or cancel those forms first, or try again tomorrow.",
            status: .contentTooLarge)
    }

    /// A text field, or all of them together, is over its limit (413).
    public static func textTooLarge(limit: Int) -> UploadError {
        UploadError(
            code: .textTooLarge,
            message:
                "The text you sent is longer than \(AttachmentLimits.describe(limit)). Shorten it and send the form again.",
            status: .contentTooLarge)
    }

    /// The body is not well-formed `multipart/form-data` (400).
    public static let malformed = UploadError(
        code: .malformed, message: "The form data could not be read. Reload the page and send the form again.",
        status: .badRequest)

    /// The request is not `multipart/form-data` with a boundary (415).
    public static let notMultipart = UploadError(
        code: .notMultipart,
        message: "This form must be sent as multipart/form-data. Reload the page and send it again.",
        status: .unsupportedMediaType)

    public var description: String { "\(code): \(message)" }

    /// A stable, machine-readable code, so never renamed. The constants are every code there is.
    public struct Code: ErrorCode {
        public var rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The body is not well-formed `multipart/form-data`.
        public static let malformed = Code("malformed")
        /// The request is not `multipart/form-data` with a boundary.
        public static let notMultipart = Code("not-multipart")
        /// The sender's files waiting in refused forms are at their quota.
        public static let stagingFull = Code("staging-full")
        /// A text field, or all of them together, is over its limit.
        public static let textTooLarge = Code("text-too-large")
        /// The whole request is over its limit.
        public static let tooLarge = Code("too-large")
    }

    /// What happened, as the page's heading.
    public var heading: String {
        status == .contentTooLarge ? "Too much to upload" : "The form could not be read"
    }

    /// The answer outside the app's ``ErrorPageMiddleware`` (which renders the `error` page
    /// instead): the status and the message alone, as HTML, never cached.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var body = ByteBuffer()
        body.writeStaticString("<!DOCTYPE html>\n<p>")
        HTML.writeEscaped(message, to: &body)
        body.writeStaticString("</p>\n")
        return HTMLResponse.page(body, status: status, cacheControl: "no-store")
    }
}
