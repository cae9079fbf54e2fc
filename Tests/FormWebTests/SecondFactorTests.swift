import FluentKit
import Foundation
import Logging
import Synchronization
import TestSupport
import Testing

@testable import FormStore
@testable import FormWeb

/// The second factor (ASVS 4.0 2.8): TOTP as RFC 6238 makes it, each code once, recovery codes
/// once each, neither readable from the database, and sign-in asking for it once enrolled.
@Suite("Second factor")
struct SecondFactorTests {
    /// RFC 6238's SHA-1 secret and its test vectors, cut to six digits.
    @Test("codes are RFC 6238's; the link and key carry the secret in base32")
    func rfcVectors() {
        let secret = "12345678901234567890"
        let vectors: [(TimeInterval, String)] = [
            (59, "287082"), (1_111_111_109, "081804"), (1_111_111_111, "050471"), (1_234_567_890, "005924"),
            (2_000_000_000, "279037"), (20_000_000_000, "353130"),
        ]
        for (time, code) in vectors {
            #expect(SecondFactors.code(secret: secret, at: Date(timeIntervalSince1970: time)) == code, "\(time)")
        }
        // A code of the step before or after is taken; two steps off is not.
        let now = Date(timeIntervalSince1970: 1_111_111_111)
        let before = SecondFactors.code(secret: secret, at: now - 30)
        let after = SecondFactors.code(secret: secret, at: now + 30)
        func steps(_ typed: String) -> [Int64] {
            SecondFactors.sixDigits(typed).map { SecondFactors.steps(matching: $0, secret: secret, at: now) } ?? []
        }
        #expect(steps(before) == [1_111_111_111 / 30 - 1])
        #expect(steps("\(after.prefix(3)) \(after.dropFirst(3))") == [1_111_111_111 / 30 + 1])
        #expect(steps(SecondFactors.code(secret: secret, at: now + 60)).isEmpty)
        #expect(SecondFactors.sixDigits("12345") == nil && SecondFactors.sixDigits("12345x") == nil)
        #expect(SecondFactors.sixDigits("012 345") == 12345 && SecondFactors.sixDigits("１２３４５６") == nil)
        #expect(SecondFactors.grouped("GEZDGNBVGY3TQOJQ") == "GEZD GNBV GY3T QOJQ")
        #expect(Self.base32Decode("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ") == secret)
        let code = SecondFactors.makeRecoveryCode()
        #expect(code.count == 11 && code.dropFirst(5).first == "-")
    }

    @Test(
        "the store: a step is accepted once and none before it, a recovery code once; the database holds neither in clear"
    )
    func store() async throws {
        try await TestDatabases.run { data, databases in
            let sealing = SealingKey(key: .init(size: .bits256))
            let store = SecondFactorStore(database: databases[0], sealing: sealing)
            let users = try await UserStore(database: databases[0], hasher: PasswordHasher(cost: 4))
            let account = try await users.create(name: "ada", password: "lovelace-1815", isAdmin: true)
            #expect(try await store.secret(of: account.id) == nil)
            #expect(try await !store.accept(step: 10, of: account.id), "no factor: no code")
            try await store.setPending("the pending secret", of: account.id)
            #expect(try await store.pendingSecret(of: account.id) == "the pending secret")
            #expect(try await !store.activate("another secret", step: 5, recoveryCodes: [], of: account.id))
            #expect(
                try await store.activate(
                    "the pending secret", step: 5, recoveryCodes: ["abcde-fghjk", "mnpqr-stuvw"], of: account.id))
            #expect(try await users.account(id: account.id)?.hasSecondFactor == true)
            #expect(try await store.secret(of: account.id)?.secret == "the pending secret")
            #expect(try await store.pendingSecret(of: account.id) == nil)
            #expect(try await !store.accept(step: 5, of: account.id), "the enrolment's code is spent")
            #expect(try await store.accept(step: 7, of: account.id))
            #expect(try await !store.accept(step: 6, of: account.id), "an earlier step after a later one")
            // Two requests with the same code at once: one wins.
            let wins = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<4 { group.addTask { try await store.accept(step: 9, of: account.id) } }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(wins == 1)
            // Typed in capitals and without the hyphen, a recovery code is the same code, once.
            #expect(try await store.takeRecoveryCode("ABCDEFGHJK", of: account.id) == 1)
            #expect(try await store.takeRecoveryCode("abcde-fghjk", of: account.id) == nil)
            #expect(try await store.recoveryCodesLeft(of: account.id) == 1)
            // Neither the secret nor a code is in the row as typed; a digest under another key
            // is another digest.
            let record = try #require(try await UserRecord.find(account.id, on: databases[0].database()))
            let row = [record.totpSecret, record.recoveryCodes].compactMap { $0 }.joined(separator: " ")
            #expect(!row.contains("the pending secret") && !row.contains("mnpqr") && !row.contains("mnpqrstuvw"))
            let other = SecondFactorStore(database: databases[0], sealing: SealingKey(key: .init(size: .bits256)))
            #expect(try await other.takeRecoveryCode("mnpqr-stuvw", of: account.id) == nil)
            #expect(try await store.replaceRecoveryCodes(with: ["22222-33333"], of: account.id))
            #expect(try await store.takeRecoveryCode("mnpqr-stuvw", of: account.id) == nil, "replaced")
            try await store.remove(of: account.id)
            #expect(try await users.account(id: account.id)?.hasSecondFactor == false)
            #expect(try await store.takeRecoveryCode("22222-33333", of: account.id) == nil)
        }
    }

    /// A clock the test moves.
    final class Clock: Sendable {
        let date = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        var now: Date { date.withLock { $0 } }
        func advance(_ seconds: TimeInterval) { date.withLock { $0 += seconds } }
    }

    @Test(
        "an admin turns it on; then signing in asks a code, once per code; a recovery code works once; others' sessions end"
    )
    func signIn() async throws {
        let clock = Clock()
        let kept = SignInLogTests.Kept()
        try await TestApp.run(
            forms: [], users: [("ada", "lovelace-1815", true)],
            configure: { configuration in
                configuration.codeClock = { clock.now }
                configuration.logLevel = .notice
                configuration.logger = Logger(label: "fieldwork-test") { _ in SignInLogTests.Keeper(kept: kept) }
            }
        ) { client in
            let browser = TestBrowser(client)
            let elsewhere = TestBrowser(client)
            try await browser.signIn("ada", password: "lovelace-1815")
            try await elsewhere.signIn("ada", password: "lovelace-1815")
            // Every admin page asks, and the users page says who has none.
            let users = try await browser.get("/admin/users")
            #expect(users.body.contains(#"<a href="/account/two-factor">Turn on two-step sign-in</a>"#))
            #expect(users.body.contains("<strong>None</strong>"))

            let enrol = try await browser.get("/account/two-factor")
            #expect(enrol.status == .ok)
            #expect(enrol.title == "Two-step sign-in – Fieldwork")
            let link = try #require(enrol.body.firstMatch(of: /href="(otpauth:\/\/totp\/[^"]*)"/).map { String($0.1) })
            #expect(link.hasPrefix("otpauth://totp/Fieldwork:ada?secret="))
            #expect(link.hasSuffix("&amp;issuer=Fieldwork"))
            let key = try #require(enrol.body.firstMatch(of: /id="two-factor-key">([A-Z2-7 ]+)</).map { String($0.1) })
            let secret = try #require(Self.base32Decode(key.filter { $0 != " " }))
            // A reload shows the same key: the app may hold it already.
            #expect(try await browser.get("/account/two-factor").body.contains(key))

            let wrong = try await browser.post(
                "/account/two-factor", [("_csrf", enrol.csrf ?? ""), ("code", "000000")])
            #expect(wrong.status == .unprocessableContent)
            #expect(wrong.title == "Error: Two-step sign-in – Fieldwork")
            #expect(wrong.body.contains(##"<li><a href="#field-code">The code is wrong or has expired"##))
            #expect(wrong.body.contains(#"aria-describedby="field-code-hint field-code-error" aria-invalid="true""#))
            let on = try await browser.post(
                "/account/two-factor",
                [("_csrf", enrol.csrf ?? ""), ("code", SecondFactors.code(secret: secret, at: clock.now))])
            #expect(on.status == .ok)
            let codes = on.body.matches(of: /<li>([a-z2-9]{5}-[a-z2-9]{5})<\/li>/).map { String($0.1) }
            #expect(codes.count == 10 && Set(codes).count == 10)
            // The session that turned it on goes on (anew); every other ends.
            #expect(try await browser.get("/admin/users").status == .ok)
            #expect(try await elsewhere.get("/admin/users").status == .seeOther)
            let listed = try await browser.get("/admin/users")
            #expect(!listed.body.contains("Turn on two-step sign-in"))
            #expect(listed.body.contains("<td>On</td>"))

            // Signing in: the password, then the code page; the half-way session opens nothing.
            let fresh = TestBrowser(client)
            let login = try await fresh.get("/login")
            let password = try await fresh.post(
                "/login",
                [("_csrf", login.csrf ?? ""), ("name", "ada"), ("password", "lovelace-1815"), ("next", "/admin/users")])
            #expect(password.status == .seeOther)
            #expect(password.location == "/login/code?next=/admin/users")
            #expect(try await fresh.get("/admin/users").status == .seeOther)
            #expect(try await fresh.get("/account/two-factor").location == "/login?next=/account/two-factor")
            let codePage = try await fresh.get("/login/code?next=/admin/users")
            #expect(codePage.status == .ok)
            #expect(codePage.title == "Enter your code – Fieldwork")
            #expect(codePage.body.contains(#"autocomplete="one-time-code""#))
            // The code the enrolment used is spent.
            let spent = try await fresh.post(
                "/login/code",
                [
                    ("_csrf", codePage.csrf ?? ""), ("code", SecondFactors.code(secret: secret, at: clock.now)),
                    ("next", "/admin/users"),
                ])
            #expect(spent.status == .unprocessableContent)
            #expect(spent.body.contains("This code was used already"))
            clock.advance(30)
            let code = SecondFactors.code(secret: secret, at: clock.now)
            let done = try await fresh.post(
                "/login/code", [("_csrf", codePage.csrf ?? ""), ("code", code), ("next", "/admin/users")])
            #expect(done.status == .seeOther)
            #expect(done.location == "/admin/users")
            #expect(try await fresh.get("/admin/users").status == .ok)

            // The same code again, from another browser with the password: spent.
            let thief = TestBrowser(client)
            let thiefLogin = try await thief.get("/login")
            _ = try await thief.post(
                "/login", [("_csrf", thiefLogin.csrf ?? ""), ("name", "ada"), ("password", "lovelace-1815")])
            let thiefPage = try await thief.get("/login/code")
            #expect(
                try await thief.post("/login/code", [("_csrf", thiefPage.csrf ?? ""), ("code", code)]).status
                    == .unprocessableContent)
            // A recovery code, in capitals without its hyphen, works once.
            let recovery = codes[0].uppercased().replacingOccurrences(of: "-", with: "")
            let rescued = try await thief.post("/login/code", [("_csrf", thiefPage.csrf ?? ""), ("code", recovery)])
            #expect(rescued.status == .seeOther)
            let settings = try await thief.get("/account/two-factor")
            #expect(settings.body.contains("You have 9 recovery codes left."))
            let again = TestBrowser(client)
            let againLogin = try await again.get("/login")
            _ = try await again.post(
                "/login", [("_csrf", againLogin.csrf ?? ""), ("name", "ada"), ("password", "lovelace-1815")])
            let againPage = try await again.get("/login/code")
            #expect(
                try await again.post("/login/code", [("_csrf", againPage.csrf ?? ""), ("code", codes[0])]).status
                    == .unprocessableContent)

            // New recovery codes and turning off both ask a code.
            let refused = try await browser.post(
                "/account/two-factor/off", [("_csrf", settings.csrf ?? ""), ("code", "")])
            #expect(refused.status == .forbidden, "the browser's own token, not the thief's")
            let mine = try await browser.get("/account/two-factor")
            let noCode = try await browser.post("/account/two-factor/off", [("_csrf", mine.csrf ?? ""), ("code", "")])
            #expect(noCode.status == .unprocessableContent)
            #expect(
                noCode.body.contains(
                    ##"<li><a href="#field-off-code">Enter the code from your authenticator app</a></li>"##))
            clock.advance(30)
            let renewed = try await browser.post(
                "/account/two-factor/recovery-codes",
                [("_csrf", mine.csrf ?? ""), ("code", SecondFactors.code(secret: secret, at: clock.now))])
            #expect(renewed.status == .ok)
            #expect(renewed.body.matches(of: /<li>([a-z2-9]{5}-[a-z2-9]{5})<\/li>/).count == 10)
            clock.advance(30)
            let off = try await browser.post(
                "/account/two-factor/off",
                [("_csrf", mine.csrf ?? ""), ("code", SecondFactors.code(secret: secret, at: clock.now))])
            #expect(off.location == "/account/two-factor?done=off")
            try await TestBrowser(client).signIn("ada", password: "lovelace-1815")
        }
        let messages = kept.all.filter { $0.metadata["user"] == "ada" }.map(\.message)
        #expect(messages.contains("Second factor turned on"))
        #expect(messages.contains("Sign-in password accepted; code asked"))
        #expect(messages.filter { $0 == "Sign-in refused: code used already" }.count == 2)
        #expect(messages.filter { $0 == "Sign-in refused: wrong code" }.count == 1)
        #expect(messages.contains("Second factor turned off"))
        #expect(
            kept.all.contains { $0.message == "Sign-in succeeded" && $0.metadata["factor"] == "recovery code, 9 left" })
    }

    @Test("wrong codes count with wrong passwords: a guesser who knows the password gets no fresh tries")
    func throttled() async throws {
        let clock = Clock()
        try await TestApp.run(
            forms: [], users: [("ada", "lovelace-1815", true)], configure: { $0.codeClock = { clock.now } }
        ) { client in
            let browser = TestBrowser(client)
            try await browser.signIn("ada", password: "lovelace-1815")
            let enrol = try await browser.get("/account/two-factor")
            let key = try #require(enrol.body.firstMatch(of: /id="two-factor-key">([A-Z2-7 ]+)</).map { String($0.1) })
            let secret = try #require(Self.base32Decode(key.filter { $0 != " " }))
            let right = SecondFactors.code(secret: secret, at: clock.now)
            #expect(
                try await browser.post("/account/two-factor", [("_csrf", enrol.csrf ?? ""), ("code", right)]).status
                    == .ok)
            let wrongCode = right == "111111" ? "222222" : "111111"
            var statuses: [Int] = []
            for _ in 1...4 {
                // Password (right) and a wrong code, twice over: the fourth password or code waits.
                let guesser = TestBrowser(client)
                let login = try await guesser.get("/login")
                let password = try await guesser.post(
                    "/login", [("_csrf", login.csrf ?? ""), ("name", "ada"), ("password", "lovelace-1815")])
                statuses.append(password.status.code)
                guard password.status == .seeOther else { continue }
                let page = try await guesser.get("/login/code")
                statuses.append(
                    try await guesser.post("/login/code", [("_csrf", page.csrf ?? ""), ("code", wrongCode)]).status.code
                )
            }
            // 5 free tries (password or code alike), then a wait.
            #expect(statuses.prefix(5) == [303, 422, 303, 422, 303])
            #expect(statuses.dropFirst(5).first == 429)
        }
    }

    @Test("an admin turns off another user's second factor (a lost phone), not their own that way")
    func adminTurnsOff() async throws {
        let clock = Clock()
        try await TestApp.run(
            forms: [], users: [("ada", "lovelace-1815", true), ("bob", "bob's password 1", false)],
            configure: { $0.codeClock = { clock.now } }
        ) { client in
            let bob = TestBrowser(client)
            try await bob.signIn("bob", password: "bob's password 1")
            let enrol = try await bob.get("/account/two-factor")
            let key = try #require(enrol.body.firstMatch(of: /id="two-factor-key">([A-Z2-7 ]+)</).map { String($0.1) })
            let secret = try #require(Self.base32Decode(key.filter { $0 != " " }))
            let code = SecondFactors.code(secret: secret, at: clock.now)
            #expect(
                try await bob.post("/account/two-factor", [("_csrf", enrol.csrf ?? ""), ("code", code)]).status == .ok)

            let admin = TestBrowser(client)
            try await admin.signIn("ada", password: "lovelace-1815")
            let users = try await admin.get("/admin/users")
            let bobID = try #require(
                users.body.firstMatch(of: /action="\/admin\/users\/([0-9a-f-]+)\/two-factor\/off"/).map { String($0.1) }
            )
            #expect(users.body.contains(#"aria-label="Turn off two-step sign-in for bob""#))
            let done = try await admin.post("/admin/users/\(bobID)/two-factor/off", [("_csrf", users.csrf ?? "")])
            #expect(done.location == "/admin/users?done=two-factor-off")
            #expect(
                try await admin.get("/admin/users?done=two-factor-off").body.contains("Two-step sign-in turned off"))
            // Bob signs in with his password alone again.
            try await TestBrowser(client).signIn("bob", password: "bob's password 1")
            let again = TestBrowser(client)
            let page = try await again.get("/login")
            let signedIn = try await again.post(
                "/login",
                [("_csrf", page.csrf ?? ""), ("name", "bob"), ("password", "bob's password 1"), ("next", "/")])
            #expect(signedIn.location == "/")
        }
    }

    /// Base32 (RFC 4648) without padding, to the secret's text; nil for anything else.
    static func base32Decode(_ text: String) -> String? {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        var bits = 0
        var value = 0
        var bytes: [UInt8] = []
        for character in text {
            guard let index = alphabet.firstIndex(of: character) else { return nil }
            value = (value << 5) | index
            bits += 5
            if bits >= 8 {
                bytes.append(UInt8((value >> (bits - 8)) & 0xFF))
                bits -= 8
            }
        }
        return String(bytes: bytes, encoding: .utf8)
    }
}
