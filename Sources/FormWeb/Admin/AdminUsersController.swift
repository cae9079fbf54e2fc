import FormPages
import FormStore
import Foundation
import Hummingbird
import NIOCore

/// The admin's users page: the accounts, adding one, resetting a password, removing one.
/// Admins only (``AdminOnlyMiddleware`` guards the group); every POST checks the CSRF token.
struct AdminUsersController {
    let users: UserStore
    let secondFactors: SecondFactorStore
    let renderer: PageRenderer

    func addRoutes(to admin: RouterGroup<AppRequestContext>) {
        admin.get("users", use: usersPage)
        admin.post("users", use: addUser)
        admin.post("users/:user/password", use: resetPassword)
        admin.post("users/:user/delete", use: deleteUser)
        admin.post("users/:user/two-factor/off", use: removeSecondFactor)
    }

    /// `GET /admin/users`: the accounts, with password reset and removal, and the add form.
    @Sendable func usersPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let viewer = try context.viewer
        let notice = request.uri.queryParameters["done"].map(String.init).flatMap(AdminNotice.text)
        return try await usersPage(viewer: viewer, notice: notice)
    }

    /// `POST /admin/users`: adds an account; 422 with the form kept when the name or password will not do.
    @Sendable func addUser(_ request: Request, context: AppRequestContext) async throws -> Response {
        let viewer = try context.viewer
        let fields = try await FormBody.verifiedFields(request, viewer: viewer)
        let name = (fields["name"]?.first ?? "").trimmingCharacters(in: .whitespaces)
        let password = fields["password"]?.first ?? ""
        let isAdmin = fields["admin"]?.first == "on"
        var form = NewUserForm(name: name, isAdmin: isAdmin)
        if name.isEmpty {
            form.nameError = "Enter a user name"
        } else if name.count > 64
            || name.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 })
        {
            form.nameError = "Enter a user name of up to 64 characters without spaces"
        } else if try await users.exists(name: name) {
            form.nameError = "The user name \(name) is taken; choose another"
        }
        form.passwordError = PasswordRule.problem(password)
        if form.nameError != nil || form.passwordError != nil {
            return try await usersPage(viewer: viewer, newUser: form, status: .unprocessableContent)
        }
        try await users.create(name: name, password: password, isAdmin: isAdmin)
        return Response.seeOther("/admin/users?done=added")
    }

    /// `POST /admin/users/{id}/password`: sets a new password and ends the account's sessions.
    @Sendable func resetPassword(_ request: Request, context: AppRequestContext) async throws -> Response {
        let viewer = try context.viewer
        let fields = try await FormBody.verifiedFields(request, viewer: viewer)
        let account = try await requireUser(context)
        let password = fields["password"]?.first ?? ""
        if let problem = PasswordRule.problem(password) {
            return try await usersPage(
                viewer: viewer, passwordErrors: [account.id: problem], status: .unprocessableContent)
        }
        try await users.setPassword(password, for: account.id)
        // Resetting one's own password ends one's own session too: sign in again.
        return Response.seeOther(
            account.id == viewer.account?.id ? "/login?next=/admin/users" : "/admin/users?done=password")
    }

    /// `POST /admin/users/{id}/delete`: removes an account (not one's own).
    @Sendable func deleteUser(_ request: Request, context: AppRequestContext) async throws -> Response {
        let viewer = try context.viewer
        _ = try await FormBody.verifiedFields(request, viewer: viewer)
        let account = try await requireUser(context)
        guard account.id != viewer.account?.id else {
            throw HTTPError(.conflict, message: "You cannot remove your own account.")
        }
        try await users.delete(id: account.id)
        return Response.seeOther("/admin/users?done=removed")
    }

    /// `POST /admin/users/{id}/two-factor/off`: turns off another user's second factor (a lost
    /// phone and lost recovery codes); they sign in with their password and may turn it on
    /// again. One's own is turned off on one's own page, with a code.
    @Sendable func removeSecondFactor(_ request: Request, context: AppRequestContext) async throws -> Response {
        let viewer = try context.viewer
        _ = try await FormBody.verifiedFields(request, viewer: viewer)
        let account = try await requireUser(context)
        guard account.id != viewer.account?.id else { return Response.seeOther("/account/two-factor") }
        try await secondFactors.remove(of: account.id)
        context.logger.notice(
            "Second factor turned off by an admin",
            metadata: ["user": "\(account.name)", "account": "\(account.id)", "admin": "\(viewer.account?.name ?? "")"])
        return Response.seeOther("/admin/users?done=two-factor-off")
    }

    /// The users page: each account with its reset and remove forms, and the add form.
    private func usersPage(
        viewer: Viewer, notice: String? = nil, newUser: NewUserForm = NewUserForm(),
        passwordErrors: [UUID: String] = [:], status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        var page = AdminPage(viewer: viewer, token: viewer.csrfToken, heading: "Users")
        page.back = ("/admin", "Admin")
        page.notice = notice
        page.navUsers = true
        page.problems =
            [
                newUser.nameError.map { AdminProblem(text: $0, href: UsersPage.nameField.link) },
                newUser.passwordError.map { AdminProblem(text: $0, href: UsersPage.passwordField.link) },
            ].compactMap { $0 }
            + passwordErrors.map {
                AdminProblem(text: $0.value, href: UsersPage.resetField(of: $0.key.uuidString.lowercased()).link)
            }
        let rows = try await users.list().map { account in
            UsersPage.UserRow(
                id: account.id.uuidString.lowercased(), name: PageText(account.name),
                role: account.isAdmin ? "Administrator" : "User", isSelf: account.id == viewer.account?.id,
                passwordError: PageText(passwordErrors[account.id]), secondFactor: account.hasSecondFactor,
                adminWithout: account.isAdmin && !account.hasSecondFactor)
        }
        let listing = UsersPage(
            layout: page.layout(title: "Users"), admin: page.header, users: rows, newName: PageText(newUser.name),
            newAdmin: newUser.isAdmin, nameError: PageText(newUser.nameError),
            newPasswordError: PageText(newUser.passwordError))
        return try renderer.adminPage(listing, template: "admin/users", status: status)
    }

    private func requireUser(_ context: AppRequestContext) async throws -> Account {
        guard let id = UUID(uuidString: try context.parameters.require("user")),
            let account = try await users.account(id: id)
        else {
            throw HTTPError(.notFound)
        }
        return account
    }
}
