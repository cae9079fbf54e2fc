import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing

@testable import FormWeb

/// A small OData V4 shop service on a real loopback port: products whose category's value help
/// also gives the main category (`InOut`), whose main category is a fixed-value list, and whose
/// customer's value help gives the country (`Out`) and a region that is no field of the form. It
/// answers `$filter` (`eq`, `contains(tolower(…))`, `and`, `or`), `$top`, `$skip` and `$count`
/// over its rows, takes creates, and logs every request.
final class ShopService: Sendable {
    static let metadata = """
        <?xml version="1.0" encoding="utf-8"?>
        <edmx:Edmx xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx" Version="4.0">
          <edmx:Reference Uri="https://sap.github.io/odata-vocabularies/vocabularies/Common.xml">
            <edmx:Include Namespace="com.sap.vocabularies.Common.v1" Alias="Common"/>
          </edmx:Reference>
          <edmx:Reference Uri="https://oasis-tcs.github.io/odata-vocabularies/vocabularies/Org.OData.Core.V1.xml">
            <edmx:Include Namespace="Org.OData.Core.V1" Alias="Core"/>
          </edmx:Reference>
          <edmx:DataServices>
            <Schema xmlns="http://docs.oasis-open.org/odata/ns/edm" Namespace="shop">
              <EntityType Name="Product">
                <Key><PropertyRef Name="ID"/></Key>
                <Property Name="ID" Type="Edm.String" Nullable="false" MaxLength="10"/>
                <Property Name="Category" Type="Edm.String" MaxLength="20"/>
                <Property Name="MainCategory" Type="Edm.String" MaxLength="20"/>
                <Property Name="Customer" Type="Edm.String" MaxLength="10"/>
                <Property Name="Country" Type="Edm.String" MaxLength="3"/>
                <Property Name="Region" Type="Edm.String" MaxLength="3"/>
              </EntityType>
              <EntityType Name="Category">
                <Key><PropertyRef Name="Code"/></Key>
                <Property Name="Code" Type="Edm.String" Nullable="false" MaxLength="20"/>
                <Property Name="Name" Type="Edm.String" MaxLength="40"/>
                <Property Name="Main" Type="Edm.String" MaxLength="20"/>
              </EntityType>
              <EntityType Name="MainCategory">
                <Key><PropertyRef Name="Code"/></Key>
                <Property Name="Code" Type="Edm.String" Nullable="false" MaxLength="20"/>
                <Property Name="Text" Type="Edm.String" MaxLength="40"/>
              </EntityType>
              <EntityType Name="Customer">
                <Key><PropertyRef Name="ID"/></Key>
                <Property Name="ID" Type="Edm.String" Nullable="false" MaxLength="10"/>
                <Property Name="Name" Type="Edm.String" MaxLength="40"/>
                <Property Name="Country" Type="Edm.String" MaxLength="3"/>
                <Property Name="Region" Type="Edm.String" MaxLength="3"/>
              </EntityType>
              <EntityContainer Name="Shop">
                <EntitySet Name="Products" EntityType="shop.Product"/>
                <EntitySet Name="Categories" EntityType="shop.Category"/>
                <EntitySet Name="MainCategories" EntityType="shop.MainCategory"/>
                <EntitySet Name="Customers" EntityType="shop.Customer"/>
              </EntityContainer>
              <Annotations Target="shop.Product/Region">
                <Annotation Term="Core.Computed"/>
              </Annotations>
              <Annotations Target="shop.Product/Category">
                <Annotation Term="Common.ValueList">
                  <Record>
                    <PropertyValue Property="CollectionPath" String="Categories"/>
                    <PropertyValue Property="SearchSupported" Bool="false"/>
                    <PropertyValue Property="Parameters">
                      <Collection>
                        \(ValueListXML.parameter("InOut", local: "Category", property: "Code"))
                        \(ValueListXML.parameter("InOut", local: "MainCategory", property: "Main"))
                        \(ValueListXML.parameter("DisplayOnly", property: "Name"))
                      </Collection>
                    </PropertyValue>
                  </Record>
                </Annotation>
              </Annotations>
              <Annotations Target="shop.Product/MainCategory">
                <Annotation Term="Common.ValueListWithFixedValues"/>
                <Annotation Term="Common.ValueList">
                  <Record>
                    <PropertyValue Property="CollectionPath" String="MainCategories"/>
                    <PropertyValue Property="Parameters">
                      <Collection>
                        \(ValueListXML.parameter("InOut", local: "MainCategory", property: "Code"))
                        \(ValueListXML.parameter("DisplayOnly", property: "Text"))
                      </Collection>
                    </PropertyValue>
                  </Record>
                </Annotation>
              </Annotations>
              <Annotations Target="shop.Product/Customer">
                <Annotation Term="Common.ValueList">
                  <Record>
                    <PropertyValue Property="CollectionPath" String="Customers"/>
                    <PropertyValue Property="SearchSupported" Bool="false"/>
                    <PropertyValue Property="Parameters">
                      <Collection>
                        \(ValueListXML.parameter("InOut", local: "Customer", property: "ID"))
                        \(ValueListXML.parameter("Out", local: "Country", property: "Country"))
                        \(ValueListXML.parameter("Out", local: "Region", property: "Region"))
                        \(ValueListXML.parameter("DisplayOnly", property: "Name"))
                      </Collection>
                    </PropertyValue>
                  </Record>
                </Annotation>
              </Annotations>
            </Schema>
          </edmx:DataServices>
        </edmx:Edmx>
        """

    static let rows: [String: [[String: String]]] = [
        "Categories": [
            ["Code": "LP", "Name": "Laser Printers", "Main": "PR"],
            ["Code": "NB", "Name": "Notebooks", "Main": "CS"],
            ["Code": "TB", "Name": "Tablets", "Main": "CS"],
        ],
        "MainCategories": [
            ["Code": "CS", "Text": "Computer Systems"], ["Code": "PR", "Text": "Printers & Scanners"],
        ],
        "Customers": [
            ["ID": "C1", "Name": "Acme", "Country": "DE", "Region": "BY"],
            ["ID": "C2", "Name": "Globex", "Country": "FR", "Region": "IDF"],
        ],
    ]

    /// Every request as `METHOD path?query`, and the bodies of creates.
    let log = Mutex<[String]>([])
    let created = Mutex<[[String: String]]>([])
    /// Collections that answer 503.
    let failing: Set<String>

    init(failing: Set<String> = []) {
        self.failing = failing
    }

    var requests: [String] { log.withLock { $0 } }

    /// Runs `test` with the service root (`http://127.0.0.1:PORT/odata/`).
    func run(_ test: @escaping @Sendable (String) async throws -> Void) async throws {
        let router = Router()
        router.get("odata/$metadata") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/xml"],
                body: .init(byteBuffer: ByteBuffer(string: Self.metadata)))
        }
        router.get("odata/:set") { request, context in
            let set = try context.parameters.require("set")
            self.log.withLock { $0.append("GET /odata/\(set)?\(request.uri.query ?? "")") }
            guard !self.failing.contains(set), let rows = Self.rows[set] else {
                return Response(status: self.failing.contains(set) ? .serviceUnavailable : .notFound)
            }
            return Self.json(Self.answer(rows, query: request.uri.query ?? ""))
        }
        router.post("odata/Products") { request, _ in
            let body = try await request.body.collect(upTo: 1 << 16)
            let sent = try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any] ?? [:]
            let values = sent.compactMapValues { $0 as? String }
            self.log.withLock { $0.append("POST /odata/Products") }
            self.created.withLock { $0.append(values) }
            return Self.json(values, status: .created)
        }
        try await Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
            .test(.live) { client in
                try await test("http://127.0.0.1:\(try #require(client.port))/odata/")
            }
    }

    private static func json(_ object: Any, status: HTTPResponse.Status = .ok) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return Response(
            status: status, headers: [.contentType: "application/json", HTTPField.Name("OData-Version")!: "4.0"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The rows that match `$filter`, ordered by `$orderby`, with `$skip`, `$top` and `$count`.
    private static func answer(_ rows: [[String: String]], query: String) -> [String: Any] {
        var options: [String: String] = [:]
        for part in query.split(separator: "&") {
            let pair = part.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            options[pair[0]] = pair.count > 1 ? pair[1] : ""
        }
        var matching = rows.filter { row in options["$filter"].map { matches(row, $0) } ?? true }
        if let order = options["$orderby"] { matching.sort { ($0[order] ?? "") < ($1[order] ?? "") } }
        let total = matching.count
        matching = Array(
            matching.dropFirst(Int(options["$skip"] ?? "") ?? 0).prefix(Int(options["$top"] ?? "") ?? 1000))
        var answer: [String: Any] = ["value": matching]
        if options["$count"] == "true" { answer["@odata.count"] = total }
        return answer
    }

    /// `A and B`, each `(X or Y)` or one comparison: `P eq 'v'`, `contains(tolower(P),'v')`.
    private static func matches(_ row: [String: String], _ filter: String) -> Bool {
        filter.components(separatedBy: " and ").allSatisfy { clause in
            let trimmed =
                clause.hasPrefix("(") && clause.hasSuffix(")") ? String(clause.dropFirst().dropLast()) : clause
            return trimmed.components(separatedBy: " or ").contains { atom in
                if let eq = atom.firstMatch(of: /^(\w+) eq '(.*)'$/) {
                    return row[String(eq.1)] == String(eq.2).replacingOccurrences(of: "''", with: "'")
                }
                if let contains = atom.firstMatch(of: /^contains\(tolower\((\w+)\),'(.*)'\)$/) {
                    return row[String(contains.1)]?.lowercased().contains(String(contains.2)) == true
                }
                return false
            }
        }
    }
}

@Suite("Value helps of a connected form: fills and fixed lists")
struct ServiceValueHelpTests {
    static let form = "shop-products"

    /// Fieldwork with the shop imported and connected in mode `service`, an admin's browser.
    static func connected(
        _ service: ShopService = ShopService(),
        _ test: @escaping @Sendable (any TestClientProtocol, TestBrowser, ShopService) async throws -> Void
    ) async throws {
        try await service.run { root in
            try await TestApp.run(forms: [], adminToken: ConnectionAPITests.token) { client in
                let imported = try await ConnectionAPITests.send(
                    client, "/api/forms", method: .post, body: ShopService.metadata, type: "application/xml")
                #expect(imported.status == .created, "\(imported.body)")
                let connected = try await ConnectionAPITests.send(
                    client, "/api/forms/\(form)/connection", method: .put,
                    body: #"{"url": "\#(root)", "auth": {"kind": "none"}, "mode": "service"}"#)
                #expect(connected.status == .ok, "\(connected.body)")
                try await test(client, try await AdminFixtures.admin(client), service)
            }
        }
    }

    /// The create view's hidden inputs.
    static func hidden(_ page: TestBrowser.Page) -> [(String, String)] {
        page.body.matches(of: /<input type="hidden" name="(_csrf|_once|_prefill)" value="([^"]*)">/).map {
            (String($0.1), String($0.2))
        }
    }

    @Test("the options API gives, per option, the values it fills into other fields of the form, and no others")
    func optionsFills() async throws {
        try await Self.connected { client, _, _ in
            let categories = try await ConnectionAPITests.send(
                client, "/api/forms/\(Self.form)/fields/Category/options?q=note")
            #expect(categories.status == .ok)
            #expect(
                categories.body
                    == #"{"more":false,"options":[{"fills":{"MainCategory":"CS"},"label":"Notebooks","value":"NB"}],"page":1,"total":1}"#
            )
            // Region is no field of the form (computed): it is not filled.
            let customers = try await ConnectionAPITests.send(client, "/api/forms/\(Self.form)/fields/Customer/options")
            #expect(
                customers.body
                    == #"{"more":false,"options":[{"fills":{"Country":"DE"},"label":"Acme","value":"C1"},{"fills":{"Country":"FR"},"label":"Globex","value":"C2"}],"page":1,"total":2}"#
            )
        }
    }

    @Test("a fixed-value list is read whole once and shown as a select of the service's options, checked against it")
    func fixedListAsSelect() async throws {
        try await Self.connected { _, browser, service in
            let page = try await browser.get("/forms/\(Self.form)/new")
            #expect(page.status == .ok)
            #expect(
                page.body.contains(
                    """
                    <option value="">Select</option>

                    <option value="CS">Computer Systems</option>
                    <option value="PR">Printers &amp; Scanners</option>
                    </select>
                    """))
            #expect(page.body.contains(#"<select class="fw-select" id="field-MainCategory" name="MainCategory""#))
            #expect(!page.body.contains(#"data-name="MainCategory""#), "no long list")
            #expect(
                page.body.contains(#"class="fw-longlist" data-name="Category""#), "a list with Out fields stays long")
            // A value the list does not have is refused by the whole list: no lookup of it.
            let refused = try await browser.post(
                "/forms/\(Self.form)", Self.hidden(page) + [("ID", "P0"), ("MainCategory", "XX")])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.body.contains(##"<a href="#field-MainCategory">Select a main category from the list</a>"##))
            let asked = service.requests.filter { $0.hasPrefix("GET /odata/MainCategories") }
            #expect(
                asked == ["GET /odata/MainCategories?$select=Code,Text&$orderby=Code&$top=201&$count=true"],
                "read whole once, kept for the next page")
            #expect(service.created.withLock { $0.isEmpty })
        }
    }

    @Test("a fixed-value list the service does not answer for falls back to the long list, checked at submit")
    func fixedListFallsBack() async throws {
        try await Self.connected(ShopService(failing: ["MainCategories"])) { _, browser, _ in
            let page = try await browser.get("/forms/\(Self.form)/new")
            #expect(page.body.contains(#"class="fw-longlist" data-name="MainCategory""#))
            let refused = try await browser.post(
                "/forms/\(Self.form)", Self.hidden(page) + [("ID", "P0"), ("MainCategory", "CS")])
            #expect(refused.status == .unprocessableContent)
            #expect(
                refused.body.contains(
                    "Main Category could not be checked because the service did not answer. Send the form again to try again."
                ))
        }
    }

    @Test("without JavaScript, Use this choice under the matches fills in the fields the chosen one gives")
    func pickWithoutScript() async throws {
        try await Self.connected { _, browser, service in
            let page = try await browser.get("/forms/\(Self.form)/new")
            // The list screen sends only the answers that filter a list: the main category (In)
            // with the category's search, none with the customer's.
            func listTag(_ name: String) throws -> String {
                let start = try #require(page.body.range(of: #"<div class="fw-longlist" data-name="\#(name)""#))
                return String(page.body[start.lowerBound...].prefix(while: { $0 != ">" }))
            }
            #expect(try listTag("Category").contains(#"data-filtered-by="MainCategory""#))
            #expect(try !listTag("Customer").contains("data-filtered-by"))
            let searched = try await browser.post(
                "/forms/\(Self.form)",
                // The select left at "Select" sends an empty main category, which filters nothing.
                Self.hidden(page) + [
                    ("ID", "P1"), ("MainCategory", ""), ("Category._q", "note"), ("_search", "Category"),
                ])
            #expect(searched.status == .ok)
            #expect(
                searched.body.contains(
                    #"<div class="fw-longlist__pick"><button class="fw-button fw-button--secondary" type="submit" name="_pick" value="Category">Use this choice</button><p class="fw-longlist__note">It also fills in Main Category.</p></div>"#
                ))
            let picked = try await browser.post(
                "/forms/\(Self.form)",
                Self.hidden(page) + [("ID", "P1"), ("Category", "NB"), ("MainCategory", "PR"), ("_pick", "Category")])
            #expect(picked.status == .ok)
            #expect(picked.body.contains(#"<option value="CS" selected>Computer Systems</option>"#), "replaced")
            #expect(
                picked.body.contains(
                    #"value="NB" checked><label class="fw-checkbox__label" for="field-Category-option-1">Notebooks</label>"#
                ))
            #expect(picked.body.contains(#"value="P1""#), "everything typed kept")
            #expect(!picked.body.contains("fw-error-summary"))
            // The customer's pick fills its country, a plain text field.
            let customer = try await browser.post(
                "/forms/\(Self.form)", Self.hidden(page) + [("ID", "P1"), ("Customer", "C2"), ("_pick", "Customer")])
            #expect(
                customer.body.contains(#"name="Country" type="text" maxlength="3" data-clear="true" value="FR">"#),
                "\(customer.body)")
            #expect(service.created.withLock { $0.isEmpty }, "nothing created")
        }
    }

    @Test("the server fills an Out field left empty from the chosen row, and refuses one that contradicts it")
    func serverFills() async throws {
        try await Self.connected { _, browser, service in
            let page = try await browser.get("/forms/\(Self.form)/new")
            let stored = try await browser.post(
                "/forms/\(Self.form)", Self.hidden(page) + [("ID", "P2"), ("Category", "NB"), ("Customer", "C1")])
            #expect(stored.status == .seeOther, "\(stored.body)")
            let sent = try #require(service.created.withLock { $0.first })
            #expect(sent["MainCategory"] == "CS" && sent["Country"] == "DE" && sent["Category"] == "NB")
            #expect(sent["Region"] == nil, "not a field of the form")
            // The row found for the fill answered the check too: one lookup of NB.
            #expect(
                service.requests.filter { $0.contains("Code%20eq%20'NB'") || $0.contains("Code eq 'NB'") }.count == 1)

            // Printers & Scanners holds no Notebooks: the category's filtered lookup finds no row.
            let again = try await browser.get("/forms/\(Self.form)/new")
            let refused = try await browser.post(
                "/forms/\(Self.form)", Self.hidden(again) + [("ID", "P3"), ("Category", "NB"), ("MainCategory", "PR")])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.body.contains("Choose Category from the list: NB is not one of its options."))
            #expect(refused.body.contains(#"<option value="PR" selected>"#), "the user's value kept")
            #expect(service.created.withLock { $0.count } == 1)
        }
    }
}

/// The EDMX of one `Common.ValueList` parameter record, for the test services' metadata.
enum ValueListXML {
    /// `<Record Type="{alias}.ValueListParameter{kind}">` with its local property (none for
    /// `DisplayOnly`) and the value list's property.
    static func parameter(_ kind: String, local: String? = nil, property: String, alias: String = "Common") -> String {
        let localLine =
            local.map { #"<PropertyValue Property="LocalDataProperty" PropertyPath="\#($0)"/>"# } ?? ""
        return """
            <Record Type="\(alias).ValueListParameter\(kind)">\(localLine)\
            <PropertyValue Property="ValueListProperty" String="\(property)"/></Record>
            """
    }
}
