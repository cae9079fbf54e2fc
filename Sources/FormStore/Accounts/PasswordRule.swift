import Foundation

/// What a new password must be (ASVS 4.0 2.1): the rule behind adding a user, resetting and
/// changing a password, and `FIELDWORK_ADMIN_PASSWORD`. At least 12 characters and at most 128,
/// counted as a person counts them (`é` is one, whatever its bytes: ``PasswordHasher`` hashes a
/// digest, so bcrypt's 72-byte limit cuts nothing); any characters, spaces included; and not
/// one of the passwords most often used (``CommonPasswords``). No rules of composition: they
/// make passwords harder to remember, not to guess.
package enum PasswordRule {
    package static let minimumLength = 12
    package static let maximumLength = 128

    /// What to do about the password, or nil when it will do.
    package static func problem(_ password: String) -> String? {
        if password.isEmpty { return "Enter a password" }
        let length = password.count
        if length < minimumLength { return "Enter a password of at least \(minimumLength) characters" }
        if length > maximumLength { return "Enter a password of at most \(maximumLength) characters" }
        if CommonPasswords.contains(password) {
            return "Enter a password that is harder to guess: this one is among the passwords most often used"
        }
        return nil
    }
}

/// The 19,640 passwords most often found in breaches (`Resources/common-passwords.txt`, one a
/// line, lower-case): Django's list (django/contrib/auth/common-passwords.txt.gz, Django 5.2.19,
/// BSD-3-Clause, `Resources/common-passwords.LICENSE`), made by Royce Williams from Have I Been
/// Pwned's Pwned Passwords. Read once, when first asked.
package enum CommonPasswords {
    /// Whether `password`, in any letter case, is on the list.
    package static func contains(_ password: String) -> Bool {
        list.contains(password.lowercased())
    }

    /// How many passwords the list holds.
    package static var count: Int { list.count }

    private static let list: Set<String> = {
        guard let url = Bundle.module.url(forResource: "common-passwords", withExtension: "txt"),
            let data = try? Data(contentsOf: url)
        else {
            // Shipped with the package: a build without it is broken, not a server to run.
            fatalError("Resources/common-passwords.txt is missing from the FormStore bundle")
        }
        return Set(String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init))
    }()
}
