import FormModel
import Testing

@testable import FormService

private func binding(_ version: ODataVersion, searchSupported: Bool = false) -> ServiceBinding {
    ServiceBinding(
        version: version, entitySet: "Customers", entityType: "C.Customer", keys: [],
        fields: [
            "country": ServiceProperty(name: "Country", type: "Edm.String"),
            "region": ServiceProperty(name: "Region", type: "Edm.String"),
            "year": ServiceProperty(name: "Year", type: "Edm.Int32"),
        ],
        valueHelps: [
            "region": ValueHelp(
                collectionPath: "Regions", searchSupported: searchSupported,
                parameters: [
                    .init(kind: .in, listProperty: "Country", field: "country"),
                    .init(kind: .inOut, listProperty: "Region", field: "region"),
                    .init(kind: .displayOnly, listProperty: "RegionName"),
                    .init(kind: .constant, listProperty: "Active", constant: "true"),
                    .init(kind: .in, listProperty: "ValidFrom", field: "year"),
                ], listTypes: ["Active": "Edm.Boolean", "ValidFrom": "Edm.Int64"])
        ])
}

private func query(_ version: ODataVersion, searchSupported: Bool = false) -> ValueHelpQuery {
    let binding = binding(version, searchSupported: searchSupported)
    return ValueHelpQuery(help: binding.valueHelps["region"]!, field: "region", binding: binding)!
}

private func text(_ options: [(String, String)]) -> [String] { options.map { "\($0.0)=\($0.1)" } }

@Test("a V2 page searches with substringof, filters by other fields and constants, and asks for the count")
func v2Page() throws {
    let options = try query(.v2).page(
        search: "Bav'", formValues: ["country": .choice("DE"), "year": .number(2026)], top: 20, skip: 40)
    #expect(
        text(options) == [
            "$select=Region,RegionName",
            "$filter=Country eq 'DE' and Active eq true and ValidFrom eq 2026L"
                + " and (substringof('Bav''',Region) or substringof('Bav''',RegionName))",
            "$orderby=Region", "$top=20", "$skip=40", "$inlinecount=allpages",
        ])
}

@Test("a V4 page searches case-insensitively with contains and counts with $count")
func v4Page() throws {
    let options = try query(.v4).page(search: "Bav", formValues: [:], top: 10, skip: 0)
    #expect(
        text(options) == [
            "$select=Region,RegionName",
            "$filter=Active eq true and (contains(tolower(Region),'bav') or contains(tolower(RegionName),'bav'))",
            "$orderby=Region", "$top=10", "$count=true",
        ])
}

@Test("a collection that supports search gets $search (V4) or SAP's search (V2)")
func searchSupported() throws {
    #expect(
        text(try query(.v4, searchSupported: true).page(search: "a \"b\"", formValues: [:], top: 5, skip: 0)).contains(
            #"$search="a \"b\"""#))
    #expect(
        text(try query(.v2, searchSupported: true).page(search: "ab", formValues: [:], top: 5, skip: 0)).contains(
            "search=ab"))
}

@Test("the field's own value never filters its list; an empty other field is left out")
func ownValueIgnored() throws {
    let options = try query(.v4).page(search: nil, formValues: ["region": .choice("BY")], top: 5, skip: 0)
    #expect(text(options)[1] == "$filter=Active eq true")
}

@Test("a lookup filters by the value and the list's filters; a fixed list is read whole")
func lookupAndFixed() throws {
    #expect(
        text(try query(.v2).lookup(.choice("BY"), formValues: ["country": .choice("DE")]))
            == ["$select=Region,RegionName", "$filter=Region eq 'BY' and Country eq 'DE' and Active eq true", "$top=2"])
    #expect(
        text(try query(.v4).fixedList(formValues: [:], limit: 500))
            == ["$select=Region,RegionName", "$filter=Active eq true", "$orderby=Region", "$top=500", "$count=true"])
}

@Test("an option is labelled by its display properties, else by its value")
func optionLabels() {
    let json = ODataJSON(version: .v4)
    #expect(
        query(.v4).option(["Region": .string("BY"), "RegionName": .string("Bavaria")], json: json)
            == Option(value: "BY", label: "Bavaria"))
    #expect(query(.v4).option(["Region": .string("BY")], json: json) == Option(value: "BY", label: "BY"))
    #expect(query(.v4).option(["RegionName": .string("x")], json: json) == nil)
}

@Test("a row gives the other fields its Out and InOut parameters name, read with $select and never searched")
func fills() throws {
    var binding = binding(.v4)
    binding.fields["regionName"] = ServiceProperty(name: "RegionName", type: "Edm.String")
    binding.valueHelps["region"]?.parameters += [
        .init(kind: .out, listProperty: "Name", field: "regionName"),
        .init(kind: .out, listProperty: "Capital"),
        .init(kind: .inOut, listProperty: "Country", field: "country"),
    ]
    let query = try #require(ValueHelpQuery(help: binding.valueHelps["region"]!, field: "region", binding: binding))
    let page = text(try query.page(search: "ba", formValues: [:], top: 5, skip: 0))
    #expect(page[0] == "$select=Region,RegionName,Name,Country")
    #expect(
        page[1] == "$filter=Active eq true and (contains(tolower(Region),'ba') or contains(tolower(RegionName),'ba'))")
    let row: [String: JSONValue] = [
        "Region": .string("BY"), "RegionName": .string("Bavaria"), "Name": .string("Freistaat Bayern"),
        "Country": .string("DE"), "Capital": .string("München"),
    ]
    #expect(query.fills(row, json: ODataJSON(version: .v4)) == ["regionName": "Freistaat Bayern", "country": "DE"])
}
