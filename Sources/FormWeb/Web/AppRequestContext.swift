import FormStore
import Foundation
import Hummingbird
import NIOCore

/// What a signed-in session keeps in the `sessions` table.
package struct AppSession: Codable, Sendable, Hashable {
    package var userID: UUID
    /// The key CSRF tokens of this session derive from; fresh at every sign-in.
    package var csrfKey: String
    /// True between a right password and the code of an account with a second factor: the
    /// session then opens the code page alone (``ViewerResolver`` sees nobody signed in).
    package var secondFactorDue: Bool?

    package init(userID: UUID, csrfKey: String, secondFactorDue: Bool? = nil) {
        self.userID = userID
        self.csrfKey = csrfKey
        self.secondFactorDue = secondFactorDue
    }
}

/// Fieldwork's request context: Hummingbird's core storage, the session the
/// ``SessionCookieMiddleware`` loaded from the database, and what the route groups' middleware found out
/// before a handler runs: the viewer (``ViewerMiddleware``, ``AdminTokenMiddleware``) and, under
/// `/forms/{id}`, the form (``FormAccessMiddleware``).
package struct AppRequestContext: RequestContext {
    package var coreContext: CoreRequestContextStorage
    /// The session its cookie named, loaded by ``SessionCookieMiddleware``.
    package let sessions: RequestSession
    /// Set by ``ViewerMiddleware`` before any route that needs it runs.
    var resolvedViewer: Viewer? {
        get { viewerBox?.value }
        set { viewerBox = newValue.map(Box.init) }
    }
    /// Set by ``FormAccessMiddleware`` on the routes of one form.
    var resolvedForm: StoredForm? {
        get { formBox?.value }
        set { formBox = newValue.map(Box.init) }
    }
    /// Boxed: every middleware passes the context on as a copy, and a box is one reference to
    /// retain where a viewer or a form is a dozen strings.
    private var viewerBox: Box<Viewer>?
    private var formBox: Box<StoredForm>?

    private final class Box<Value: Sendable>: Sendable {
        let value: Value

        init(_ value: Value) {
            self.value = value
        }
    }

    package init(source: Source) {
        coreContext = .init(source: source)
        sessions = .init()
        channel = source.channel
    }

    /// The request's connection: where it came from is read only when a route asks.
    private let channel: any Channel

    /// The address of the connection's other end (a proxy's, behind one), as text; nil when the
    /// connection has none (the in-process tests').
    var clientAddress: String? {
        guard let address = channel.remoteAddress else { return nil }
        return address.ipAddress ?? address.description
    }

    /// Who is asking: the signed-in account or nobody, and the browser.
    var viewer: Viewer {
        get throws {
            // Only a route wired outside ViewerMiddleware could get here: a bug, not a request's fault.
            guard let resolvedViewer else { throw HTTPError(.internalServerError) }
            return resolvedViewer
        }
    }

    /// The form the address names, which the viewer may use.
    var form: StoredForm {
        get throws {
            // Only a route wired outside FormAccessMiddleware could get here.
            guard let resolvedForm else { throw HTTPError(.internalServerError) }
            return resolvedForm
        }
    }
}
