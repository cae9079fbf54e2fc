/// The context of `admin/users`: every account with its reset and remove forms, and the add form.
package struct UsersPage: PageContext {
    package let layout: PageLayout
    package let admin: AdminHeader
    package let users: [UserRow]
    /// The add form as sent, after a refusal.
    package let newName: PageText
    package let newAdmin: Bool
    package let nameError: PageText
    package let newPasswordError: PageText
    /// The ids of the add form's controls.
    package let nameField = Self.nameField
    package let passwordField = Self.passwordField
    package let adminField = ControlIDs("admin")
    package static let nameField = ControlIDs("name")
    package static let passwordField = ControlIDs("password")

    /// An account, with its reset and remove forms.
    package struct UserRow {
        package let id: String
        package let name: PageText
        package let role: String
        package let isSelf: Bool
        package let passwordError: PageText
        /// Whether signing in asks a code after the password.
        package let secondFactor: Bool
        /// An administrator who signs in with a password alone.
        package let adminWithout: Bool
        /// The ids of its reset form's password field.
        package let resetField: ControlIDs

        package init(
            id: String, name: PageText, role: String, isSelf: Bool, passwordError: PageText, secondFactor: Bool,
            adminWithout: Bool
        ) {
            self.id = id
            self.name = name
            self.role = role
            self.isSelf = isSelf
            self.passwordError = passwordError
            self.secondFactor = secondFactor
            self.adminWithout = adminWithout
            resetField = UsersPage.resetField(of: id)
        }
    }

    /// The ids of the password field in the reset form of the account `id`.
    package static func resetField(of id: String) -> ControlIDs { ControlIDs(id: "password-" + id) }

    package init(
        layout: PageLayout, admin: AdminHeader, users: [UserRow], newName: PageText, newAdmin: Bool,
        nameError: PageText, newPasswordError: PageText
    ) {
        self.layout = layout
        self.admin = admin
        self.users = users
        self.newName = newName
        self.newAdmin = newAdmin
        self.nameError = nameError
        self.newPasswordError = newPasswordError
    }
}
