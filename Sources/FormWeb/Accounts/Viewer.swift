import FormModel
import FormStore
import Foundation
import Hummingbird

/// Who is asking: a signed-in account or nobody, and the browser in either case.
package struct Viewer: Sendable {
    /// The cookie naming a signed-in browser's session over plain HTTP (HummingbirdAuth's
    /// sessions, kept by ``DatabasePersistDriver``); `__Host-` before it behind HTTPS
    /// (``CookiePolicy``).
    static let sessionCookieName = CookiePolicy(secure: false).sessionName

    /// The signed-in account, if any.
    package var account: Account?
    /// The browser's id from the `fieldwork_csrf` cookie: owns what this browser created anonymously.
    package var browserID: String
    /// The CSRF token this viewer's pages carry and its POSTs must send back: derived from the
    /// signed-in session's own key, else from the browser id. A new key at sign-in means a token
    /// seen before sign-in is worthless after it.
    package var csrfToken: String
    /// The browser-id cookie to set when this request brought none: the `Set-Cookie` value.
    package var newBrowserCookie: String?
    /// Whether the request presented the admin token (``AdminTokenMiddleware``, under `/api` and
    /// `/metrics`): it may do what an admin may, without an account.
    package var byAdminToken = false

    package var isAdmin: Bool { byAdminToken || (account?.isAdmin ?? false) }

    /// Whether the viewer may use a form for signed-in users.
    package var isSignedIn: Bool { account != nil || byAdminToken }

    /// Whether the viewer may see and change an object: its creator or an admin.
    package func mayAccess(_ object: StoredObject) -> Bool {
        if isAdmin { return true }
        if let owner = object.creatorUserID { return owner == account?.id }
        return object.creatorBrowser == browserID
    }

    /// The objects a list shows this viewer: an admin's every object, anyone else's their own.
    package var visibleObjects: OwnerFilter {
        isAdmin ? .everyone : .createdBy(account: account?.id, browser: browserID)
    }

    /// Who owns the files this viewer uploads until an object claims them: the account, or
    /// for an anonymous viewer the browser.
    package var ownerKey: String {
        if let account { return "user:\(account.id.uuidString.lowercased())" }
        return "browser:\(browserID)"
    }

    /// The creator to record for an object this viewer creates.
    package var creator: Creator {
        if let account { return .account(account.id) }
        return .browser(browserID)
    }

    /// Who to record as the importer of what this viewer imports or uploads.
    var recordedName: String? {
        byAdminToken ? "api token" : account?.name
    }

    /// What a refused POST says.
    static let tokenRefusal =
        "This form has expired or came from another site. Go back, reload the page and send it again."

    /// Throws 403 unless `submitted` is this viewer's token (compared in constant time). A viewer
    /// whose browser brought no cookie can never pass: its id was made up for this request.
    package func requireToken(_ submitted: String?) throws {
        guard account != nil || newBrowserCookie == nil, let submitted, ConstantTime.equal(submitted, csrfToken)
        else {
            throw HTTPError(.forbidden, message: Self.tokenRefusal)
        }
    }
}
