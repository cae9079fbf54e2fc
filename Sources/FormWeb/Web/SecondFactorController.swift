import FormModel
import FormPages
import FormStore
import Foundation
import Hummingbird
import Logging

/// The second factor: the code asked at sign-in after a right password, and the page where a
/// signed-in user turns it on (`otpauth://` link and key, a code to confirm, recovery codes
/// shown once), makes new recovery codes or turns it off. Admins are asked to turn it on on
/// every admin page; the users page shows who has it.
struct SecondFactorController {
    let users: UserStore
    let factors: SecondFactors
    let csrf: CSRF
    let codePage: RenderPlan
    let renderer: PageRenderer
    let renewal: SessionRenewal
    let throttle: SignInThrottle

    /// How long a right password waits for its code before signing in starts over.
    static let codeTime: Duration = .seconds(5 * 60)

    func addRoutes(to browser: RouterGroup<AppRequestContext>) {
        browser.get("/login/code", use: showCode)
        browser.post("/login/code", use: enterCode)
        browser.get("/account/two-factor", use: showSettings)
        browser.post("/account/two-factor", use: turnOn)
        browser.post("/account/two-factor/recovery-codes", use: makeRecoveryCodes)
        browser.post("/account/two-factor/off", use: turnOff)
    }

    // MARK: Signing in

    /// `GET /login/code?next=/path`: the code field, for a browser whose password was right a
    /// moment ago; any other is sent to sign in.
    @Sendable func showCode(_ request: Request, context: AppRequestContext) async throws -> Response {
        let viewer = try context.viewer
        let next = LocalPath.safe(request.uri.queryParameters["next"].map(String.init))
        guard context.sessions.session?.secondFactorDue == true else {
            return Response.seeOther("/login?next=\(LocalPath.percentEncoded(next))")
        }
        return page(codePage, viewer: viewer, values: ["next": [next]], errors: [], status: .ok)
    }

    /// `POST /login/code`: with the app's code for now (or a recovery code) the sign-in is
    /// done: a new session, 303 to `next`. A wrong code counts with the wrong passwords of the
    /// name and the address (``SignInThrottle``); every outcome is logged at `notice`.
    @Sendable func enterCode(_ request: Request, context: AppRequestContext) async throws -> Response {
        let viewer = try context.viewer
        let fields = try await FormBody.verifiedFields(request, viewer: viewer)
        let next = LocalPath.safe(fields["next"]?.first)
        guard let session = context.sessions.session, session.secondFactorDue == true,
            let account = try await users.account(id: session.userID)
        else {
            // The few minutes passed (or the account went): the password is asked again.
            return Response.seeOther("/login?next=\(LocalPath.percentEncoded(next))")
        }
        let typed = (fields["code"]?.first ?? "").trimmingCharacters(in: .whitespaces)
        var log = Self.metadata(of: account, context: context)
        func refused(_ message: String, status: HTTPResponse.Status = .unprocessableContent) -> Response {
            page(
                codePage, viewer: viewer, values: ["next": [next]],
                errors: [FieldError(field: "code", message: message)], status: status)
        }
        guard !typed.isEmpty else { return refused("Enter the code from your authenticator app") }
        if let held = throttle.attempt(name: account.name, address: context.clientAddress) {
            return await held.response(
                logging: "Sign-in code held back", log, to: context.logger,
                message: { "Too many wrong codes or passwords: wait \($0) and try again" },
                render: { refused($0, status: .tooManyRequests) })
        }
        switch try await factors.check(typed, for: account) {
        case .wrong:
            context.logger.notice("Sign-in refused: wrong code", metadata: log)
            return refused("The code is wrong or has expired: enter the code your app shows now")
        case .spent:
            context.logger.notice("Sign-in refused: code used already", metadata: log)
            return refused("This code was used already: wait for the next one your app shows and enter it")
        case .code:
            log["factor"] = "app code"
        case .recoveryCode(let left):
            log["factor"] = "recovery code, \(left) left"
        }
        throttle.succeeded(name: account.name)
        try await renewal.renew(
            AppSession(userID: account.id, csrfKey: csrf.makeID()), request: request, context: context)
        context.logger.notice("Sign-in succeeded", metadata: log)
        return Response.seeOther(next)
    }

    private func page(
        _ plan: RenderPlan, viewer: Viewer, values: [String: [String]], errors: [FieldError],
        status: HTTPResponse.Status
    ) -> Response {
        let state = RenderState(values: values, errors: errors, csrfToken: viewer.csrfToken)
        return HTMLResponse.page(plan.render(state), status: status, cacheControl: "no-store")
    }

    // MARK: Turning it on and off

    /// `GET /account/two-factor`: the enrolment (link and key, code to confirm) while the
    /// account has no second factor, else its recovery codes left, new codes and turning off.
    @Sendable func showSettings(_ request: Request, context: AppRequestContext) async throws -> Response {
        let viewer = try context.viewer
        guard let account = viewer.account else { return Response.seeOther("/login?next=/account/two-factor") }
        let notice = request.uri.queryParameters["done"].flatMap { $0 == "off" ? "Two-step sign-in is off." : nil }
        return try await settings(account: account, viewer: viewer, notice: notice)
    }

    /// `POST /account/two-factor`: the code made with the key shown turns the second factor on;
    /// the recovery codes are shown once, and every other session of the account ends.
    @Sendable func turnOn(_ request: Request, context: AppRequestContext) async throws -> Response {
        let viewer = try context.viewer
        guard let account = viewer.account else { return Response.seeOther("/login?next=/account/two-factor") }
        let fields = try await FormBody.verifiedFields(request, viewer: viewer)
        let typed = fields["code"]?.first ?? ""
        guard !account.hasSecondFactor else { return Response.seeOther("/account/two-factor") }
        guard let code = SecondFactors.sixDigits(typed) else {
            return try await settings(
                account: account, viewer: viewer,
                errors: [.enrol: "Enter the 6-digit code your authenticator app shows for Fieldwork"])
        }
        guard let codes = try await factors.confirm(code, for: account) else {
            return try await settings(
                account: account, viewer: viewer,
                errors: [
                    .enrol:
                        "The code is wrong or has expired: check the key in your app and enter the code it shows now"
                ])
        }
        try await renewal.renew(
            AppSession(userID: account.id, csrfKey: csrf.makeID()), request: request, context: context)
        context.logger.notice(
            "Second factor turned on", metadata: Self.metadata(of: account, context: context))
        return try shownCodes(codes, viewer: viewer, csrfToken: nil, heading: "Two-step sign-in is on")
    }

    /// `POST /account/two-factor/recovery-codes`: with a code from the app, ten new recovery
    /// codes replace the old ones, shown once.
    @Sendable func makeRecoveryCodes(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await withCode(request, context: context, form: .newCodes) { account, viewer in
            guard let codes = try await factors.newRecoveryCodes(for: account) else {
                return Response.seeOther("/account/two-factor")
            }
            context.logger.notice(
                "Recovery codes made again", metadata: Self.metadata(of: account, context: context))
            return try shownCodes(codes, viewer: viewer, csrfToken: viewer.csrfToken, heading: "New recovery codes")
        }
    }

    /// `POST /account/two-factor/off`: with a code from the app, the account signs in with its
    /// password alone again.
    @Sendable func turnOff(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await withCode(request, context: context, form: .off) { account, _ in
            try await factors.store.remove(of: account.id)
            context.logger.notice(
                "Second factor turned off", metadata: Self.metadata(of: account, context: context))
            return Response.seeOther("/account/two-factor?done=off")
        }
    }

    /// Who a log line is about: the account's name and id, and the client's address.
    private static func metadata(of account: Account, context: AppRequestContext) -> Logger.Metadata {
        ["user": "\(account.name)", "client": "\(context.clientAddress ?? "unknown")", "account": "\(account.id)"]
    }

    /// Runs `body` when the form brought a right code (the app's or a recovery code), else
    /// answers the settings page with the form's error; held back as sign-in is.
    private func withCode(
        _ request: Request, context: AppRequestContext, form: TwoFactorPage.Form,
        _ body: (Account, Viewer) async throws -> Response
    ) async throws -> Response {
        let viewer = try context.viewer
        guard let account = viewer.account else { return Response.seeOther("/login?next=/account/two-factor") }
        let fields = try await FormBody.verifiedFields(request, viewer: viewer)
        guard account.hasSecondFactor else { return Response.seeOther("/account/two-factor") }
        let typed = (fields["code"]?.first ?? "").trimmingCharacters(in: .whitespaces)
        guard !typed.isEmpty else {
            return try await settings(
                account: account, viewer: viewer, errors: [form: "Enter the code from your authenticator app"])
        }
        if let held = throttle.attempt(name: account.name, address: context.clientAddress) {
            return try await held.response(
                logging: "Two-step sign-in setting held back", Self.metadata(of: account, context: context),
                to: context.logger,
                message: { "Too many wrong codes or passwords: wait \($0) and try again" },
                render: {
                    try await settings(account: account, viewer: viewer, errors: [form: $0], status: .tooManyRequests)
                })
        }
        switch try await factors.check(typed, for: account) {
        case .wrong, .spent:
            context.logger.notice(
                "Two-step sign-in setting refused: wrong code", metadata: Self.metadata(of: account, context: context))
            return try await settings(
                account: account, viewer: viewer,
                errors: [form: "The code is wrong or has expired: enter the code your app shows now"])
        case .code, .recoveryCode:
            throttle.succeeded(name: account.name)
            return try await body(account, viewer)
        }
    }

    private func settings(
        account: Account, viewer: Viewer, notice: String? = nil, errors: [TwoFactorPage.Form: String] = [:],
        status: HTTPResponse.Status? = nil
    ) async throws -> Response {
        var context = TwoFactorPage(csrf: viewer.csrfToken, notice: notice, errors: errors)
        if account.hasSecondFactor {
            let left = try await factors.store.recoveryCodesLeft(of: account.id)
            context.on = [
                TwoFactorPage.On(
                    codesLeft: PageText(Words.count(left, "recovery code")), lowOnCodes: left <= 3,
                    newCodesError: PageText(errors[.newCodes]), offError: PageText(errors[.off]))
            ]
        } else {
            let enrolment = try await factors.enrolment(for: account)
            context.enrol = [
                TwoFactorPage.Enrol(
                    link: PageText(enrolment.link), key: PageText(enrolment.key), error: PageText(errors[.enrol]))
            ]
        }
        return try renderer.adminPage(
            context, template: "two-factor", status: status ?? (errors.isEmpty ? .ok : .unprocessableContent))
    }

    private func shownCodes(_ codes: [String], viewer: Viewer, csrfToken: String?, heading: String) throws -> Response {
        var context = TwoFactorPage(csrf: csrfToken ?? "", notice: nil, errors: [:])
        context.codes = [TwoFactorPage.Codes(heading: PageText(heading), list: codes.map { PageText($0) })]
        return try renderer.adminPage(context, template: "two-factor")
    }
}
