import FormModel
import Testing

@testable import FormService

private let binding = ServiceBinding(
    version: .v2, entitySet: "TravelSet", entityType: "T.Travel", keys: [],
    fields: [
        "price": ServiceProperty(name: "Price", type: "Edm.Decimal"),
        "currency": ServiceProperty(name: "CurrencyCode", type: "Edm.String"),
    ])

private func read(_ status: Int, _ body: String) -> [ServiceMessage] {
    ODataErrorBody.messages(status: status, body: Array(body.utf8), binding: binding)
}

@Test("SAP V2 JSON: errordetails go under their fields, the repeated top message is dropped")
func sapJSON() {
    let messages = read(
        400,
        #"""
        {"error":{"code":"/IWBEP/CM_MGW_RT/022","message":{"lang":"en","value":"Price must be positive"},
        "innererror":{"errordetails":[
          {"code":"ZT/001","message":"Price must be positive","target":"/TravelSet('T1')/Price","severity":"error"},
          {"code":"ZT/002","message":"Unknown currency","target":"CurrencyCode","severity":"error"},
          {"code":"ZT/002","message":"Unknown currency","target":"CurrencyCode","severity":"error"},
          {"code":"ZT/003","message":"Check the dates","target":"","severity":"warning"}]}}}
        """#)
    #expect(
        messages == [
            ServiceMessage(
                message: "Price must be positive", code: "ZT/001", target: "Price", field: "price",
                path: "/TravelSet('T1')/Price"),
            ServiceMessage(
                message: "Unknown currency", code: "ZT/002", target: "CurrencyCode", field: "currency",
                path: "CurrencyCode"),
            ServiceMessage(message: "Check the dates", code: "ZT/003", severity: .warning, path: ""),
        ])
}

@Test("SAP V2 JSON without field details keeps the top message for the summary")
func sapTopOnly() {
    #expect(
        read(400, #"{"error":{"code":"SY/530","message":{"lang":"en","value":"Travel is locked by BOB"}}}"#)
            == [ServiceMessage(message: "Travel is locked by BOB", code: "SY/530")])
}

@Test("pyslet's JSON error, whose message is a plain string, is read")
func pysletJSON() {
    #expect(
        read(400, #"{"error":{"code":"ValueError","message":"invalid literal for Decimal"}}"#)
            == [ServiceMessage(message: "invalid literal for Decimal", code: "ValueError")])
}

@Test("a V2 XML error is read with its code and message")
func v2XML() {
    let body = """
        <?xml version="1.0" encoding="utf-8"?>
        <error xmlns="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata">
          <code>DataServiceError</code><message xml:lang="en">Resource not found for the segment 'X'</message>
        </error>
        """
    #expect(
        read(404, body) == [ServiceMessage(message: "Resource not found for the segment 'X'", code: "DataServiceError")]
    )
}

@Test("a SAP V2 XML error's errordetails go under their fields")
func sapXML() {
    let body = """
        <error xmlns="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata"><code>X</code>
        <message xml:lang="en">Errors</message><innererror><errordetails><errordetail><code>A</code>
        <message>Bad price</message><target>Price</target><severity>error</severity></errordetail>
        </errordetails></innererror></error>
        """
    #expect(
        read(400, body) == [
            ServiceMessage(message: "Bad price", code: "A", target: "Price", field: "price", path: "Price")
        ])
}

// OData JSON Format v4.01 §20 (error response).
@Test("V4 JSON: the error's target and each detail's target name fields")
func v4JSON() {
    let messages = read(
        400,
        #"""
        {"error":{"code":"400","message":"Price too high","target":"in/Price","details":[
          {"code":"C1","message":"Currency unknown","target":"$Parameter/in/CurrencyCode"},
          {"code":"C2","message":"Booking limit","target":"_Booking(1)/Seats","@Common.numericSeverity":3}]}}
        """#)
    #expect(
        messages == [
            ServiceMessage(message: "Price too high", code: "400", target: "Price", field: "price", path: "in/Price"),
            ServiceMessage(
                message: "Currency unknown", code: "C1", target: "CurrencyCode", field: "currency",
                path: "$Parameter/in/CurrencyCode"),
            ServiceMessage(message: "Booking limit", code: "C2", severity: .warning, path: "_Booking(1)/Seats"),
        ])
}

@Test("V4 JSON with details on fields drops a general top message")
func v4GeneralTop() {
    let messages = read(
        400,
        #"{"error":{"code":"400","message":"Several errors","details":[{"code":"C","message":"Bad","target":"Price"}]}}"#
    )
    #expect(messages == [ServiceMessage(message: "Bad", code: "C", target: "Price", field: "price", path: "Price")])
}

@Test("a target naming no field of the form goes to the summary")
func unboundTarget() {
    #expect(
        read(400, #"{"error":{"code":"C","message":"No","target":"Unbound"}}"#)
            == [ServiceMessage(message: "No", code: "C", target: "Unbound", path: "Unbound")])
}

@Test("an HTML error page becomes a generic message with the status")
func htmlPage() {
    #expect(
        read(500, "<html><body><h1>Internal Server Error</h1></body></html>")
            == [ServiceMessage(message: "The service answered with status 500 Internal Server Error.", code: "500")])
    #expect(
        read(502, "") == [ServiceMessage(message: "The service answered with status 502 Bad Gateway.", code: "502")])
    #expect(read(400, #"{"unexpected":true}"#).first?.code == "400")
}

@Test("targets are made property names")
func targets() {
    #expect(ODataErrorBody.property(fromTarget: "Price") == "Price")
    #expect(ODataErrorBody.property(fromTarget: "in/Price") == "Price")
    #expect(ODataErrorBody.property(fromTarget: "$Parameter/in/Price") == "Price")
    #expect(ODataErrorBody.property(fromTarget: "$Parameter/_it/Price") == "Price")
    #expect(ODataErrorBody.property(fromTarget: "/TravelSet(TravelID='a/b',X=1)/Price") == "Price")
    #expect(ODataErrorBody.property(fromTarget: "_Booking/Seats") == nil)
    #expect(ODataErrorBody.property(fromTarget: "") == nil)
}

@Test("a target naming an item's property gives the steps to the item and the property")
func itemTargets() {
    let booking = ODataErrorBody.itemSteps(
        fromTarget: "in/_Booking(BookingUUID=9378f87b-1c83-4deb-8af0-910cfb6ce482,IsActiveEntity=false)/FlightDate")
    #expect(booking?.steps.map(\.navigation) == ["_Booking"])
    #expect(
        booking?.steps.first?.predicate == "(BookingUUID=9378f87b-1c83-4deb-8af0-910cfb6ce482,IsActiveEntity=false)")
    #expect(booking?.property == "FlightDate")
    let nested = ODataErrorBody.itemSteps(
        fromTarget: "/SalesOrderSet('1')/to_Item(SalesOrder='1',Item='10')/to_Line('a/b')/Qty")
    #expect(nested?.steps.map(\.navigation) == ["to_Item", "to_Line"])
    #expect(nested?.steps.last?.predicate == "('a/b')")
    #expect(nested?.property == "Qty")
    #expect(ODataErrorBody.itemSteps(fromTarget: "in/Price") == nil)
    #expect(ODataErrorBody.itemSteps(fromTarget: "_Booking/FlightDate") == nil)
}

@Test("two items' messages in the same words are both kept, each with its target")
func itemMessagesKept() {
    let messages = read(
        400,
        #"""
        {"error":{"code":"F","message":"Flight date outside the travel","target":"in/_Booking(B=1)/FlightDate","details":[
          {"code":"F","message":"Flight date outside the travel","target":"in/_Booking(B=1)/FlightDate"},
          {"code":"F","message":"Flight date outside the travel","target":"in/_Booking(B=2)/FlightDate"}]}}
        """#)
    #expect(messages.map(\.path) == ["in/_Booking(B=1)/FlightDate", "in/_Booking(B=2)/FlightDate"])
    #expect(messages.allSatisfy { $0.field == nil && $0.target == nil })
}

@Test("a key predicate's values are read as services write them")
func targetKeyValues() {
    let uuid = "9378f87b-1c83-4deb-8af0-910cfb6ce482"
    #expect(
        ODataErrorBody.keyValues("(BookingUUID=\(uuid),IsActiveEntity=false)")
            == ["BookingUUID": uuid, "IsActiveEntity": "false"])
    #expect(
        ODataErrorBody.keyValues("(SalesOrder='1',SalesOrderItem='O''Neil,10')")
            == ["SalesOrder": "1", "SalesOrderItem": "O'Neil,10"])
    #expect(ODataErrorBody.keyValues("(guid'\(uuid)')") == ["": uuid])
    #expect(ODataErrorBody.keyValues("('a=b')") == ["": "a=b"])
    #expect(ODataErrorBody.keyValues("(SalesOrder%3D'1')") == ["SalesOrder": "1"])
    #expect(ODataErrorBody.keyValues("no key").isEmpty)
}
