import FormStore
import Hummingbird

/// What a refused request means, said once for every error that refuses one: its status, the
/// heading a page gives it, what to do, and the headers it carries. Two renderers write it: as a
/// page for the browser's routes (``ErrorPageMiddleware``) and as `{"error": "…"}` for the API
/// and the pages' own JSON routes (``JSONResponse/refusal(_:)``), as swift-openapi-runtime's
/// `HTTPResponseConvertible` and Hummingbird's `HTTPResponseError` let one error say its answer.
struct Refusal: Sendable {
    enum Kind: Sendable {
        /// An unknown address, form or object: the 404 page.
        case notFound
        /// A retired form: the 410 page.
        case gone
        /// The database cannot be reached: the 503 page, `Retry-After`.
        case unavailable
        /// Any other refusal, with its own heading and words.
        case other
    }

    var kind: Kind
    var status: HTTPResponse.Status
    /// What happened, as a page's heading.
    var heading: String
    /// What the request was told, when more than its status says.
    var detail: String?
    var headers: HTTPFields = [:]
    /// Whether a browser is shown it as a page; else (a server error without words) it goes on
    /// to Hummingbird's own answer.
    var shownAsPage = true
    /// A refused form: the page points to the Back button, where the form and its values are.
    var backToForm = false

    /// The words of a page: the detail, or what to do.
    var pageMessage: String { detail ?? "Go back and try again." }

    /// The words of a JSON answer: the detail, or the status's reason phrase.
    var apiMessage: String {
        switch kind {
        case .notFound: "not found"
        case .gone: "this form has been retired"
        case .unavailable: "the database is unavailable; try again in a few seconds"
        case .other: detail ?? status.reasonPhrase
        }
    }

    /// The refusal an error means; nil for an error that refuses nothing (a bug, logged where it
    /// is caught, or an answer of its own).
    static func of(_ error: any Error) -> Refusal? {
        switch error {
        case FormLookupError.unknown:
            return notFound
        case FormLookupError.retired:
            return gone
        case let error as HTTPError where error.status == .notFound:
            return notFound
        case let error as HTTPError where error.status == .gone:
            return gone
        case let error as UploadError:
            return Refusal(
                kind: .other, status: error.status, heading: error.heading, detail: error.message, backToForm: true)
        case let error as HTTPError:
            let status = error.status
            let heading =
                switch status {
                case .serviceUnavailable, .badGateway: "The service did not answer"
                case .forbidden: "You cannot do that"
                case .contentTooLarge: "That is too large"
                case .unsupportedMediaType, .badRequest: "That request could not be read"
                default: status.reasonPhrase
                }
            return Refusal(
                kind: .other, status: status, heading: heading, detail: error.body, headers: error.headers,
                shownAsPage: (400..<500).contains(status.code)
                    || ((status == .serviceUnavailable || status == .badGateway) && error.body != nil))
        case let error where DatabaseOutage.isOutage(error):
            return Refusal(
                kind: .unavailable, status: .serviceUnavailable, heading: "Service unavailable",
                headers: [.retryAfter: "5"])
        default:
            return nil
        }
    }

    static let notFound = Refusal(kind: .notFound, status: .notFound, heading: "Page not found")
    static let gone = Refusal(kind: .gone, status: .gone, heading: "Form retired")
}
