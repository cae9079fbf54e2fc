import Foundation
import HummingbirdBcrypt
import TestSupport
import Testing

@testable import FormStore
@testable import FormWeb

@Suite("Passwords")
struct PasswordTests {
    @Test("12 to 128 characters, counted as characters; not one of the passwords most often used")
    func rule() {
        #expect(PasswordRule.problem("") == "Enter a password")
        #expect(PasswordRule.problem("abcdefghijk") == "Enter a password of at least 12 characters")
        #expect(PasswordRule.problem("12345678") == "Enter a password of at least 12 characters")
        #expect(PasswordRule.problem("lemon tree 42") == nil)
        // 64 accented characters are 128 bytes, and fine; 128 of them too.
        #expect(PasswordRule.problem(String(repeating: "é", count: 64)) == nil)
        #expect(PasswordRule.problem(String(repeating: "ü", count: 128)) == nil)
        #expect(
            PasswordRule.problem(String(repeating: "ü", count: 129)) == "Enter a password of at most 128 characters")
        for common in ["password1234", "qwertyuiop123", "QWERTYUIOP123"] {
            #expect(
                PasswordRule.problem(common)
                    == "Enter a password that is harder to guess: this one is among the passwords most often used",
                "\(common)")
        }
        #expect(CommonPasswords.count == 19_640)
        #expect(CommonPasswords.contains("password") && CommonPasswords.contains("12345678"))
    }

    @Test("the whole password counts, past bcrypt's 72 bytes; é typed either way is one password")
    func hashing() async throws {
        let hasher = PasswordHasher(cost: 4)
        let long = String(repeating: "ä", count: 100)
        let hash = try await hasher.hash(long)
        #expect(hash.hasPrefix("sha256$$2"))
        #expect(try await hasher.verify(long, hash: hash))
        // The same first 72 bytes, another ending: bcrypt alone would take it.
        #expect(try await !hasher.verify(String(repeating: "ä", count: 99) + "b", hash: hash))
        let composed = try await hasher.hash("café au lait 1")
        #expect(try await hasher.verify("cafe\u{301} au lait 1", hash: composed))
        #expect(!hasher.needsRehash(hash))
    }

    @Test("an earlier version's hash still signs in, and is replaced by one of today's kind")
    func legacyHash() async throws {
        try await TestDatabases.run { _, databases in
            let hasher = PasswordHasher(cost: 4)
            let users = try await UserStore(database: databases[0], hasher: hasher)
            let account = try await users.create(name: "old", password: "an old password", isAdmin: false)
            let record = try #require(try await UserRecord.find(account.id, on: databases[0].database()))
            record.passwordHash = Bcrypt.hash("an old password", cost: 4)
            try await record.save(on: databases[0].database())
            #expect(hasher.needsRehash(record.passwordHash))
            #expect(try await users.authenticate(name: "old", password: "an old password")?.id == account.id)
            let upgraded = try #require(try await UserRecord.find(account.id, on: databases[0].database()))
            #expect(upgraded.passwordHash.hasPrefix("sha256$"))
            #expect(try await users.authenticate(name: "old", password: "an old password")?.id == account.id)
            #expect(try await users.authenticate(name: "old", password: "another password") == nil)
        }
    }

    @Test("FIELDWORK_ADMIN_PASSWORD that breaks the rule stops the server at start, saying why")
    func environmentPassword() async throws {
        let data = Fixtures.temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        for (password, reason) in [
            ("a", "at least 12 characters"), ("password1234", "among the passwords most often used"),
        ] {
            var configuration = Fixtures.configuration(data: data)
            configuration.adminPassword = password
            do {
                _ = try await buildApplication(configuration)
                Issue.record("\(password) was taken")
            } catch let error as FieldworkConfigurationError {
                #expect(error.description.hasPrefix("FIELDWORK_ADMIN_PASSWORD is refused: "))
                #expect(error.description.contains(reason))
            }
        }
    }

    @Test("a user changes their own password: the current one asked, the rule kept, other sessions ended")
    func change() async throws {
        try await TestApp.run(forms: [], users: [("ada", "lovelace-1815", false)]) { client in
            let visitor = TestBrowser(client)
            #expect(try await visitor.get("/account/password").location == "/login?next=/account/password")
            let browser = TestBrowser(client)
            let other = TestBrowser(client)
            try await browser.signIn("ada", password: "lovelace-1815")
            try await other.signIn("ada", password: "lovelace-1815")
            let page = try await browser.get("/account/password")
            #expect(page.status == .ok)
            #expect(page.body.contains(#"autocomplete="current-password""#))
            #expect(page.body.contains(#"aria-describedby="field-password-hint""#))
            let csrf = page.csrf ?? ""
            let wrong = try await browser.post(
                "/account/password",
                [("_csrf", csrf), ("current", "not it at all"), ("password", "ada's new password")])
            #expect(wrong.status == .unprocessableContent)
            #expect(wrong.body.contains(##"<a href="#field-current">The current password is wrong</a>"##))
            #expect(!wrong.body.contains("ada&#39;s new password") && !wrong.body.contains("not it at all"))
            let short = try await browser.post(
                "/account/password", [("_csrf", csrf), ("current", "lovelace-1815"), ("password", "short")])
            #expect(short.status == .unprocessableContent)
            #expect(short.body.contains("Enter a password of at least 12 characters"))
            let done = try await browser.post(
                "/account/password",
                [("_csrf", csrf), ("current", "lovelace-1815"), ("password", "ada's new password")])
            #expect(done.status == .seeOther)
            // This browser goes on; the other was signed out with the old password.
            #expect(try await browser.get("/account/password").status == .ok)
            #expect(try await other.get("/account/password").status == .seeOther)
            let fresh = TestBrowser(client)
            let login = try await fresh.get("/login")
            let old = try await fresh.post(
                "/login", [("_csrf", login.csrf ?? ""), ("name", "ada"), ("password", "lovelace-1815")])
            #expect(old.status == .unprocessableContent)
            try await fresh.signIn("ada", password: "ada's new password")
        }
    }
}
