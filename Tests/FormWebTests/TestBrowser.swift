import FormModel
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import TestSupport
import Testing

@testable import FormPages
@testable import FormStore
@testable import FormWeb

/// A browser for in-process tests: keeps the cookies the server sets and sends them back,
/// reads the hidden `_csrf` and `_prefill` inputs of the last page.
actor TestBrowser {
    let client: any TestClientProtocol
    private(set) var cookies: [String: String] = [:]

    init(_ client: any TestClientProtocol) {
        self.client = client
    }

    struct Page: Sendable {
        var status: HTTPResponse.Status
        var headers: HTTPFields
        var body: String

        var location: String? { headers[.location] }
        var csrf: String? { body.firstMatch(of: /name="_csrf" value="([^"]*)"/).map { String($0.1) } }
        var prefill: String? { body.firstMatch(of: /name="_prefill" value="([^"]*)"/).map { String($0.1) } }
        var title: String? { body.firstMatch(of: /<title>([^<]*)<\/title>/).map { String($0.1) } }
    }

    func get(_ uri: String) async throws -> Page {
        try await send(uri, method: .get, headers: [:], body: nil)
    }

    /// Posts urlencoded fields, in order (repeat a name for several values).
    func post(_ uri: String, _ fields: [(String, String)], headers: HTTPFields = [:]) async throws -> Page {
        let body = fields.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
        var headers = headers
        headers[.contentType] = "application/x-www-form-urlencoded"
        return try await send(uri, method: .post, headers: headers, body: ByteBuffer(string: body))
    }

    /// Posts a multipart body built by `AttachmentFixtures.body`.
    func postMultipart(_ uri: String, _ parts: [AttachmentFixtures.Part]) async throws -> Page {
        try await send(
            uri, method: .post, headers: [.contentType: AttachmentFixtures.contentType],
            body: ByteBuffer(bytes: AttachmentFixtures.body(parts)))
    }

    func postJSON(_ uri: String, _ json: String) async throws -> Page {
        try await send(uri, method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(string: json))
    }

    func send(_ uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws -> Page {
        var headers = headers
        if !cookies.isEmpty {
            headers[.cookie] = cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(
                separator: "; ")
        }
        let response = try await client.execute(uri: uri, method: method, headers: headers, body: body)
        for line in response.headers[values: .setCookie] {
            let parts = line.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let pair = parts.first, let equals = pair.firstIndex(of: "=") else { continue }
            let name = String(pair[..<equals])
            let value = String(pair[pair.index(after: equals)...])
            let expired = parts.dropFirst().contains { attribute in
                let lower = attribute.lowercased()
                if lower == "max-age=0" { return true }
                guard lower.hasPrefix("expires=") else { return false }
                return Self.httpDate(String(attribute.dropFirst("expires=".count))).map {
                    $0 <= Date().addingTimeInterval(1)
                } ?? false
            }
            cookies[name] = expired ? nil : value
        }
        return Page(status: response.status, headers: response.headers, body: String(buffer: response.body))
    }

    func setCookie(_ name: String, _ value: String?) {
        cookies[name] = value
    }

    /// Signs in through the form and checks it worked.
    func signIn(_ name: String, password: String) async throws {
        let page = try await get("/login")
        let done = try await post(
            "/login", [("_csrf", page.csrf ?? ""), ("name", name), ("password", password), ("next", "/")])
        #expect(done.status == .seeOther, "sign-in as \(name) failed: \(done.status)")
    }

    static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)
    }

    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return (text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text)
    }
}

/// An app on a fresh data folder with some Swift-built forms stored first.
enum TestApp {
    static func run(
        forms: [(FormSchema, FormAccess)], seedsDemo: Bool = false, data: URL = Fixtures.temporaryDataFolder(),
        keepData: Bool = false, users: [(String, String, Bool)] = [], adminToken: String? = nil,
        configure: (inout FieldworkConfiguration) -> Void = { _ in }, live: Bool = false,
        _ test: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        defer { if !keepData { try? FileManager.default.removeItem(at: data) } }
        var configuration = Fixtures.configuration(data: data, seedsDemo: seedsDemo)
        configuration.adminToken = adminToken
        configure(&configuration)
        let database = try await FieldworkDatabase.open(configuration.store, logger: Fixtures.logger)
        do {
            for (form, access) in forms where try await database.forms.latest(formID: form.id) == nil {
                try await database.forms.store(Fixtures.importResult([form]), access: access)
            }
            let store = try await UserStore(database: database, hasher: PasswordHasher(cost: 4))
            for (name, password, admin) in users {
                try await store.create(name: name, password: password, isAdmin: admin)
            }
        } catch {
            await database.shutdown()
            throw error
        }
        await database.shutdown()
        let app = try await buildApplication(configuration)
        try await app.test(live ? .live : .router, test)
    }
}
