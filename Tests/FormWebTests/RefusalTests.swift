import FormStore
import Hummingbird
import Testing

@testable import FormWeb

/// Every refusal said once (``Refusal``): the page and the JSON answer read the same status,
/// heading, words and headers from it.
@Suite("Refusals")
struct RefusalTests {
    struct Unrelated: Error {}

    @Test("an error means one refusal, which the page and the API write alike")
    func oneMeaning() throws {
        let notFound = try #require(Refusal.of(FormLookupError.unknown("x")))
        #expect(notFound.kind == .notFound && notFound.status == .notFound && notFound.apiMessage == "not found")
        #expect(Refusal.of(HTTPError(.notFound))?.kind == .notFound)
        #expect(Refusal.of(FormLookupError.retired("x"))?.status == .gone)

        let forbidden = try #require(Refusal.of(HTTPError(.forbidden, message: "Not yours.")))
        #expect(forbidden.heading == "You cannot do that" && forbidden.pageMessage == "Not yours.")
        #expect(forbidden.apiMessage == "Not yours." && forbidden.shownAsPage)
        let bare = try #require(Refusal.of(HTTPError(.badRequest)))
        #expect(bare.pageMessage == "Go back and try again." && bare.apiMessage == "Bad Request")

        let held = try #require(Refusal.of(HTTPError(.tooManyRequests, headers: [.retryAfter: "30"], message: "Wait.")))
        #expect(held.headers[.retryAfter] == "30")
        let response = try JSONResponse.refusal(held)
        #expect(response.status == .tooManyRequests && response.headers[.retryAfter] == "30")

        let upload = try #require(Refusal.of(UploadError.tooLarge(limit: 10_000_000)))
        #expect(upload.status == .contentTooLarge && upload.backToForm && upload.heading == "Too much to upload")

        // A server error without words goes on to Hummingbird's own page; the API still answers JSON.
        let failed = try #require(Refusal.of(HTTPError(.internalServerError)))
        #expect(!failed.shownAsPage && failed.apiMessage == "Internal Server Error")
        #expect(Refusal.of(HTTPError(.badGateway, message: "The service did not answer."))?.shownAsPage == true)
        #expect(Refusal.of(Unrelated()) == nil)
    }
}
