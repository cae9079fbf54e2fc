import FormModel
import Testing

@testable import FormService

@Test("a binding's version names the OData protocol version")
func bindingVersion() {
    #expect(ODataVersion.v2.rawValue == "2.0")
    #expect(ODataVersion.v4.rawValue == "4.0")
}
