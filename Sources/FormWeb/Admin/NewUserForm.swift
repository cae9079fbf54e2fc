/// The fields of the add-user form, kept after a refusal.
struct NewUserForm {
    var name = ""
    var isAdmin = false
    var nameError: String?
    var passwordError: String?
}
