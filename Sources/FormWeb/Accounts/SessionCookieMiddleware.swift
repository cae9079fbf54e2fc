import Foundation
import Hummingbird
import Synchronization

/// The signed-in session of a request, loaded by ``SessionCookieMiddleware`` from the session
/// cookie, and what the route did with it: kept, begun anew (a sign-in step, ``SessionRenewal``)
/// or ended (sign-out, an account gone). Shared by every copy of the request's context.
package final class RequestSession: Sendable {
    private let state = Mutex<State>(.none)

    private enum State {
        case none
        /// Loaded from the store, unchanged.
        case loaded(AppSession)
        /// Begun by the route: stored under a new id after it answers.
        case begun(AppSession, expiresIn: Duration?)
    }

    package init() {}

    /// The session, loaded or begun; nil when there is none or it was ended.
    package var session: AppSession? {
        state.withLock { state in
            switch state {
            case .none: nil
            case .loaded(let session), .begun(let session, _): session
            }
        }
    }

    /// Begins a new session, under an id of its own, in place of the one the cookie named.
    package func createSession(_ session: AppSession, expiresIn: Duration? = nil) {
        state.withLock { $0 = .begun(session, expiresIn: expiresIn) }
    }

    /// Ends the session: its cookie is told to expire.
    package func clearSession() {
        state.withLock { $0 = .none }
    }

    fileprivate func load(_ session: AppSession) {
        state.withLock { $0 = .loaded(session) }
    }

    fileprivate var begun: (session: AppSession, expiresIn: Duration?)? {
        state.withLock { state in
            guard case .begun(let session, let expiresIn) = state else { return nil }
            return (session, expiresIn)
        }
    }
}

/// Loads the session its cookie names into the context and, after the route answered, stores a
/// session it began (with a new id in the cookie) or ends the one it cleared: what
/// HummingbirdAuth's `SessionMiddleware` does, with the session cookie found in the bytes of the
/// `Cookie` field (``CookieHeader``). Hummingbird's `request.cookies`, which that middleware
/// reads, parses every cookie character by character: some 27 K instructions a signed-in page
/// for the one cookie, a returning visitor's browser-id cookie some 50 K only to find no session.
struct SessionCookieMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let storage: DatabasePersistDriver
    /// The prefix of the storage keys: a session is kept under the prefix and its cookie's id.
    let keyPrefix: String
    /// The session cookie's name and whether it is for HTTPS only.
    let cookies: CookiePolicy
    /// How long a session begun without a duration of its own lasts.
    let lifetime: Duration

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        let id = CookieHeader.value(of: cookies.sessionName, in: request.headers[values: .cookie])
        // A session the cookie named, loaded or stored in a form no longer read: if the route
        // ends it (or it could not be read), it goes from the store and its cookie expires.
        var named = false
        if let id {
            do {
                if let session = try await storage.get(key: keyPrefix + id, as: AppSession.self) {
                    context.sessions.load(session)
                    named = true
                }
            } catch let error as PersistError where error == .invalidConversion {
                context.logger.trace("Failed to convert session data")
                named = true
            } catch {
                context.logger.debug("Failed to load session data")
            }
        }
        var response = try await next(request, context)
        if let (session, expiresIn) = context.sessions.begun {
            let newID = CSRF.randomID()
            let lasting = expiresIn ?? lifetime
            try await storage.set(key: keyPrefix + newID, value: session, expires: lasting)
            response.headers[values: .setCookie].append(sessionCookie(newID, expiresIn: lasting))
        } else if let id, named, context.sessions.session == nil {
            try await storage.remove(key: keyPrefix + id)
            response.headers[values: .setCookie].append(sessionCookie(id, expiresIn: .zero))
        }
        return response
    }

    /// The `Set-Cookie` value for the session `id`: this site only, never read by scripts,
    /// not sent with other sites' requests, lasting `expiresIn`.
    private func sessionCookie(_ id: String, expiresIn: Duration) -> String {
        Cookie(
            name: cookies.sessionName, value: id, expires: Date.now + TimeInterval(expiresIn.components.seconds),
            path: "/", secure: cookies.secure, sameSite: .lax
        ).description
    }
}
