import FluentKit
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import TestSupport
import Testing

@testable import FormStore
@testable import FormWeb

/// `PUT /api/forms/{id}/connection`: settings checked, the service's `$metadata` fetched and
/// compared, the secret sealed and never answered. The service here is a real HTTP server on
/// loopback serving a metadata document, as a service root does.
@Suite("Connecting an OData import to its service")
struct ConnectionAPITests {
    static let token = "connect-token"
    static let secret = "s3cret-Passw0rd-never-shown"
    static let metadata = """
        <?xml version="1.0" encoding="utf-8"?>
        <edmx:Edmx xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx" Version="4.0">
          <edmx:DataServices>
            <Schema xmlns="http://docs.oasis-open.org/odata/ns/edm" Namespace="demo">
              <EntityType Name="Ticket">
                <Key><PropertyRef Name="ID"/></Key>
                <Property Name="ID" Type="Edm.String" Nullable="false" MaxLength="10"/>
                <Property Name="Title" Type="Edm.String" MaxLength="80"/>
              </EntityType>
              <EntityContainer Name="Tickets">
                <EntitySet Name="Tickets" EntityType="demo.Ticket"/>
              </EntityContainer>
            </Schema>
          </edmx:DataServices>
        </edmx:Edmx>
        """

    static func send(
        _ client: any TestClientProtocol, _ uri: String, method: HTTPRequest.Method = .get, body: String? = nil,
        type: String = "application/json"
    ) async throws -> (status: HTTPResponse.Status, body: String) {
        var headers: HTTPFields = [.authorization: "Bearer \(token)"]
        if body != nil { headers[.contentType] = type }
        let response = try await client.execute(
            uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        return (response.status, String(buffer: response.body))
    }

    /// Runs `test` with Fieldwork (the metadata imported) and a service root on a real port.
    static func withService(
        served: String = metadata,
        _ test: @escaping @Sendable (any TestClientProtocol, String, URL) async throws -> Void
    ) async throws {
        let router = Router()
        router.get("odata/$metadata") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/xml"],
                body: .init(byteBuffer: ByteBuffer(string: served)))
        }
        try await withService(router, root: "odata/", importing: metadata, test)
    }

    /// Runs `test` with Fieldwork (`importing` imported) and the service `router` answers on a
    /// real port, its root at the path `root`.
    static func withService(
        _ router: Router<BasicRequestContext>, root: String, importing imported: String,
        _ test: @escaping @Sendable (any TestClientProtocol, String, URL) async throws -> Void
    ) async throws {
        try await Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
            .test(.live) { service in
                let data = Fixtures.temporaryDataFolder()
                try await TestApp.run(forms: [], data: data, keepData: true, adminToken: token) { client in
                    let answer = try await send(
                        client, "/api/forms", method: .post, body: imported, type: "application/xml")
                    #expect(answer.status == .created, "\(answer.body)")
                    try await test(client, "http://127.0.0.1:\(service.port!)/" + root, data)
                }
                try? FileManager.default.removeItem(at: data)
            }
    }

    @Test("a connection is tested, stored with its secret sealed, and answered without the secret")
    func connects() async throws {
        try await Self.withService { client, root, data in
            let body = """
                {"url": "\(root)", "auth": {"kind": "basic", "user": "me", "secret": "\(Self.secret)"}, "mode": "service"}
                """
            let answer = try await Self.send(client, "/api/forms/demo-tickets/connection", method: .put, body: body)
            #expect(answer.status == .ok, "\(answer.body)")
            #expect(!answer.body.contains(Self.secret))
            #expect(answer.body.contains(#""secretStored":true"#))
            #expect(answer.body.contains(#""drift":[]"#))
            let shown = try await Self.send(client, "/api/forms/demo-tickets/connection")
            #expect(shown.status == .ok && !shown.body.contains(Self.secret))
            // A copy of the database alone reveals no credential.
            let file = try Data(contentsOf: data.appendingPathComponent("fieldwork.sqlite"))
            let wal = (try? Data(contentsOf: data.appendingPathComponent("fieldwork.sqlite-wal"))) ?? Data()
            #expect(file.range(of: Data(Self.secret.utf8)) == nil && wal.range(of: Data(Self.secret.utf8)) == nil)
            // The key file is the data folder's, readable by its owner only.
            let mode =
                try FileManager.default.attributesOfItem(
                    atPath: data.appendingPathComponent("sealing.key").path)[.posixPermissions] as? NSNumber
            #expect(mode?.intValue == 0o600)
        }
    }

    @Test("another scheme, a service nobody answers at, and missing credentials are refused with what to do")
    func refusals() async throws {
        try await Self.withService { client, root, _ in
            let path = "/api/forms/demo-tickets/connection"
            let ftp = try await Self.send(
                client, path, method: .put, body: #"{"url": "ftp://files.example/odata/", "auth": {"kind": "none"}}"#)
            #expect(ftp.status == .unprocessableContent)
            #expect(ftp.body.contains("Enter an http or https URL for the service root"), "\(ftp.body)")
            let nobody = try await Self.send(
                client, path, method: .put,
                body: #"{"url": "http://127.0.0.1:1/odata/", "auth": {"kind": "bearer", "secret": "\#(Self.secret)"}}"#)
            #expect(nobody.status == .unprocessableContent)
            #expect(nobody.body.contains("cannot be reached"), "\(nobody.body)")
            #expect(!nobody.body.contains(Self.secret))
            let noPassword = try await Self.send(
                client, path, method: .put, body: #"{"url": "\#(root)", "auth": {"kind": "basic", "user": "me"}}"#)
            #expect(noPassword.status == .unprocessableContent)
            #expect(noPassword.body.contains("Enter the password for basic authentication."))
            // Nothing was stored by any of them.
            #expect(try await Self.send(client, path).status == .notFound)
        }
    }

    @Test("a service whose metadata changed is connected, with the differences listed as drift")
    func drift() async throws {
        let changed = Self.metadata.replacingOccurrences(of: #"MaxLength="80""#, with: #"MaxLength="40""#)
        try await Self.withService(served: changed) { client, root, _ in
            let answer = try await Self.send(
                client, "/api/forms/demo-tickets/connection", method: .put,
                body: #"{"url": "\#(root)", "auth": {"kind": "none"}, "mode": "local"}"#)
            #expect(answer.status == .ok, "\(answer.body)")
            #expect(answer.body.contains("Tickets/Title is at most 40 characters in the service (imported as 80)."))
            #expect(answer.body.contains(#""demo-tickets":"local""#))
        }
    }
}
