import Crypto
import FormModel
import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import FormPages
@testable import FormStore
@testable import FormWeb

/// In-process HTTP tests against a fresh SQLite data folder holding one Swift-built form.
@Suite("Web pages")
struct WebTests {
    static let form = Fixtures.schema(
        [Field(name: "task", kind: .text, label: "Task", prefill: .query)], id: "new-thing", title: "New Thing",
        object: "Thing")

    /// Runs the app on a fresh data folder holding the test form.
    func withApp(_ test: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        try await TestApp.run(forms: [(Self.form, .public)], test)
    }

    static func expectSecurityHeaders(_ response: TestResponse) {
        #expect(
            response.headers[.init("Content-Security-Policy")!]
                == SecurityHeadersMiddleware<BasicRequestContext>.contentSecurityPolicy)
        #expect(response.headers[.init("X-Content-Type-Options")!] == "nosniff")
        #expect(response.headers[.init("Referrer-Policy")!] == "same-origin")
    }

    @Test("GET / lists the forms with links to their parent pages")
    func index() async throws {
        try await withApp { client in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                Self.expectSecurityHeaders(response)
                #expect(
                    String(buffer: response.body).contains(
                        #"<a class="fw-list__link" href="/forms/new-thing">New Thing</a>"#))
            }
        }
    }

    @Test("GET /forms/{id} shows the plural title, the empty state and the + link named after the form")
    func parentPage() async throws {
        try await withApp { client in
            try await client.execute(uri: "/forms/new-thing", method: .get) { response in
                #expect(response.status == .ok)
                Self.expectSecurityHeaders(response)
                let html = String(buffer: response.body)
                #expect(html.contains("<title>Things – Fieldwork</title>"))
                #expect(html.contains(#"<h1 class="fw-page-header__title">Things</h1>"#))
                #expect(html.contains(#"<p class="fw-list__empty">No things yet</p>"#))
                #expect(
                    html.contains(
                        #"<a class="fw-page-header__add" href="/forms/new-thing/new" data-modal><span aria-hidden="true">+</span><span class="fw-visually-hidden">New Thing</span></a>"#
                    ))
            }
        }
    }

    @Test("GET /forms/{id}/new answers HTML with the security headers, a CSRF cookie and a matching token")
    func createView() async throws {
        try await withApp { client in
            try await client.execute(uri: "/forms/new-thing/new?task=T-1001&layout=regular", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                #expect(response.headers[.cacheControl] == "no-store")
                Self.expectSecurityHeaders(response)
                let cookie = try #require(response.headers[.setCookie])
                #expect(cookie.hasPrefix("fieldwork_csrf="))
                #expect(cookie.contains("HttpOnly"))
                #expect(cookie.contains("SameSite=Lax"))
                let html = String(buffer: response.body)
                #expect(html.contains("<title>New Thing – Fieldwork</title>"))
                #expect(html.contains(#"value="T-1001""#))
                #expect(html.contains("fw-layout-regular"))
                let token = try #require(html.firstMatch(of: /name="_csrf" value="([A-Za-z0-9_-]{43})"/)?.1)
                let id = try #require(cookie.firstMatch(of: /fieldwork_csrf=([A-Za-z0-9_-]{43})/)?.1)
                let secret = ServerSecret(key: SymmetricKey(size: .bits256))
                // Another server's secret must not verify this browser's token.
                #expect(!CSRF(secret: secret).verify(token: String(token), cookie: String(id)))
            }
        }
    }

    @Test("a browser that already has the CSRF cookie keeps it and gets the token derived from it")
    func existingCookie() async throws {
        try await withApp { client in
            let id = String(repeating: "a", count: 43)
            try await client.execute(
                uri: "/forms/new-thing/new", method: .get, headers: [.cookie: "fieldwork_csrf=\(id)"]
            ) { response in
                #expect(response.headers[.setCookie] == nil)
                let html = String(buffer: response.body)
                let token = try #require(html.firstMatch(of: /name="_csrf" value="([A-Za-z0-9_-]{43})"/)?.1)
                #expect(!token.isEmpty)
            }
        }
    }

    @Test("an unknown form id or address answers a real 404 HTML page with the security headers")
    func notFound() async throws {
        try await withApp { client in
            for uri in ["/forms/nope/new", "/forms/nope", "/no/such/page"] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .notFound)
                    #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                    Self.expectSecurityHeaders(response)
                    #expect(
                        String(buffer: response.body).contains(
                            "<h1 class=\"fw-page-header__title\">Page not found</h1>"))
                }
            }
        }
    }

    @Test("GET /api/forms/{id} answers the canonical JSON")
    func schemaJSON() async throws {
        try await withApp { client in
            try await client.execute(uri: "/api/forms/new-thing", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json")
                Self.expectSecurityHeaders(response)
                let schema = try FormSchema.fromCanonicalJSON(Data(buffer: response.body))
                #expect(schema == Self.form)
                #expect(Data(buffer: response.body) == (try Self.form.canonicalJSON()))
            }
            try await client.execute(uri: "/api/forms/nope", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
            }
        }
    }

    @Test("answers under /api set no browser cookie, where a page sets one")
    func apiSetsNoCookie() async throws {
        try await withApp { client in
            try await client.execute(uri: "/api/forms/new-thing", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.setCookie] == nil)
            }
            try await client.execute(
                uri: "/api/forms/new-thing/objects", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"title":"From a script"}"#)
            ) { response in
                #expect(response.status == .created)
                #expect(response.headers[.setCookie] == nil)
            }
            try await client.execute(uri: "/forms/new-thing", method: .get) { response in
                #expect(response.headers[.setCookie]?.hasPrefix("fieldwork_csrf=") == true)
            }
        }
    }

    @Test("stylesheets and scripts are served minified with a cache header")
    func staticFiles() async throws {
        try await withApp { client in
            try await client.execute(uri: "/css/fieldwork.css", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.cacheControl]?.contains("max-age=300") == true)
                Self.expectSecurityHeaders(response)
                #expect(String(buffer: response.body).contains("--fw-color-brand:#0070F2;"))
            }
            try await client.execute(uri: "/js/fieldwork.js", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.cacheControl]?.contains("max-age=300") == true)
            }
        }
    }
}
