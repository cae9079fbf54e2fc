import Hummingbird

/// Gives a browser a new session, ending the one it had: at every step of signing in (password,
/// code) and at every change of how the account signs in, so nothing a session id was before
/// the step opens anything after it (session fixation), and a session that ended on this
/// browser ends in the store too.
struct SessionRenewal: Sendable {
    let sessions: DatabasePersistDriver
    /// The session middleware's prefix of storage keys and the name of its cookie.
    let keyPrefix: String
    let cookieName: String

    func renew(
        _ session: AppSession, request: Request, context: AppRequestContext, expiresIn: Duration? = nil
    ) async throws {
        if context.sessions.session != nil,
            let old = CookieHeader.value(of: cookieName, in: request.headers[values: .cookie])
        {
            try await sessions.remove(key: keyPrefix + old)
        }
        context.sessions.createSession(session, expiresIn: expiresIn)
    }
}
