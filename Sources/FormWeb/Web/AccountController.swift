import FormModel
import FormPages
import FormStore
import Foundation
import Hummingbird
import Logging

/// Sign-in and sign-out.
struct AccountController {
    let users: UserStore
    let csrf: CSRF
    let loginPage: RenderPlan
    let passwordPage: RenderPlan
    /// Ends a browser's session at a new sign-in.
    let renewal: SessionRenewal
    /// Counts wrong passwords and wrong codes alike.
    let throttle: SignInThrottle

    func addRoutes(to browser: RouterGroup<AppRequestContext>) {
        browser.get("/login", use: showLogin)
        browser.post("/login", use: login)
        browser.post("/logout", use: logout)
        browser.get("/account/password", use: showChangePassword)
        browser.post("/account/password", use: changePassword)
    }

    /// `GET /login?next=/path`: the sign-in form.
    @Sendable func showLogin(_ request: Request, context: AppRequestContext) async throws -> Response {
        let viewer = try context.viewer
        let next = LocalPath.safe(request.uri.queryParameters["next"].map(String.init))
        return page(viewer: viewer, values: ["next": [next]], errors: [], status: .ok)
    }

    /// `POST /login`: 303 to `next` when the name and password match, else 422 with the form again.
    ///
    /// Every success, refusal and hold is logged at `notice` with the user name and the client's
    /// address (the request id is on every line of the request); never the password.
    @Sendable func login(_ request: Request, context: AppRequestContext) async throws -> Response {
        let viewer = try context.viewer
        let fields = try await FormBody.verifiedFields(request, viewer: viewer)
        let name = (fields["name"]?.first ?? "").trimmingCharacters(in: .whitespaces)
        let password = fields["password"]?.first ?? ""
        let next = LocalPath.safe(fields["next"]?.first)
        let address = context.clientAddress
        var log: Logger.Metadata = ["user": "\(name)", "client": "\(address ?? "unknown")"]
        var errors: [FieldError] = []
        if name.isEmpty { errors.append(FieldError(field: "name", message: "Enter your user name")) }
        if password.isEmpty { errors.append(FieldError(field: "password", message: "Enter your password")) }
        if errors.isEmpty, let held = throttle.attempt(name: name, address: address) {
            let whose = held.subject == .name ? "for this user name" : "from your network"
            return await held.response(
                logging: "Sign-in held back", log, to: context.logger,
                message: { "Too many wrong passwords \(whose): wait \($0) and try again" },
                render: {
                    page(
                        viewer: viewer, values: ["name": [name], "next": [next]],
                        errors: [FieldError(field: "name", message: $0)], status: .tooManyRequests)
                })
        }
        if errors.isEmpty {
            guard let account = try await users.authenticate(name: name, password: password) else {
                context.logger.notice("Sign-in refused: wrong user name or password", metadata: log)
                errors = [FieldError(field: "name", message: "The user name or password is wrong")]
                return page(
                    viewer: viewer, values: ["name": [name], "next": [next]], errors: errors,
                    status: .unprocessableContent)
            }
            log["account"] = "\(account.id)"
            if account.hasSecondFactor {
                // Half way: a session good for the code page alone, for a few minutes. The name's
                // count of wrong tries stays until the code is right, so knowing the password
                // buys no fresh guesses at the code.
                try await renewal.renew(
                    AppSession(userID: account.id, csrfKey: csrf.makeID(), secondFactorDue: true), request: request,
                    context: context, expiresIn: SecondFactorController.codeTime)
                context.logger.notice("Sign-in password accepted; code asked", metadata: log)
                return Response.seeOther("/login/code?next=\(LocalPath.percentEncoded(next))")
            }
            throttle.succeeded(name: name)
            // A new session id and a new CSRF key: nothing known before sign-in works after it.
            // A session this browser had (another account's, or this one's) ends here, in the
            // store too, so its id opens nothing any more.
            try await renewal.renew(
                AppSession(userID: account.id, csrfKey: csrf.makeID()), request: request, context: context)
            context.logger.notice("Sign-in succeeded", metadata: log)
            return Response.seeOther(next)
        }
        return page(
            viewer: viewer, values: ["name": [name], "next": [next]], errors: errors, status: .unprocessableContent)
    }

    /// `GET /account/password`: the change-password form of the signed-in user; a visitor is
    /// sent to sign in first.
    @Sendable func showChangePassword(_ request: Request, context: AppRequestContext) async throws -> Response {
        let viewer = try context.viewer
        guard viewer.account != nil else { return Response.seeOther("/login?next=/account/password") }
        return passwordPage(viewer: viewer, errors: [], status: .ok)
    }

    /// `POST /account/password`: asks the current password (slowed as a sign-in is, so the page
    /// is no way round the throttle), checks the new one against ``PasswordRule``, stores it,
    /// ends every other session of the account and gives this browser a new one; 303 to `/`.
    @Sendable func changePassword(_ request: Request, context: AppRequestContext) async throws -> Response {
        let viewer = try context.viewer
        guard let account = viewer.account else { return Response.seeOther("/login?next=/account/password") }
        let fields = try await FormBody.verifiedFields(request, viewer: viewer)
        let current = fields["current"]?.first ?? ""
        let new = fields["password"]?.first ?? ""
        let log: Logger.Metadata = ["user": "\(account.name)", "client": "\(context.clientAddress ?? "unknown")"]
        var errors: [FieldError] = []
        if current.isEmpty { errors.append(FieldError(field: "current", message: "Enter your current password")) }
        if let problem = PasswordRule.problem(new) {
            errors.append(
                FieldError(field: "password", message: problem == "Enter a password" ? "Enter a new password" : problem)
            )
        } else if new == current {
            errors.append(
                FieldError(field: "password", message: "Enter a new password that differs from the current one"))
        }
        guard errors.isEmpty else { return passwordPage(viewer: viewer, errors: errors, status: .unprocessableContent) }
        if let held = throttle.attempt(name: account.name, address: context.clientAddress) {
            return await held.response(
                logging: "Password change held back", log, to: context.logger,
                message: { "Too many wrong passwords: wait \($0) and try again" },
                render: {
                    passwordPage(
                        viewer: viewer, errors: [FieldError(field: "current", message: $0)], status: .tooManyRequests)
                })
        }
        guard try await users.authenticate(name: account.name, password: current) != nil else {
            context.logger.notice("Password change refused: wrong current password", metadata: log)
            return passwordPage(
                viewer: viewer, errors: [FieldError(field: "current", message: "The current password is wrong")],
                status: .unprocessableContent)
        }
        throttle.succeeded(name: account.name)
        // Every session of the account ends with the old password (on every instance); this
        // browser goes on in a new one.
        try await users.setPassword(new, for: account.id)
        try await renewal.renew(
            AppSession(userID: account.id, csrfKey: csrf.makeID()), request: request, context: context)
        context.logger.notice("Password changed", metadata: log)
        return Response.seeOther("/")
    }

    private func passwordPage(viewer: Viewer, errors: [FieldError], status: HTTPResponse.Status) -> Response {
        let state = RenderState(values: [:], errors: errors, csrfToken: viewer.csrfToken)
        return HTMLResponse.page(passwordPage.render(state), status: status, cacheControl: "no-store")
    }

    /// `POST /logout`: ends the session; 303 to `/`.
    @Sendable func logout(_ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try await FormBody.verifiedFields(request, viewer: try context.viewer)
        context.sessions.clearSession()
        return Response.seeOther("/")
    }

    private func page(
        viewer: Viewer, values: [String: [String]], errors: [FieldError], status: HTTPResponse.Status
    )
        -> Response
    {
        let state = RenderState(values: values, errors: errors, csrfToken: viewer.csrfToken)
        return HTMLResponse.page(loginPage.render(state), status: status, cacheControl: "no-store")
    }
}
