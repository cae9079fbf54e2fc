import FormStore
import Foundation
import Hummingbird

/// Works out the ``Viewer`` of a request: its account, its browser, and the CSRF token its
/// pages carry.
struct ViewerResolver: Sendable {
    let users: UserStore
    let csrf: CSRF

    func viewer(_ request: Request, context: AppRequestContext) async throws -> Viewer {
        guard let session = context.sessions.session else { return visitor(request) }
        let browser = csrf.identify(request)
        if session.secondFactorDue == true {
            // Half signed in: nobody yet, but the code page's form carries the session's token.
            return Viewer(
                account: nil, browserID: browser.id, csrfToken: csrf.token(for: session.csrfKey),
                newBrowserCookie: browser.newCookie)
        }
        if let account = try await users.account(id: session.userID) {
            return Viewer(
                account: account, browserID: browser.id, csrfToken: csrf.token(for: session.csrfKey),
                newBrowserCookie: browser.newCookie)
        }
        // The account was deleted: the session means nothing any more.
        context.sessions.clearSession()
        return visitor(request)
    }

    /// The viewer of a request without a session: its browser, at once (no `await`, as most
    /// requests are).
    func visitor(_ request: Request) -> Viewer {
        let browser = csrf.identify(request)
        // A browser seen for the first time has a new id: its token is kept once it comes back.
        return Viewer(
            account: nil, browserID: browser.id, csrfToken: csrf.token(for: browser.id, keep: browser.newCookie == nil),
            newBrowserCookie: browser.newCookie)
    }

}
