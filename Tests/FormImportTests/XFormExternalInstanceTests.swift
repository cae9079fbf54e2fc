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

    @Test("a file the XForm names, given right after it, is part of its import and no longer awaited")
    func importedWithTheForm() throws {
        let form = XFormExpressionTests.form(
            "<country/><city/>",
            binds: """
                  <instance id="cities" src="jr://file/cities.csv"/>
                  <bind nodeset="/data/city" type="string"/>
                """,
            body: """
                <input ref="/data/country"><label>Country</label></input>
                <select1 ref="/data/city"><label>City</label>
                  <itemset nodeset="instance('cities')/root/item[country = /data/country]">
                    <value ref="name"/><label ref="label"/></itemset></select1>
                """)
        let cities = ImportDocument(
            name: "media/cities.csv", data: Array("name,label,country\nams,Amsterdam,nl\n".utf8))
        let outcomes = FormImporter.importBatch([form, cities])
        #expect(outcomes.count == 1 && outcomes[0].documents == ["rules.xml"])
        let result = try outcomes[0].result.get()
        #expect(result.listInstances["rules"]?["city"]?.options == [Option(value: "ams", label: "Amsterdam")])
        #expect(!result.warnings.contains { $0.code == .externalInstance })
        #expect(result.sources.map(\.name) == ["rules.xml", "media/cities.csv"])
        // Without the file the form waits for it; a file it does not name is an import of its own, refused.
        let alone = try FormImporter.importBatch([form])[0].result.get()
        #expect(alone.warnings.contains { $0.code == .externalInstance })
        let other = ImportDocument(name: "towns.csv", data: Array("name,label\na,A\n".utf8))
        let two = FormImporter.importBatch([form, other])
        #expect(two.count == 2)
        if case .success = two[1].result { Issue.record("towns.csv imported on its own") }
    }
}
