import Foundation
import Hummingbird
import HummingbirdAuth

/// What a signed-in session keeps in the `sessions` table.
public struct AppSession: Codable, Sendable, Hashable {
    public var userID: UUID
    /// The key CSRF tokens of this session derive from; fresh at every sign-in.
    public var csrfKey: String
}

/// Fieldwork's request context: Hummingbird's core storage plus the session the
/// `SessionMiddleware` loaded from the database.
public struct AppRequestContext: SessionRequestContext, RequestContext {
    public var coreContext: CoreRequestContextStorage
    public let sessions: SessionContext<AppSession>

    public init(source: Source) {
        coreContext = .init(source: source)
        sessions = .init()
    }
}
