import FormModel
import Foundation
import HTTPTypes
import TestSupport
import Testing

@testable import FormWeb

/// Behind HTTPS (`FIELDWORK_PUBLIC_URL`): cookies for HTTPS only, HSTS, requests from this
/// origin only; and, on any address, what a browser says comes from another site is refused.
@Suite("HTTPS and other sites")
struct HTTPSTests {
    static let members = Fixtures.schema([], id: "members", title: "New Note", object: "Note")
    static let publicURL = URL(string: "https://forms.example.test")!

    static func run(
        publicURL: URL? = Self.publicURL, _ test: @escaping @Sendable (TestBrowser) async throws -> Void
    ) async throws {
        try await TestApp.run(
            forms: [(Self.members, .users)], users: [("ada", "lovelace-1815", false)],
            configure: { $0.publicURL = publicURL }
        ) { client in try await test(TestBrowser(client)) }
    }

    static func setCookies(_ page: TestBrowser.Page) -> [String] { page.headers[values: .setCookie] }

    @Test("behind HTTPS both cookies are Secure and __Host-, and every answer says HTTPS only for a year")
    func secureCookies() async throws {
        try await Self.run { browser in
            let login = try await browser.get("/login")
            #expect(login.headers[HTTPField.Name("Strict-Transport-Security")!] == "max-age=31536000")
            let browserCookie = try #require(Self.setCookies(login).first { $0.hasPrefix("__Host-fieldwork_csrf=") })
            #expect(browserCookie.hasSuffix("; Path=/; HttpOnly; SameSite=Lax; Secure"))
            #expect(!browserCookie.contains("Domain"))
            let done = try await browser.post(
                "/login", [("_csrf", login.csrf ?? ""), ("name", "ada"), ("password", "lovelace-1815"), ("next", "/")])
            #expect(done.status == .seeOther)
            let session = try #require(Self.setCookies(done).first { $0.hasPrefix("__Host-fieldwork_session=") })
            let attributes = session.lowercased()
            #expect(attributes.contains("; secure") && attributes.contains("; httponly"))
            #expect(attributes.contains("path=/") && !attributes.contains("domain="))
            // The prefixed cookies are the ones read back: the signed-in page opens.
            #expect(try await browser.get("/forms/members/new").status == .ok)
            #expect(await browser.cookies["fieldwork_session"] == nil)
        }
    }

    @Test("over plain HTTP the cookies keep their plain names, not Secure, and no HSTS is sent")
    func plainHTTP() async throws {
        try await Self.run(publicURL: nil) { browser in
            let login = try await browser.get("/login")
            #expect(login.headers[HTTPField.Name("Strict-Transport-Security")!] == nil)
            let cookie = try #require(Self.setCookies(login).first { $0.hasPrefix("fieldwork_csrf=") })
            #expect(!cookie.contains("Secure"))
        }
    }

    @Test("a state-changing request from another origin or site is refused before its token is read")
    func otherSites() async throws {
        try await Self.run { browser in
            let login = try await browser.get("/login")
            let fields = [("_csrf", login.csrf ?? ""), ("name", "ada"), ("password", "lovelace-1815"), ("next", "/")]
            for headers: HTTPFields in [
                [HTTPField.Name("Origin")!: "https://evil.example"],
                [HTTPField.Name("Origin")!: "null"],
                [HTTPField.Name("Origin")!: "http://forms.example.test"],
                [HTTPField.Name("Sec-Fetch-Site")!: "cross-site"],
                [HTTPField.Name("Sec-Fetch-Site")!: "same-site"],
            ] {
                let refused = try await browser.post("/login", fields, headers: headers)
                #expect(refused.status == .forbidden, "\(headers)")
                #expect(refused.body.contains("came from another site"))
            }
            #expect(await browser.cookies["__Host-fieldwork_session"] == nil, "nothing signed in")
            let same = try await browser.post(
                "/login", fields,
                headers: [
                    HTTPField.Name("Origin")!: "https://forms.example.test",
                    HTTPField.Name("Sec-Fetch-Site")!: "same-origin",
                ])
            #expect(same.status == .seeOther)
        }
        // Without the public address, Sec-Fetch-Site still decides.
        try await Self.run(publicURL: nil) { browser in
            let login = try await browser.get("/login")
            let refused = try await browser.post(
                "/login", [("_csrf", login.csrf ?? ""), ("name", "ada"), ("password", "lovelace-1815")],
                headers: [HTTPField.Name("Sec-Fetch-Site")!: "cross-site"])
            #expect(refused.status == .forbidden)
        }
    }

    @Test("FIELDWORK_PUBLIC_URL takes a site's address only; anything else stops the server with what to write")
    func publicURLSetting() {
        let good = FieldworkConfiguration.fromEnvironment(["FIELDWORK_PUBLIC_URL": "https://forms.example.com/"])
        #expect(good.publicURL?.absoluteString == "https://forms.example.com")
        #expect(good.cookies.secure && good.unusableSettings.isEmpty)
        #expect(
            FieldworkConfiguration.fromEnvironment(["FIELDWORK_PUBLIC_URL": "http://10.0.0.5:8080"]).cookies.secure
                == false)
        for bad in ["forms.example.com", "ftp://forms.example.com", "https://forms.example.com/app", "https://"] {
            let configuration = FieldworkConfiguration.fromEnvironment(["FIELDWORK_PUBLIC_URL": bad])
            #expect(configuration.publicURL == nil, "\(bad)")
            #expect(configuration.unusableSettings.first?.hasPrefix("FIELDWORK_PUBLIC_URL=\(bad) is not") == true)
        }
    }

    @Test("a sign-in ends the session the browser had: its id opens nothing any more")
    func newSessionAtSignIn() async throws {
        try await Self.run(publicURL: nil) { browser in
            try await browser.signIn("ada", password: "lovelace-1815")
            let first = try #require(await browser.cookies["fieldwork_session"])
            try await browser.signIn("ada", password: "lovelace-1815")
            let second = try #require(await browser.cookies["fieldwork_session"])
            #expect(first != second)
            #expect(try await browser.get("/forms/members/new").status == .ok)
            await browser.setCookie("fieldwork_session", first)
            #expect(try await browser.get("/forms/members/new").status == .seeOther)
        }
    }
}
