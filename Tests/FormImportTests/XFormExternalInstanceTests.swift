import Foundation
import Testing

@testable import FormImport
@testable import FormModel

/// An external instance as an admin uploads it: the CSV or XML file the form names.
@Suite("XForm external instances")
struct XFormExternalInstanceTests {
    @Test("a CSV with ODK's header becomes items with every column, the options name and label")
    func csv() throws {
        let file = "name,label::English,state\nams,Amsterdam,nh\nrot,\"Rotterdam & co\",zh\n"
        let instance = try XFormExternalInstance.read(Array(file.utf8))
        #expect(instance.options.map(\.value) == ["ams", "rot"])
        #expect(instance.options.map(\.label) == ["Amsterdam", "Rotterdam & co"])
        #expect(
            instance.xml
                == "<root><item><name>ams</name><label>Amsterdam</label><state>nh</state></item><item><name>rot</name><label>Rotterdam &amp; co</label><state>zh</state></item></root>"
        )
    }

    @Test("an XML file's items give the options; a file that is neither says what to fix")
    func xmlAndRefusals() throws {
        let xml = "<root><item><name>a</name><label>A</label></item><item><name>b</name></item></root>"
        let instance = try XFormExternalInstance.read(Array(xml.utf8))
        #expect(instance.options == [Option(value: "a", label: "A"), Option(value: "b", label: "b")])
        #expect(instance.xml == xml)
        #expect(
            throws: XFormExternalInstance.Failure([
                "Line 1: the header names no name column; ODK's files start with name,label"
            ])
        ) {
            try XFormExternalInstance.read(Array("value,label\na,A\n".utf8))
        }
        #expect(
            throws: XFormExternalInstance.Failure([
                "Line 3: write 2 columns, as the header does; this line has 3",
                "Line 4: the name \"a\" is already on line 2; each name may appear once",
            ])
        ) {
            try XFormExternalInstance.read(Array("name,label\na,A\nb,B,x\na,again\n".utf8))
        }
        #expect(throws: XFormExternalInstance.Failure.self) {
            try XFormExternalInstance.read(Array("<!DOCTYPE x><root/>".utf8))
        }
    }
}
