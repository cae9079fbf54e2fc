import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing

@testable import FormWeb

/// `Common.ValueListReferences` followed at run time: a connected form's field whose value help is
/// a service of its own (SAP RAP's `srvd_f4`) gets its options, searches and checks from that
/// service; one that cannot be followed refuses its values as "could not be checked". The
/// services here are a real HTTP server on loopback, serving the documents as RAP does.
@Suite("Value helps in services of their own")
struct ValueHelpReferenceTests {
    static let metadata = """
        <?xml version="1.0" encoding="utf-8"?>
        <edmx:Edmx xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx" Version="4.0">
          <edmx:Reference Uri="https://sap.github.io/odata-vocabularies/vocabularies/Common.xml">
            <edmx:Include Namespace="com.sap.vocabularies.Common.v1" Alias="SAP__common"/>
          </edmx:Reference>
          <edmx:DataServices>
            <Schema xmlns="http://docs.oasis-open.org/odata/ns/edm" Namespace="demo.v0001" Alias="SAP__self">
              <EntityType Name="TicketType">
                <Key><PropertyRef Name="ID"/></Key>
                <Property Name="ID" Type="Edm.String" Nullable="false" MaxLength="10"/>
                <Property Name="Currency" Type="Edm.String" MaxLength="5"/>
                <Property Name="Carrier" Type="Edm.String" MaxLength="3"/>
                <Property Name="Agency" Type="Edm.String" MaxLength="6"/>
              </EntityType>
              <EntityContainer Name="Container">
                <EntitySet Name="Ticket" EntityType="demo.v0001.TicketType"/>
              </EntityContainer>
              <Annotations Target="SAP__self.TicketType/Currency">
                <Annotation Term="SAP__common.ValueListReferences">
                  <Collection><String>../../../srvd_f4/sap/i_currency/0001;ps='srvd-demo-0001';va='demo.v0001.et-ticket.currency'/$metadata</String></Collection>
                </Annotation>
              </Annotations>
              <Annotations Target="SAP__self.TicketType/Carrier">
                <Annotation Term="SAP__common.ValueListReferences">
                  <Collection><String>../../../srvd_f4/dmo/i_carrier/0001/$metadata</String></Collection>
                </Annotation>
              </Annotations>
              <Annotations Target="SAP__self.TicketType/Agency">
                <Annotation Term="SAP__common.ValueListReferences">
                  <Collection><String>https://elsewhere.example/srvd_f4/dmo/i_agency/0001/$metadata</String></Collection>
                </Annotation>
              </Annotations>
            </Schema>
          </edmx:DataServices>
        </edmx:Edmx>
        """
    /// The currency value-help service's `$metadata`, its mapping targeting the ticket's property.
    static let currencyHelp = """
        <?xml version="1.0" encoding="utf-8"?>
        <edmx:Edmx xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx" Version="4.0">
          <edmx:Reference Uri="https://sap.github.io/odata-vocabularies/vocabularies/Common.xml">
            <edmx:Include Namespace="com.sap.vocabularies.Common.v1" Alias="SAP__common"/>
          </edmx:Reference>
          <edmx:DataServices>
            <Schema xmlns="http://docs.oasis-open.org/odata/ns/edm" Namespace="f4.i_currency" Alias="SAP__self">
              <EntityType Name="I_CurrencyType">
                <Key><PropertyRef Name="Currency"/></Key>
                <Property Name="Currency" Type="Edm.String" Nullable="false" MaxLength="5"/>
                <Property Name="Currency_Text" Type="Edm.String" MaxLength="40"/>
              </EntityType>
              <EntityContainer Name="Container">
                <EntitySet Name="I_Currency" EntityType="f4.i_currency.I_CurrencyType"/>
              </EntityContainer>
              <Annotations Target="SAP__self.I_CurrencyType/Currency">
                <Annotation Term="SAP__common.Text" Path="Currency_Text"/>
              </Annotations>
              <Annotations Target="demo.v0001.TicketType/Currency">
                <Annotation Term="SAP__common.ValueListMapping">
                  <Record>
                    <PropertyValue Property="Label" String="Currency"/>
                    <PropertyValue Property="CollectionPath" String="I_Currency"/>
                    <PropertyValue Property="Parameters">
                      <Collection>
                        \(ValueListXML.parameter("InOut", local: "Currency", property: "Currency", alias: "SAP__common"))
                      </Collection>
                    </PropertyValue>
                  </Record>
                </Annotation>
              </Annotations>
            </Schema>
          </edmx:DataServices>
        </edmx:Edmx>
        """
    static let currencies = [("EUR", "Euro"), ("USD", "US Dollar"), ("JPY", "Yen")]

    /// What the services were asked, by path and query.
    final class Asked: Sendable {
        let seen = Mutex<[String]>([])
        var all: [String] { seen.withLock { $0 } }
        func add(_ line: String) { seen.withLock { $0.append(line) } }
    }

    /// The travel service and its value-help services, by path as RAP lays them out.
    static func service(_ asked: Asked) -> Router<BasicRequestContext> {
        let router = Router()
        router.on("**", method: .get) { request, _ -> Response in
            let path = request.uri.path.removingPercentEncoding ?? request.uri.path
            asked.add(path + "?" + (request.uri.query?.removingPercentEncoding ?? ""))
            func xml(_ text: String) -> Response {
                Response(
                    status: .ok, headers: [.contentType: "application/xml"],
                    body: .init(byteBuffer: ByteBuffer(string: text)))
            }
            switch path {
            case "/sap/srvd/demo/0001/$metadata": return xml(metadata)
            case "/sap/srvd_f4/sap/i_currency/0001;ps='srvd-demo-0001';va='demo.v0001.et-ticket.currency'/$metadata":
                return xml(currencyHelp)
            case "/sap/srvd_f4/sap/i_currency/0001;ps='srvd-demo-0001';va='demo.v0001.et-ticket.currency'/I_Currency":
                let filter = request.uri.query?.removingPercentEncoding ?? ""
                let rows = currencies.filter { code, name in
                    if filter.contains("Currency eq '") { return filter.contains("Currency eq '\(code)'") }
                    if filter.contains("$search=\"eu\"") { return name.lowercased().contains("eu") }
                    return true
                }
                let values = rows.map { #"{"Currency":"\#($0.0)","Currency_Text":"\#($0.1)"}"# }
                return Response(
                    status: .ok, headers: [.contentType: "application/json"],
                    body: .init(
                        byteBuffer: ByteBuffer(
                            string: #"{"@odata.count":\#(rows.count),"value":[\#(values.joined(separator: ","))]}"#)))
            default:
                return Response(status: .notFound)
            }
        }
        // One recursive route a method: the router's tree does not fall back from a longer literal path.
        router.on("**", method: .post) { request, _ -> Response in
            let body = try await request.body.collect(upTo: 1 << 16)
            asked.add("POST Ticket " + String(buffer: body))
            return Response(
                status: .created, headers: [.contentType: "application/json"], body: .init(byteBuffer: body))
        }
        return router
    }

    /// Runs `test` with Fieldwork (the metadata imported) and the services on a real port.
    static func withConnected(
        _ test: @escaping @Sendable (any TestClientProtocol, String, Asked) async throws -> Void
    ) async throws {
        let asked = Asked()
        try await ConnectionAPITests.withService(service(asked), root: "sap/srvd/demo/0001/", importing: metadata) {
            client, root, _ in try await test(client, root, asked)
        }
    }

    static let form = "demo-v0001-ticket"

    static func connect(_ client: any TestClientProtocol, _ root: String) async throws -> String {
        let answer = try await ConnectionAPITests.send(
            client, "/api/forms/\(form)/connection", method: .put,
            body: #"{"url": "\#(root)", "auth": {"kind": "none"}, "mode": "service"}"#)
        #expect(answer.status == .ok, "\(answer.body)")
        return answer.body
    }

    @Test("connecting follows each reference: one followed, a 404 and another origin listed with why")
    func connectionReport() async throws {
        try await Self.withConnected { client, root, asked in
            let answer = try await Self.connect(client, root)
            let json = try #require(
                try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any])
            let references = try #require(json["valueHelpReferences"] as? [String: Any], "\(answer)")
            #expect(references["followed"] as? Int == 1)
            let unresolved = try #require(references["unresolved"] as? [[String: Any]])
            #expect(unresolved.map { $0["field"] as? String } == ["Agency", "Carrier"])
            #expect(
                unresolved.first?["message"] as? String
                    == "Ticket/Agency's value help is in a service on another origin (https://elsewhere.example:443); value helps are followed on the service's origin only."
            )
            let carrier = unresolved.last?["message"] as? String ?? ""
            let f4 = root.replacingOccurrences(of: "srvd/demo/0001/", with: "srvd_f4/dmo/i_carrier/0001/")
            #expect(
                carrier
                    == "Ticket/Carrier's value help service \(f4)$metadata could not be read: the service answered 404 (no such service)."
            )
            // The stored report is shown again.
            let shown = try await ConnectionAPITests.send(client, "/api/forms/\(Self.form)/connection")
            #expect(shown.body.contains(#""followed":1"#))
        }
    }

    @Test("a referenced value help gives the list's page and search, and judges a create's value")
    func pageSearchAndLookup() async throws {
        try await Self.withConnected { client, root, asked in
            _ = try await Self.connect(client, root)
            let page = try await ConnectionAPITests.send(client, "/api/forms/\(Self.form)/fields/Currency/options")
            #expect(page.status == .ok, "\(page.body)")
            #expect(page.body.contains(#""value":"EUR""#) && page.body.contains(#""label":"Euro""#))
            #expect(page.body.contains(#""total":3"#))
            let searched = try await ConnectionAPITests.send(
                client, "/api/forms/\(Self.form)/fields/Currency/options?q=eu")
            #expect(searched.body.contains(#""total":1"#), "\(searched.body)")
            let f4 = "/sap/srvd_f4/sap/i_currency/0001;ps='srvd-demo-0001';va='demo.v0001.et-ticket.currency'/"
            // Meanwhile the change feed (read every 250 ms) reads the connection's own change back:
            // applied once at its commit, it must not drop the help followed since.
            try await Task.sleep(for: .milliseconds(600))
            // The mapping's set says nothing of search: `$search`, as Capabilities' default allows.
            #expect(
                asked.all.contains { $0.hasPrefix(f4 + "I_Currency?$select=Currency,Currency_Text&$search=\"eu\"&") })

            let created = try await ConnectionAPITests.send(
                client, "/api/forms/\(Self.form)/objects", method: .post, body: #"{"ID": "T1", "Currency": "USD"}"#)
            #expect(created.status == .created, "\(created.body)")
            #expect(asked.all.contains { $0.hasPrefix(f4 + "I_Currency?") && $0.contains("Currency eq 'USD'") })
            #expect(asked.all.contains { $0.hasPrefix("POST Ticket") })

            let refused = try await ConnectionAPITests.send(
                client, "/api/forms/\(Self.form)/objects", method: .post, body: #"{"ID": "T2", "Currency": "XXX"}"#)
            #expect(refused.status == .unprocessableContent)
            #expect(refused.body.contains(#""code":"not-an-option""#), "\(refused.body)")
            // The referenced $metadata was read once, kept for the connection.
            #expect(asked.all.filter { $0.hasPrefix(f4 + "$metadata") }.count == 2)  // the test, then once
        }
    }

    @Test("a value of a field whose value-help service is missing is refused as not checked, never accepted")
    func unresolvedIsUnchecked() async throws {
        try await Self.withConnected { client, root, asked in
            _ = try await Self.connect(client, root)
            let refused = try await ConnectionAPITests.send(
                client, "/api/forms/\(Self.form)/objects", method: .post, body: #"{"ID": "T3", "Carrier": "LH"}"#)
            #expect(refused.status == .unprocessableContent, "\(refused.body)")
            #expect(refused.body.contains(#""field":"Carrier""#) && refused.body.contains(#""code":"unchecked""#))
            #expect(refused.body.contains("could not be checked"))
            #expect(!asked.all.contains { $0.hasPrefix("POST Ticket") })
            let options = try await ConnectionAPITests.send(client, "/api/forms/\(Self.form)/fields/Carrier/options")
            #expect(options.status == .badGateway)
        }
    }
}
