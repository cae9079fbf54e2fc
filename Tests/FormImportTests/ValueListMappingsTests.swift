import Foundation
import Testing

@testable import FormImport
@testable import FormModel

/// `ValueListMappings`: the value help a value-help service's `$metadata` gives a property of the
/// service that refers to it (`Common.ValueListReferences`), read as a `ValueList` record is.
@Suite("OData: value list mappings of a value-help service")
struct ValueListMappingsTests {
    private func carrierHelp(
        property: String = "Carrier", entityType: String = "sales.Order", version: ServiceBinding.Version = .v4
    ) throws(ImportFailure) -> ValueHelp {
        let document = try! OData.fixture("value-list-mapping-carrier")
        return try ValueListMappings.valueHelp(
            metadata: document.data, name: "carrier_vh/0001/$metadata", version: version, property: property,
            entityType: entityType, fieldOfProperty: ["Carrier": "Carrier", "Country": "Country"], fixed: false)
    }

    @Test("the unqualified mapping is the help: collection, parameters by field, types, text, no search")
    func unqualifiedMapping() throws {
        let help = try carrierHelp()
        #expect(help.collectionPath == "Carrier")
        #expect(help.collectionRoot == nil)
        #expect(help.label == "Carrier")
        #expect(
            help.parameters == [
                ValueHelp.Parameter(kind: .inOut, listProperty: "CarrierID", field: "Carrier"),
                ValueHelp.Parameter(kind: .in, listProperty: "CountryCode", field: "Country"),
                ValueHelp.Parameter(kind: .displayOnly, listProperty: "Founded"),
            ])
        #expect(help.listTypes == ["CarrierID": "Edm.String", "Name": "Edm.String", "Founded": "Edm.Date"])
        #expect(help.textProperty == "Name")
        #expect(help.searchSupported == false)
        #expect(help.valueProperty(for: "Carrier") == "CarrierID")
    }

    @Test("a property the document maps nothing for is refused, naming what it maps")
    func noMapping() throws {
        let error = #expect(throws: ImportFailure.self) { try carrierHelp(property: "Plant") }
        #expect(
            error?.errors
                == [
                    ImportError(
                        code: .noValueListMapping,
                        message:
                            "carrier_vh/0001/$metadata holds no Common.ValueListMapping for sales.Order/Plant; it maps sales.Order/Carrier.",
                        file: "carrier_vh/0001/$metadata")
                ])
    }

    @Test("a document of another OData version than the referring service's is refused")
    func otherVersion() throws {
        let error = #expect(throws: ImportFailure.self) { try carrierHelp(version: .v2) }
        #expect(error?.errors.first?.code == .noValueListMapping)
        #expect(
            error?.errors.first?.message
                == "carrier_vh/0001/$metadata is OData 4.0 metadata, but the service that refers to it speaks 2.0; a value help in a service of another OData version is not followed."
        )
    }

    @Test("a document that is not XML is refused as the importer refuses it")
    func notXML() throws {
        let error = #expect(throws: ImportFailure.self) {
            try ValueListMappings.valueHelp(
                metadata: Array("<html>Not found".utf8), name: "vh/$metadata", version: .v4, property: "Carrier",
                entityType: "sales.Order", fieldOfProperty: [:], fixed: false)
        }
        #expect(error?.errors.first?.code == .malformedXML)
    }
}
