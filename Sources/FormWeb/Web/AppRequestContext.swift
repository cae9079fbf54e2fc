import Foundation
import Hummingbird
import HummingbirdAuth

/// What a signed-in session keeps in the `sessions` table.
public struct AppSession: Codable, Sendable, Hashable {
    public var userID: UUID
    /// The key CSRF tokens of this session derive from; fresh at every sign-in.
    public var csrfKey: String
}

/// Fieldwork's request context: Hummingbird's core storage, the session the
/// `SessionMiddleware` loaded from the database, and the viewer ``ViewerMiddleware`` resolved.
public struct AppRequestContext: SessionRequestContext, RequestContext {
    public var coreContext: CoreRequestContextStorage
    public let sessions: SessionContext<AppSession>
    /// Set by ``ViewerMiddleware`` before any route runs.
    var resolvedViewer: Viewer?
    /// Set by ``AdminAPIGateMiddleware`` on the admin's JSON routes.
    var apiCaller: APICaller?

    public init(source: Source) {
        coreContext = .init(source: source)
        sessions = .init()
    }

    /// Who is asking: the signed-in account or nobody, and the browser.
    var viewer: Viewer {
        get throws {
            // Only a route wired outside ViewerMiddleware could get here: a bug, not a request's fault.
            guard let resolvedViewer else { throw HTTPError(.internalServerError) }
            return resolvedViewer
        }
    }
}
