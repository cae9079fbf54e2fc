import Foundation
import Hummingbird

/// Works out the ``Viewer`` of a request and checks its CSRF tokens.
struct ViewerResolver: Sendable {
    let users: UserStore
    let csrf: CSRF

    func viewer(_ request: Request, context: AppRequestContext) async throws -> Viewer {
        let browser = csrf.identify(request)
        if let session = context.sessions.session {
            if let account = try await users.account(id: session.userID) {
                return Viewer(account: account, browserID: browser.id, csrfKey: session.csrfKey, newBrowserCookie: browser.newCookie)
            }
            // The account was deleted: the session means nothing any more.
            context.sessions.clearSession()
        }
        return Viewer(account: nil, browserID: browser.id, csrfKey: browser.id, newBrowserCookie: browser.newCookie)
    }

    /// The token a page with a form carries for this viewer.
    func token(for viewer: Viewer) -> String {
        csrf.token(for: viewer.csrfKey)
    }

    /// What a refused POST says.
    static let refusal = "This form has expired or came from another site. Go back, reload the page and send it again."

    /// Throws 403 unless the submitted token belongs to this viewer. A viewer whose browser
    /// brought no cookie can never pass: its id was made up for this request.
    func requireToken(_ token: String?, for viewer: Viewer) throws {
        guard viewer.account != nil || viewer.newBrowserCookie == nil, csrf.verify(token: token, cookie: viewer.csrfKey) else {
            throw HTTPError(.forbidden, message: Self.refusal)
        }
    }
}

extension Response {
    /// Sets the browser-id cookie when the request brought none, so the token on this page verifies.
    mutating func remember(_ viewer: Viewer) {
        if let cookie = viewer.newBrowserCookie { setCookie(cookie) }
    }
}
