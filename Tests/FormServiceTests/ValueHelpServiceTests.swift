import FormModel
import Foundation
import Testing

@testable import FormService

/// The service a `Common.ValueListReferences` URL names: resolved against the service's
/// `$metadata` as Fiori elements resolves it, on the connection's origin only, and its `$metadata`
/// read with the connection's credentials.
@Suite("OData: value helps in services of their own")
struct ValueHelpServiceTests {
    static let travelRoot = "https://host.example/sap/opu/odata4/dmo/ui_travel_mduu_o4/srvd/dmo/sd_travel_mduu/0001/"

    /// Each reference's service root for a client of the travel service, or why it was refused;
    /// nothing is sent.
    private func roots(_ references: [String]) async throws -> [Result<String, ServiceFailure>] {
        let http = ServiceHTTPClient()
        let client = try ODataClient(connection: try ODataConnection(serviceRoot: Self.travelRoot), http: http)
        let roots = references.map { reference in
            Result { () throws(ServiceFailure) in try client.valueHelpRoot(reference).absoluteString }
        }
        try await http.shutdown()
        return roots
    }

    @Test("a RAP reference climbs with ../ from the $metadata and keeps its ;ps= and ;va= segment")
    func rapReference() async throws {
        let found = try await roots([
            "../../../../srvd_f4/sap/i_currency/0001;ps='srvd-*dmo*sd_travel_mduu-0001';va='com.sap.gateway.srvd.dmo.sd_travel_mduu.v0001.et-*dmo*c_travel_mduu.currencycode'/$metadata",
            "../../../../../../srvd_f4/dmo/i_agency/0001;ps='p'/$metadata",
        ])
        #expect(
            found == [
                .success(
                    "https://host.example/sap/opu/odata4/dmo/ui_travel_mduu_o4/srvd_f4/sap/i_currency/0001;ps='srvd-*dmo*sd_travel_mduu-0001';va='com.sap.gateway.srvd.dmo.sd_travel_mduu.v0001.et-*dmo*c_travel_mduu.currencycode'/"
                ),
                .success("https://host.example/sap/opu/odata4/srvd_f4/dmo/i_agency/0001;ps='p'/"),
            ])
    }

    @Test("a reference below the service, absolute on the same origin, or with a query resolves too")
    func otherShapes() async throws {
        let found = try await roots([
            "vh/0001/$metadata", "/sap/opu/odata4/vh/0001/$metadata?sap-client=100", "https://HOST.example:443/vh/0001",
        ])
        #expect(
            found == [
                .success(Self.travelRoot + "vh/0001/"), .success("https://host.example/sap/opu/odata4/vh/0001/"),
                .success("https://HOST.example:443/vh/0001/"),
            ])
    }

    @Test("a reference to another origin is refused, whatever differs: host, scheme or port")
    func offOrigin() async throws {
        let found = try await roots([
            "https://elsewhere.example/srvd_f4/vh/0001/$metadata", "http://host.example/vh/$metadata",
            "https://host.example:8443/vh/$metadata", "//elsewhere.example/vh/$metadata",
        ])
        #expect(
            found == [
                .failure(.redirectRefused(origin: "https://elsewhere.example:443")),
                .failure(.redirectRefused(origin: "http://host.example:80")),
                .failure(.redirectRefused(origin: "https://host.example:8443")),
                .failure(.redirectRefused(origin: "https://elsewhere.example:443")),
            ])
    }

    @Test("the referenced $metadata is read with the connection's credentials and sap-client; a 404 is not found")
    func referencedMetadata() async throws {
        try await TestServer.with({ request in
            request.uri.hasPrefix("/srvd_f4/vh/0001;ps='x'/$metadata")
                ? TestServer.Response(200, headers: [("Content-Type", "application/xml")], body: "<edmx:Edmx/>")
                : TestServer.Response(404)
        }) { server in
            let http = ServiceHTTPClient()
            let connection = try ODataConnection(
                serviceRoot: server.base + "/srvd/travel/0001/", auth: .basic(user: "me", password: "pw"),
                sapClient: "100")
            let client = try ODataClient(connection: connection, http: http)
            let root = try client.valueHelpRoot("../../../srvd_f4/vh/0001;ps='x'/$metadata")
            let bytes = try await client.metadata(root: root)
            #expect(String(decoding: bytes, as: UTF8.self) == "<edmx:Edmx/>")
            let missing = try client.valueHelpRoot("../../../srvd_f4/gone/0001/$metadata")
            await #expect(throws: ServiceFailure.notFound) { try await client.metadata(root: missing) }
            try await http.shutdown()
            #expect(server.requests[0].uri.hasSuffix("/$metadata?sap-client=100"))
            #expect(server.requests[0].header("Authorization") == "Basic bWU6cHc=")
        }
    }
}
