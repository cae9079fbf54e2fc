import Foundation
import Hummingbird

/// Who may fill a form: `users` forms need a signed-in account.
enum Access {
    /// A 303 to the sign-in page that comes back here, when the form needs an account the viewer lacks.
    static func signInRedirect(form: StoredForm, viewer: Viewer, request: Request) -> Response? {
        guard form.access == .users, viewer.account == nil else { return nil }
        // After a failed POST, come back to the create view rather than to the POST's address.
        var back = request.uri.path
        if request.method == .post, back.hasPrefix("/forms/") { back = "/forms/\(form.id)/new" }
        if request.method == .get, let query = request.uri.query, !query.isEmpty { back += "?\(query)" }
        return Response.seeOther("/login?next=\(LocalPath.percentEncoded(back))")
    }
}

extension Response {
    /// A 303 See Other: after a POST the browser GETs the new address.
    static func seeOther(_ location: String) -> Response {
        var headers = HTTPFields()
        headers[.location] = location
        headers[.cacheControl] = "no-store"
        return Response(status: .seeOther, headers: headers)
    }
}
