import FormModel
import FormPages
import FormStore
import Foundation
import Hummingbird
import HummingbirdAuth

/// Sign-in and sign-out.
struct AccountController {
    let users: UserStore
    let csrf: CSRF
    let loginPage: RenderPlan
    let throttle = SignInThrottle()

    func addRoutes(to browser: RouterGroup<AppRequestContext>) {
        browser.get("/login", use: showLogin)
        browser.post("/login", use: login)
        browser.post("/logout", use: logout)
    }

    /// `GET /login?next=/path`: the sign-in form.
    @Sendable func showLogin(_ request: Request, context: AppRequestContext) async throws -> Response {
        let viewer = try context.viewer
        let next = LocalPath.safe(request.uri.queryParameters["next"].map(String.init))
        return page(viewer: viewer, values: ["next": [next]], errors: [], status: .ok)
    }

    /// `POST /login`: 303 to `next` when the name and password match, else 422 with the form again.
    @Sendable func login(_ request: Request, context: AppRequestContext) async throws -> Response {
        let viewer = try context.viewer
        let fields = try await FormBody.verifiedFields(request, viewer: viewer)
        let name = (fields["name"]?.first ?? "").trimmingCharacters(in: .whitespaces)
        let password = fields["password"]?.first ?? ""
        let next = LocalPath.safe(fields["next"]?.first)
        var errors: [FieldError] = []
        if name.isEmpty { errors.append(FieldError(field: "name", message: "Enter your user name")) }
        if password.isEmpty { errors.append(FieldError(field: "password", message: "Enter your password")) }
        if errors.isEmpty, let wait = throttle.attempt(name) {
            let minutes = max(1, Int((wait.components.seconds + 59) / 60))
            errors = [
                FieldError(
                    field: "name",
                    message:
                        "Too many wrong passwords for this user name: wait \(Words.count(minutes, "minute")) and try again"
                )
            ]
            var response = page(
                viewer: viewer, values: ["name": [name], "next": [next]], errors: errors, status: .tooManyRequests)
            response.headers[.retryAfter] = String(max(1, wait.components.seconds))
            return response
        }
        if errors.isEmpty {
            guard let account = try await users.authenticate(name: name, password: password) else {
                errors = [FieldError(field: "name", message: "The user name or password is wrong")]
                return page(
                    viewer: viewer, values: ["name": [name], "next": [next]], errors: errors,
                    status: .unprocessableContent)
            }
            throttle.succeeded(name)
            // A new session id and a new CSRF key: nothing known before sign-in works after it.
            context.sessions.createSession(AppSession(userID: account.id, csrfKey: csrf.makeID()))
            return Response.seeOther(next)
        }
        return page(
            viewer: viewer, values: ["name": [name], "next": [next]], errors: errors, status: .unprocessableContent)
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
