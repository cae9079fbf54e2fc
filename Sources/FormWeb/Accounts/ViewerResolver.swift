import FormStore
import Foundation
import Hummingbird

/// Works out the ``Viewer`` of a request: its account, its browser, and the CSRF token its
/// pages carry.
struct ViewerResolver: Sendable {
    let users: UserStore
    let csrf: CSRF

    func viewer(_ request: Request, context: AppRequestContext) async throws -> Viewer {
        let browser = csrf.identify(request)
        if let session = context.sessions.session {
            if let account = try await users.account(id: session.userID) {
                return Viewer(
                    account: account, browserID: browser.id, csrfToken: csrf.token(for: session.csrfKey),
                    newBrowserCookie: browser.newCookie)
            }
            // The account was deleted: the session means nothing any more.
            context.sessions.clearSession()
        }
        return Viewer(
            account: nil, browserID: browser.id, csrfToken: csrf.token(for: browser.id),
            newBrowserCookie: browser.newCookie)
    }

}
