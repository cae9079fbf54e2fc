import FormModel
import Testing

@testable import FormService

@Suite("Drift between the imported and the served metadata")
struct ServiceDriftTests {
    private func makeBinding(
        _ fields: [String: ServiceProperty], set: String = "Products", keys: [String] = ["ID"]
    )
        -> ServiceBinding
    {
        ServiceBinding(
            version: .v4, entitySet: set, entityType: "ns.\(set)",
            keys: keys.map { ServiceProperty(name: $0, type: "Edm.String") }, fields: fields)
    }

    @Test("the same metadata has no drift")
    func none() {
        let a = makeBinding(["Name": ServiceProperty(name: "Name", type: "Edm.String", maxLength: 40)])
        #expect(ServiceDrift.compare(imported: [a], served: [a]).isEmpty)
    }

    @Test("a set gone, a property gone, a type, length or key changed are each listed in words")
    func differences() {
        let imported = [
            makeBinding(
                [
                    "Name": ServiceProperty(name: "Name", type: "Edm.String", maxLength: 40),
                    "Price": ServiceProperty(name: "Price", type: "Edm.Decimal", precision: 10, scale: 2),
                    "Gone": ServiceProperty(name: "Gone", type: "Edm.String"),
                ]),
            makeBinding(["Note": ServiceProperty(name: "Note", type: "Edm.String")], set: "Orders"),
        ]
        var served = makeBinding(
            [
                "Name": ServiceProperty(name: "Name", type: "Edm.String", maxLength: 80),
                "Price": ServiceProperty(name: "Price", type: "Edm.Double"),
            ], keys: ["ID", "Version"])
        served.declared = [
            ServiceProperty(name: "Name", type: "Edm.String", maxLength: 80),
            ServiceProperty(name: "Price", type: "Edm.Double"), ServiceProperty(name: "ID", type: "Edm.String"),
        ]
        let drift = ServiceDrift.compare(imported: imported, served: [served])
        #expect(
            drift.differences.map(\.message) == [
                "The service has no entity set Orders that takes creates; its form cannot write objects there.",
                "Products's key is ID, Version in the service, ID as imported.",
                "Products/Gone is not in the service; its field's value cannot be sent.",
                "Products/Name is at most 80 characters in the service (imported as 40).",
                "Products/Price is Edm.Double in the service (imported as Edm.Decimal).",
            ])
        #expect(
            drift.differences.map(\.kind) == [.missingSet, .changedKey, .missingProperty, .changedType, .changedType])
    }

    @Test("a property the served form leaves out is found among the type's declared properties")
    func declaredProperties() {
        let imported = makeBinding(["Hidden": ServiceProperty(name: "Hidden", type: "Edm.String")])
        var served = makeBinding([:])
        served.declared = [ServiceProperty(name: "Hidden", type: "Edm.String")]
        #expect(ServiceDrift.compare(imported: [imported], served: [served]).isEmpty)
    }
}
