import FormModel
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import TestSupport
import Testing

@testable import FormStore
@testable import FormWeb

/// A service on a real loopback port that serves `$metadata` as an OData service does:
/// `/open/` without authentication, the metadata as imported; `/secured/` with basic
/// authentication (`ana` / ``password``), the metadata with `Destination` longer than imported.
enum MetadataService {
    static let password = "s3cret-Pa55word"

    static var changedMetadata: String {
        ODataFixture.metadata.replacingOccurrences(
            of: #"Name="Destination" Type="Edm.String" MaxLength="40""#,
            with: #"Name="Destination" Type="Edm.String" MaxLength="60""#)
    }

    /// Runs `test` with the service's base URL (`http://127.0.0.1:PORT/`).
    static func run(_ test: @escaping @Sendable (String) async throws -> Void) async throws {
        let router = Router()
        router.get("open/$metadata") { _, _ in metadata(ODataFixture.metadata) }
        router.get("secured/$metadata") { request, _ in
            let expected = "Basic " + Data("ana:\(password)".utf8).base64EncodedString()
            guard request.headers[.authorization] == expected else {
                return Response(status: .unauthorized, headers: [.wwwAuthenticate: "Basic realm=\"test\""])
            }
            return metadata(changedMetadata)
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            try await test("http://127.0.0.1:\(try #require(client.port))/")
        }
    }

    private static func metadata(_ text: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/xml"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

@Suite("Admin page: the service of an OData form")
struct AdminServiceTests {
    static let formID = "demo-trips"
    static let page = "/admin/forms/demo-trips"

    /// An admin browser with the OData fixture imported through the admin page.
    static func imported(_ client: any TestClientProtocol) async throws -> TestBrowser {
        let browser = try await AdminFixtures.admin(client)
        let done = try await AdminFixtures.importSpec(browser, files: [("service.xml", ODataFixture.metadata)])
        #expect(done.status == .seeOther)
        return browser
    }

    /// Posts the service form from the page, with its token.
    static func postConnection(
        _ browser: TestBrowser, _ fields: [(String, String)], path: String = "/admin/forms/demo-trips/connection"
    ) async throws -> TestBrowser.Page {
        let page = try await browser.get(Self.page)
        return try await browser.post(path, [("_csrf", page.csrf ?? "")] + fields)
    }

    static func settings(
        url: String, auth: String = "none", user: String = "", secret: String = "", action: String = "connect",
        mode: String = "service", sapClient: String = "", sapLanguage: String = ""
    ) -> [(String, String)] {
        [
            ("url", url), ("auth", auth), ("user", user), ("header", ""), ("secret", secret),
            ("sap-client", sapClient), ("sap-language", sapLanguage), ("mode", mode), ("action", action),
        ]
    }

    @Test("an OData form's page has a Service section with the connect form; a native form's has none")
    func notConnected() async throws {
        try await TestApp.run(forms: []) { client in
            let browser = try await Self.imported(client)
            let page = try await browser.get(Self.page)
            #expect(page.status == .ok)
            #expect(page.body.contains(#"<h2 class="fw-admin__heading" id="service-heading">Service</h2>"#))
            #expect(page.body.contains("Not connected: the objects of this import's forms are kept in Fieldwork"))
            #expect(page.body.contains(#"<form method="post" action="/admin/forms/demo-trips/connection" novalidate>"#))
            #expect(page.body.contains(#"<label class="fw-label" for="service-url">Service root URL</label>"#))
            #expect(
                page.body.contains(
                    #"<input class="fw-radio__input" type="radio" id="service-auth-none" name="auth" value="none" checked>"#
                ))
            #expect(
                page.body.contains(
                    #"<input class="fw-input" id="service-secret" name="secret" type="password" value="" autocomplete="new-password""#
                ))
            #expect(
                page.body.contains(
                    #"<button class="fw-button fw-button--secondary" type="submit" name="action" value="test">Test connection</button>"#
                ))
            #expect(
                page.body.contains(
                    #"<button class="fw-button fw-button--primary" type="submit" name="action" value="connect">Connect</button>"#
                ))
            #expect(!page.body.contains("Disconnect"))
            #expect(!page.body.contains("Outcome unknown"))

            _ = try await AdminFixtures.importSpec(browser, files: [("trip.xml", AdminFixtures.spec())])
            let native = try await browser.get("/admin/forms/trip")
            #expect(native.status == .ok)
            #expect(!native.body.contains("service-heading"))
        }
    }

    @Test("a refused connect answers 422: each error in the summary and under its field, values kept, the secret not")
    func refused() async throws {
        try await TestApp.run(forms: []) { client in
            let browser = try await Self.imported(client)
            let refused = try await Self.postConnection(
                browser,
                Self.settings(
                    url: "ftp://files.example.com/odata/", auth: "basic", secret: "never-echo-this-1",
                    sapClient: "100", sapLanguage: "EN"))
            #expect(refused.status == .unprocessableContent)
            #expect(refused.title?.hasPrefix("Error: ") == true)
            let body = refused.body
            #expect(!body.contains("never-echo-this-1"))
            #expect(body.contains("What you typed is never written back into the page: type it again."))
            #expect(
                body.contains(
                    ##"<li><a href="#service-url">Enter an http or https URL for the service root; ftp is not supported.</a></li>"##
                ))
            #expect(
                body.contains(##"<li><a href="#service-user">Enter the user name for basic authentication.</a></li>"##))
            // The summary lists the URL first, as the form does.
            let url = try #require(body.range(of: ##"#service-url">"##))
            let user = try #require(body.range(of: ##"#service-user">"##))
            #expect(url.lowerBound < user.lowerBound)
            #expect(
                body.contains(
                    #"<p class="fw-field__error" id="service-user-error"><span class="fw-visually-hidden">Error: </span>Enter the user name for basic authentication.</p>"#
                ))
            #expect(
                body.contains(
                    #"<input class="fw-input" id="service-url" name="url" type="url" value="ftp://files.example.com/odata/" autocomplete="off" autocapitalize="none" spellcheck="false" aria-describedby="service-url-hint service-url-error" aria-invalid="true">"#
                ))
            #expect(body.contains(#"id="service-user" name="user" type="text" value="" "#))
            #expect(body.contains(#"aria-describedby="service-user-hint service-user-error" aria-invalid="true">"#))
            #expect(body.contains(#"id="service-sap-client" name="sap-client" type="text" value="100""#))
            #expect(body.contains(#"id="service-sap-language" name="sap-language" type="text" value="EN""#))
            #expect(body.contains(#"id="service-auth-basic" name="auth" value="basic" checked>"#))
            #expect(body.contains(#"id="service-secret" name="secret" type="password" value="""#))

            // An authentication nobody offers is refused at the radio group.
            let odd = try await Self.postConnection(
                browser, Self.settings(url: "http://127.0.0.1:9/", auth: "kerberos"))
            #expect(odd.status == .unprocessableContent)
            #expect(
                odd.body.contains(
                    ##"<li><a href="#service-auth-none">Choose how Fieldwork signs in to the service.</a></li>"##))
            #expect(odd.body.contains(#"<fieldset class="fw-fieldset" aria-describedby="service-auth-error">"#))
        }
    }

    @Test("the service refusing the credentials is an error on the URL; nothing is stored")
    func credentialsRefused() async throws {
        try await MetadataService.run { base in
            try await TestApp.run(forms: []) { client in
                let browser = try await Self.imported(client)
                let refused = try await Self.postConnection(
                    browser,
                    Self.settings(url: base + "secured/", auth: "basic", user: "ana", secret: "wrong-password-9"))
                #expect(refused.status == .unprocessableContent)
                #expect(
                    refused.body.contains(
                        ##"<a href="#service-url">The service at \##(base)secured/ refused the credentials (401). Check the user and the password or token.</a>"##
                    ))
                #expect(refused.body.contains(#"id="service-url-error""#))
                #expect(refused.body.contains(#"id="service-user" name="user" type="text" value="ana""#))
                #expect(!refused.body.contains("wrong-password-9"))
                #expect(refused.body.contains("Not connected"))
            }
        }
    }

    @Test("Test shows the drift and stores nothing; Connect stores and the page shows the connection, never the secret")
    func testThenConnect() async throws {
        try await MetadataService.run { base in
            try await TestApp.run(forms: []) { client in
                let browser = try await Self.imported(client)
                let secured = base + "secured/"
                let tested = try await Self.postConnection(
                    browser,
                    Self.settings(
                        url: secured, auth: "basic", user: "ana", secret: MetadataService.password, action: "test",
                        sapClient: "100"))
                #expect(tested.status == .ok)
                #expect(!tested.body.contains(MetadataService.password))
                #expect(tested.body.contains("Test passed"))
                #expect(
                    tested.body.contains(
                        "Test passed: the service answered; nothing was stored. The drift report is in the Service section."
                    ))
                #expect(
                    tested.body.contains(
                        "Nothing was stored: choose Connect to store the connection, and type the password or token again"
                    ))
                #expect(tested.body.contains("<li>Trips/Destination is "))
                #expect(tested.body.contains(#"id="service-url" name="url" type="url" value="\#(secured)""#))
                #expect(tested.body.contains("Not connected"))

                let connected = try await Self.postConnection(
                    browser,
                    Self.settings(
                        url: secured, auth: "basic", user: "ana", secret: MetadataService.password, sapClient: "100"))
                #expect(connected.status == .seeOther)
                #expect(connected.location == "/admin/forms/demo-trips?done=connected#service")
                let page = try await browser.get("/admin/forms/demo-trips?done=connected")
                #expect(!page.body.contains(MetadataService.password))
                #expect(page.body.contains("Connected: the service answered and the connection is stored."))
                #expect(page.body.contains(#"<dd class="fw-service__url">\#(secured)</dd>"#))
                #expect(page.body.contains("<dd>Basic, user ana; a password is stored</dd>"))
                #expect(page.body.contains("<dt>sap-client</dt><dd>100</dd>"))
                #expect(page.body.contains("<dt>sap-language</dt><dd>not set</dd>"))
                #expect(page.body.contains("<li>Trips/Destination is "))
                #expect(page.body.contains("One is stored: leave this empty to keep it."))
                #expect(
                    page.body.contains(
                        #"id="service-mode-demo-trips-service" name="mode.demo-trips" value="service" checked>"#))
                #expect(page.body.contains("Disconnect</button>"))
                #expect(page.body.contains("No create of this form has an unknown outcome."))

                // Connecting again without the password keeps the stored one.
                let again = try await Self.postConnection(
                    browser, Self.settings(url: secured, auth: "basic", user: "ana", sapClient: "100"))
                #expect(again.status == .seeOther)
            }
        }
    }

    @Test("a service whose metadata matches the import says there is no drift")
    func noDrift() async throws {
        try await MetadataService.run { base in
            try await TestApp.run(forms: []) { client in
                let browser = try await Self.imported(client)
                let connected = try await Self.postConnection(browser, Self.settings(url: base + "open/"))
                #expect(connected.status == .seeOther)
                let page = try await browser.get(Self.page)
                #expect(page.body.contains("No drift: the service's metadata matches the import."))
                #expect(page.body.contains("<dd>None</dd>"))
            }
        }
    }

    @Test("a form's mode changes to local and back; Disconnect forgets the connection")
    func modeAndDisconnect() async throws {
        try await MetadataService.run { base in
            try await TestApp.run(forms: []) { client in
                let browser = try await Self.imported(client)
                #expect(try await Self.postConnection(browser, Self.settings(url: base + "open/")).status == .seeOther)
                let local = try await Self.postConnection(
                    browser, [("mode.demo-trips", "local")], path: "/admin/forms/demo-trips/connection/mode")
                #expect(local.status == .seeOther)
                #expect(local.location == "/admin/forms/demo-trips?done=modes#service")
                let page = try await browser.get(Self.page)
                #expect(
                    page.body.contains(
                        #"id="service-mode-demo-trips-local" name="mode.demo-trips" value="local" checked>"#))
                let odd = try await Self.postConnection(
                    browser, [("mode.demo-trips", "remote")], path: "/admin/forms/demo-trips/connection/mode")
                #expect(odd.status == .badRequest)

                let gone = try await Self.postConnection(browser, [], path: "/admin/forms/demo-trips/connection/delete")
                #expect(gone.status == .seeOther)
                #expect(gone.location == "/admin/forms/demo-trips?done=disconnected#service")
                let after = try await browser.get("/admin/forms/demo-trips?done=disconnected")
                #expect(
                    after.body.contains("Disconnected: the import&#39;s forms keep their objects in Fieldwork again."))
                #expect(after.body.contains("Not connected"))
                #expect(!after.body.contains("Disconnect</button>"))
            }
        }
    }

    @Test("every service POST without the CSRF token gets 403 and changes nothing")
    func csrf() async throws {
        try await MetadataService.run { base in
            try await TestApp.run(forms: []) { client in
                let browser = try await Self.imported(client)
                let unsigned = try await browser.post(
                    "/admin/forms/demo-trips/connection", Self.settings(url: base + "open/"))
                #expect(unsigned.status == .forbidden)
                #expect(try await browser.get(Self.page).body.contains("Not connected"))
                #expect(try await Self.postConnection(browser, Self.settings(url: base + "open/")).status == .seeOther)
                let mode = try await browser.post(
                    "/admin/forms/demo-trips/connection/mode", [("mode.demo-trips", "local")])
                #expect(mode.status == .forbidden)
                let delete = try await browser.post(
                    "/admin/forms/demo-trips/connection/delete", [("_csrf", "not-the-token")])
                #expect(delete.status == .forbidden)
                let page = try await browser.get(Self.page)
                #expect(page.body.contains("Disconnect</button>"))
                #expect(page.body.contains(#"value="service" checked>"#))
            }
        }
    }

    @Test("creates whose outcome is unknown are listed with their request id and how to check them")
    func unknownOutcomes() async throws {
        let data = Fixtures.temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        try await TestApp.run(forms: [], data: data, keepData: true) { client in
            _ = try await Self.imported(client)
        }
        let requestID = UUID()
        let database = try await FieldworkDatabase.open(
            Fixtures.configuration(data: data).store, logger: Fixtures.logger)
        let object: StoredObject
        do {
            object = try await database.objects.create(
                formID: Self.formID, version: 1, values: ["Destination": .text("Lisbon")], keyText: "Lisbon",
                creator: .browser("b1"), service: ServiceLink(state: .unknown, requestID: requestID))
        } catch {
            await database.shutdown()
            throw error
        }
        await database.shutdown()
        try await TestApp.run(forms: [], data: data, keepData: true) { client in
            let browser = try await AdminFixtures.admin(client)
            let page = try await browser.get(Self.page)
            #expect(page.body.contains("Outcome unknown"))
            #expect(page.body.contains("Fieldwork never sends them again by itself."))
            #expect(
                page.body.contains(
                    #"<tr><td><a href="/forms/demo-trips/\#(object.id.uuidString.lowercased())">Lisbon</a></td><td><code class="fw-service__request">\#(requestID.uuidString.lowercased())</code></td>"#
                ))
        }
    }
}
