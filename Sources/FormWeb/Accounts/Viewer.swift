import Foundation
import Hummingbird

/// Who is asking: a signed-in account or nobody, and the browser in either case.
public struct Viewer: Sendable {
    /// The signed-in account, if any.
    public var account: Account?
    /// The browser's id from the `fieldwork_csrf` cookie: owns what this browser created anonymously.
    public var browserID: String
    /// The CSRF token this viewer's pages carry and its POSTs must send back: derived from the
    /// signed-in session's own key, else from the browser id. A new key at sign-in means a token
    /// seen before sign-in is worthless after it.
    public var csrfToken: String
    /// The browser-id cookie to set when this request brought none.
    public var newBrowserCookie: Cookie?

    public var isAdmin: Bool { account?.isAdmin ?? false }

    /// Whether the viewer may see and change an object: its creator or an admin.
    public func mayAccess(_ object: StoredObject) -> Bool {
        if isAdmin { return true }
        if let owner = object.creatorUserID { return owner == account?.id }
        return object.creatorBrowser == browserID
    }

    /// Who owns the files this viewer uploads until an object claims them: the account, or
    /// for an anonymous viewer the browser.
    public var ownerKey: String {
        if let account { return "user:\(account.id.uuidString.lowercased())" }
        return "browser:\(browserID)"
    }

    /// The creator to record for an object this viewer creates.
    public var creator: Creator {
        if let account { return .account(account.id) }
        return .browser(browserID)
    }

    /// What a refused POST says.
    static let tokenRefusal =
        "This form has expired or came from another site. Go back, reload the page and send it again."

    /// Throws 403 unless `submitted` is this viewer's token (compared in constant time). A viewer
    /// whose browser brought no cookie can never pass: its id was made up for this request.
    public func requireToken(_ submitted: String?) throws {
        guard account != nil || newBrowserCookie == nil, let submitted, CSRF.constantTimeEqual(submitted, csrfToken)
        else {
            throw HTTPError(.forbidden, message: Self.tokenRefusal)
        }
    }
}
