import FormModel
import Foundation
import Hummingbird
import HummingbirdTesting
import Synchronization
import TestSupport
import Testing

@testable import FormPages
@testable import FormStore
@testable import FormWeb

@Suite("Accounts and sessions")
struct AccountTests {
    static let members = Fixtures.schema([], id: "members", title: "New Note", object: "Note")

    @Test("admin exists on first start with the configured password and can sign in")
    func adminSignsIn() async throws {
        try await TestApp.run(forms: []) { client in
            let browser = TestBrowser(client)
            let page = try await browser.get("/login?next=/forms/x")
            #expect(page.status == .ok)
            #expect(page.title == "Sign in – Fieldwork")
            #expect(page.body.contains(#"<input type="hidden" name="next" value="/forms/x">"#))
            let done = try await browser.post(
                "/login",
                [
                    ("_csrf", page.csrf ?? ""), ("name", "admin"), ("password", Fixtures.adminPassword),
                    ("next", "/forms/x"),
                ])
            #expect(done.status == .seeOther)
            #expect(done.location == "/forms/x")
            #expect(await browser.cookies["fieldwork_session"] != nil)
        }
    }

    @Test("a wrong password or a missing name answers 422 with the error summary and keeps the name")
    func wrongPassword() async throws {
        try await TestApp.run(forms: []) { client in
            let browser = TestBrowser(client)
            let page = try await browser.get("/login")
            let wrong = try await browser.post(
                "/login", [("_csrf", page.csrf ?? ""), ("name", "admin"), ("password", "nope")])
            #expect(wrong.status == .unprocessableContent)
            #expect(wrong.title == "Error: Sign in – Fieldwork")
            #expect(wrong.body.contains(#"role="alert""#))
            #expect(wrong.body.contains(##"<li><a href="#field-name">The user name or password is wrong</a></li>"##))
            #expect(wrong.body.contains(#"value="admin""#))
            #expect(!wrong.body.contains("nope"))
            #expect(await browser.cookies["fieldwork_session"] == nil)

            let empty = try await browser.post(
                "/login", [("_csrf", page.csrf ?? ""), ("name", " "), ("password", "x")])
            #expect(empty.status == .unprocessableContent)
            #expect(empty.body.contains(##"<li><a href="#field-name">Enter your user name</a></li>"##))
            #expect(
                empty.body.contains(
                    #"id="field-name" name="name" type="text" autocomplete="username" autocapitalize="none" spellcheck="false" aria-describedby="field-name-error" aria-invalid="true">"#
                ))
        }
    }

    @Test(
        "after 5 wrong passwords a name waits, even with the right one; other names do not; the right one clears the count"
    )
    func throttled() async throws {
        try await TestApp.run(forms: [], users: [("ada", "lovelace-1815", false)]) { client in
            let browser = TestBrowser(client)
            func signIn(_ name: String, _ password: String) async throws -> TestBrowser.Page {
                // A sign-in changes the token: the page is read again each time.
                let page = try await browser.get("/login")
                return try await browser.post(
                    "/login", [("_csrf", page.csrf ?? ""), ("name", name), ("password", password)])
            }
            // Four wrong, the right one, four wrong again, the right one: the success cleared
            // the count, or the sixth failure would have made the name wait.
            for _ in 1...4 { #expect(try await signIn("ada", "wrong").status == .unprocessableContent) }
            #expect(try await signIn("ada", "lovelace-1815").status == .seeOther)
            for _ in 1...4 { #expect(try await signIn("ada", "wrong").status == .unprocessableContent) }
            #expect(try await signIn("ada", "lovelace-1815").status == .seeOther)

            let fresh = TestBrowser(client)
            let login = try await fresh.get("/login")
            let csrf = login.csrf ?? ""
            // Guesses sent at once cannot all pass the check before any is counted.
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 1...12 {
                    group.addTask {
                        try await fresh.post("/login", [("_csrf", csrf), ("name", "admin"), ("password", "wrong")])
                            .status
                    }
                }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .unprocessableContent }.count == 5)
            #expect(statuses.filter { $0 == .tooManyRequests }.count == 7)
            let waiting = try await fresh.post(
                "/login", [("_csrf", csrf), ("name", "admin"), ("password", Fixtures.adminPassword)])
            #expect(waiting.status == .tooManyRequests)
            // However long the machine took since the fifth guess, the wait is at most its 30 s
            // (the delays are pinned on a clock of the test's, in SignInThrottleTests).
            #expect(Int(waiting.headers[.retryAfter] ?? "").map { $0 > 0 && $0 <= 30 } == true)
            #expect(waiting.body.contains("Too many wrong passwords for this user name: wait "))
            #expect(waiting.body.contains(" second") && waiting.body.contains(" and try again"))
            #expect(await fresh.cookies["fieldwork_session"] == nil)
            // The name in other letters' case is the same name.
            let upper = try await fresh.post("/login", [("_csrf", csrf), ("name", "ADMIN"), ("password", "wrong")])
            #expect(upper.status == .tooManyRequests)
            // Another name is not held up.
            let ada = try await fresh.post(
                "/login", [("_csrf", csrf), ("name", "ada"), ("password", "lovelace-1815")])
            #expect(ada.status == .seeOther)
        }
    }

    @Test("sign-in without a valid CSRF token is refused with 403 and signs nobody in")
    func loginNeedsToken() async throws {
        try await TestApp.run(forms: []) { client in
            let browser = TestBrowser(client)
            _ = try await browser.get("/login")
            let forged = try await browser.post("/login", [("name", "admin"), ("password", Fixtures.adminPassword)])
            #expect(forged.status == .forbidden)
            #expect(await browser.cookies["fieldwork_session"] == nil)
        }
    }

    @Test("only a local path is taken as where to go after sign-in")
    func nextStaysLocal() {
        #expect(LocalPath.safe("/forms/a?b=c") == "/forms/a?b=c")
        #expect(LocalPath.safe("//evil.example/") == "/")
        #expect(LocalPath.safe("/\\evil.example") == "/")
        #expect(LocalPath.safe("https://evil.example") == "/")
        #expect(LocalPath.safe(nil) == "/")
    }

    @Test("a users form sends visitors to sign in and back, and the API answers 401")
    func usersFormNeedsSignIn() async throws {
        try await TestApp.run(forms: [(Self.members, .users)], users: [("ada", "lovelace-1815", false)]) { client in
            let browser = TestBrowser(client)
            let page = try await browser.get("/forms/members/new?layout=compact")
            #expect(page.status == .seeOther)
            #expect(page.location == "/login?next=/forms/members/new%3Flayout%3Dcompact")
            #expect(try await browser.get("/forms/members").status == .seeOther)
            let api = try await browser.postJSON("/api/forms/members/objects", #"{"title":"x"}"#)
            #expect(api.status == .unauthorized)
            #expect(api.headers[.contentType] == "application/json; charset=utf-8")
            #expect(api.body == #"{"error":"Sign in to use this form."}"#)

            try await browser.signIn("ada", password: "lovelace-1815")
            #expect(try await browser.get("/forms/members/new").status == .ok)
        }
    }

    @Test("sign-out needs the token, ends the session and the users form asks for sign-in again")
    func signOut() async throws {
        try await TestApp.run(forms: [(Self.members, .users)], users: [("ada", "lovelace-1815", false)]) { client in
            let browser = TestBrowser(client)
            try await browser.signIn("ada", password: "lovelace-1815")
            let form = try await browser.get("/forms/members/new")
            #expect(try await browser.post("/logout", []).status == .forbidden)
            #expect(try await browser.get("/forms/members/new").status == .ok)
            let out = try await browser.post("/logout", [("_csrf", form.csrf ?? "")])
            #expect(out.status == .seeOther)
            #expect(await browser.cookies["fieldwork_session"] == nil)
            #expect(try await browser.get("/forms/members/new").status == .seeOther)
        }
    }

    @Test("the session cookie is found among other cookies, wherever it stands, and only by its own name")
    func sessionCookieAmongOthers() async throws {
        try await TestApp.run(forms: [(Self.members, .users)], users: [("ada", "lovelace-1815", false)]) { client in
            let browser = TestBrowser(client)
            try await browser.signIn("ada", password: "lovelace-1815")
            let session = try #require(await browser.cookies["fieldwork_session"])
            let csrf = try #require(await browser.cookies["fieldwork_csrf"])
            func status(_ cookie: String) async throws -> HTTPResponse.Status {
                try await client.execute(uri: "/forms/members/new", method: .get, headers: [.cookie: cookie]).status
            }
            #expect(try await status("fieldwork_session=\(session)") == .ok)
            #expect(try await status("a=1; fieldwork_session=\(session); fieldwork_csrf=\(csrf)") == .ok)
            #expect(try await status("fieldwork_csrf=\(csrf);fieldwork_session=\(session) ") == .ok)
            #expect(try await status("other_fieldwork_session=\(session); fieldwork_csrf=\(csrf)") == .seeOther)
            #expect(try await status("fieldwork_sessionx=\(session)") == .seeOther)
            #expect(try await status("fieldwork_csrf=\(csrf)") == .seeOther)
            // Signing out still finds the session it ends, among the other cookies.
            let page = try await browser.get("/")
            let out = try await browser.post("/logout", [("_csrf", page.csrf ?? "")])
            #expect(out.status == .seeOther)
            #expect(try await status("a=1; fieldwork_session=\(session)") == .seeOther)
        }
    }

    @Test("a session is kept in the database and survives a new app instance on the same data")
    func sessionSurvivesRestart() async throws {
        let data = Fixtures.temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        let session = SessionBox()
        try await TestApp.run(
            forms: [(Self.members, .users)], data: data, keepData: true, users: [("ada", "lovelace-1815", false)]
        ) { client in
            let browser = TestBrowser(client)
            try await browser.signIn("ada", password: "lovelace-1815")
            await session.set(await browser.cookies["fieldwork_session"])
        }
        let cookie = try #require(await session.value)
        // The database holds a hash of the session id, never the id: a copy of it opens nothing.
        let database = try await FieldworkDatabase.open(
            Fixtures.configuration(data: data).store, logger: Fixtures.logger)
        let rows = try await SessionRecord.query(on: database.database()).all()
        await database.shutdown()
        #expect(!rows.isEmpty)
        #expect(rows.allSatisfy { ($0.id ?? "").hasPrefix("h.") && !($0.id ?? "").contains(cookie) })
        #expect(rows.allSatisfy { !$0.value.contains(cookie) })
        let stored = try #require(rows.first?.id)
        try await TestApp.run(forms: [], data: data) { client in
            let browser = TestBrowser(client)
            await browser.setCookie("fieldwork_session", cookie)
            let restored = try await browser.get("/forms/members/new")
            #expect(restored.status == .ok)
            await browser.setCookie("fieldwork_session", "made-up")
            let madeUp = try await browser.get("/forms/members/new")
            #expect(madeUp.status == .seeOther)
            for copied in [stored, String(stored.dropFirst(2))] {
                await browser.setCookie("fieldwork_session", copied)
                #expect(try await browser.get("/forms/members/new").status == .seeOther, "\(copied)")
            }
        }
    }

    actor SessionBox {
        var value: String?
        func set(_ value: String?) { self.value = value }
    }
}

@Suite("Session storage on the database")
struct PersistDriverTests {
    /// A clock that stands still until the test moves it.
    final class ManualClock: Sendable {
        private let current: Mutex<Date>

        init(_ start: Date) { current = Mutex(start) }

        var now: @Sendable () -> Date { { self.current.withLock { $0 } } }

        func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }
    }

    struct Payload: Codable, Sendable, Equatable {
        var n: Int
    }

    @Test("values are stored, overwritten, expire and are removed")
    func roundTrip() async throws {
        let data = Fixtures.temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        let database = try await FieldworkDatabase.open(
            Fixtures.configuration(data: data).store, logger: Fixtures.logger)
        do {
            // The driver reads its expiries on a clock of the test's: however long the machine
            // takes between two statements, only `clock.advance` moves time.
            let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
            let driver = DatabasePersistDriver(database: database, now: clock.now)
            try await driver.create(key: "a", value: Payload(n: 1), expires: .seconds(60))
            await #expect(throws: PersistError.duplicate) {
                try await driver.create(key: "a", value: Payload(n: 2), expires: nil)
            }
            #expect(try await driver.get(key: "a", as: Payload.self) == Payload(n: 1))
            clock.advance(by: 10)
            try await driver.set(key: "a", value: Payload(n: 3), expires: nil)
            let (value, ttl) = try #require(try await driver.getWithTTL(key: "a", as: Payload.self))
            #expect(value == Payload(n: 3))
            // A nil expiry on set keeps the one there: 60 s from the create, 10 s ago.
            #expect(ttl == .seconds(50))
            clock.advance(by: 50)
            #expect(try await driver.get(key: "a", as: Payload.self) == nil, "expired at 60 s")
            // An expired session's key can be taken again.
            try await driver.create(key: "a", value: Payload(n: 5), expires: .seconds(60))
            #expect(try await driver.get(key: "a", as: Payload.self) == Payload(n: 5))
            try await driver.set(key: "b", value: Payload(n: 4), expires: .seconds(-1))
            #expect(try await driver.get(key: "b", as: Payload.self) == nil)
            try await driver.remove(key: "a")
            #expect(try await driver.get(key: "a", as: Payload.self) == nil)
            await #expect(throws: PersistError.invalidConversion) {
                try await driver.set(key: "c", value: "text", expires: nil)
                _ = try await driver.get(key: "c", as: Payload.self)
            }
        } catch {
            await database.shutdown()
            throw error
        }
        await database.shutdown()
    }

    @Test("the session middleware loads a session its cookie names, and removes one it cannot read, its cookie expired")
    func sessionMiddleware() async throws {
        let data = Fixtures.temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        let database = try await FieldworkDatabase.open(
            Fixtures.configuration(data: data).store, logger: Fixtures.logger)
        do {
            let driver = DatabasePersistDriver(database: database)
            let session = AppSession(userID: UUID(), csrfKey: "key")
            try await driver.set(key: "s.good", value: session, expires: .seconds(600))
            // Stored by an earlier version in a form this one does not read.
            try await driver.set(key: "s.old", value: "text", expires: .seconds(600))
            #expect(try await driver.get(key: "s.old", as: String.self) == "text")
            let router = Router(context: AppRequestContext.self)
            router.add(
                middleware: SessionCookieMiddleware(
                    storage: driver, keyPrefix: "s.", cookies: CookiePolicy(secure: false), lifetime: .seconds(600)))
            router.get("/who") { _, context in context.sessions.session?.csrfKey ?? "nobody" }
            try await Application(router: router).test(.router) { client in
                func get(_ cookie: String) async throws -> (body: String, setCookie: String?) {
                    let answer = try await client.execute(uri: "/who", method: .get, headers: [.cookie: cookie])
                    return (String(buffer: answer.body), answer.headers[.setCookie])
                }
                let good = try await get("fieldwork_session=good")
                #expect(good.body == "key" && good.setCookie == nil, "loaded, unchanged: no cookie")
                let old = try await get("fieldwork_session=old")
                #expect(old.body == "nobody")
                let expired = try #require(old.setCookie)
                #expect(expired.hasPrefix("fieldwork_session=old;") && expired.contains("Expires="))
                #expect(try await driver.get(key: "s.old", as: String.self) == nil, "gone from the store")
                #expect(try await get("fieldwork_session=missing") == ("nobody", nil))
            }
        } catch {
            await database.shutdown()
            throw error
        }
        await database.shutdown()
    }
}
