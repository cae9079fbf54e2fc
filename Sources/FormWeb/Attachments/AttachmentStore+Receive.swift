import FormModel
import FormStore
import Foundation
import Hummingbird
import NIOCore

extension AttachmentStore {
    /// Reads a `multipart/form-data` request into a submission, staging its files for `owner`.
    ///
    /// The body streams through (see ``MultipartSubmissionReader``); files land in
    /// `<data>/attachments/<id>` with a staged row each (``stage(_:formID:owner:)``). A file over
    /// its field's `max-size` is in the submission with its real size, so validation reports it,
    /// but nothing of it is kept. Files beyond `max-count` + 1 are dropped.
    /// - Throws: ``UploadError`` (too large, malformed, not multipart), with nothing of the
    ///   request left on disk or in the database.
    func receive(_ request: Request, schema: FormSchema, owner: String) async throws -> Submission {
        try await receive(
            request.body, contentType: request.headers[.contentType],
            contentLength: request.headers[.contentLength].flatMap { Int($0) }, schema: schema, owner: owner)
    }

    /// ``receive(_:schema:owner:)`` for any body stream (tests, other transports).
    func receive<Body: AsyncSequence>(
        _ body: Body, contentType: String?, contentLength: Int?, schema: FormSchema, owner: String
    ) async throws -> Submission where Body.Element == ByteBuffer {
        let reader = MultipartSubmissionReader(schema: schema, limits: limits, stagingFolder: stagingFolder)
        let upload = try await reader.read(body, contentType: contentType, contentLength: contentLength)
        try await stage(upload, formID: schema.id, owner: owner)
        var submission = Submission(fields: upload.fields)
        for file in upload.files { submission.files[file.field, default: []].append(file.submitted) }
        return submission
    }
}
