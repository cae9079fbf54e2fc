/// What a new password must be: the rule behind adding a user and resetting a password.
package enum PasswordRule {
    /// What to do about the password, or nil when it will do.
    package static func problem(_ password: String) -> String? {
        if password.isEmpty { return "Enter a password" }
        if password.count < 8 { return "Enter a password of at least 8 characters" }
        // bcrypt reads 72 bytes at most; more would be silently ignored.
        if password.utf8.count > 72 { return "Enter a password of at most 72 bytes" }
        return nil
    }
}
