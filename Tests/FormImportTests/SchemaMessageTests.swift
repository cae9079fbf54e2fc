import Foundation
import Testing

@testable import FormImport

/// The rarer shapes of XSD errors, each rewritten into a sentence that says what to do.
@Suite("Schema messages")
struct SchemaMessageTests {
    /// A sound form with `body` as line 5, inside <properties>.
    private func errors(properties body: String, lists: String = "") -> [ImportError] {
        let xml = """
            <form xmlns="urn:fieldwork:form:1" id="sample" title="Sample">
              <key><text name="title" required="true"/></key>
              <properties>
                <!-- the line under test follows -->
                \(body)
              </properties>
              \(lists)
            </form>
            """
        return Fixtures.errors(of: [ImportDocument(name: "inline.xml", data: Array(xml.utf8))])
    }

    @Test("text inside a field element")
    func text() {
        let found = errors(properties: #"<text name="nick">Nickname</text>"#)
        #expect(found.map(\.code) == ["unexpected-text"])
        #expect(found.first?.message == "<text> cannot hold text; move the text into an attribute such as label.")
        #expect(found.first?.line == 5)
    }

    @Test("an unknown attribute close to a spec attribute asks whether that was meant, with its column")
    func didYouMean() {
        let found = errors(properties: #"<text name="nick" maxLength="5" requried="true" colour="red"/>"#)
        #expect(
            found.map(\.message) == [
                "Unknown attribute maxLength on <text>; did you mean max-length? Otherwise remove it.",
                "Unknown attribute requried on <text>; did you mean required? Otherwise remove it.",
                "Unknown attribute colour on <text>; remove it or use an attribute the form spec lists for <text>.",
            ])
        #expect(found.map(\.column) == [23, 37, 53])
        #expect(found.allSatisfy { $0.line == 5 })
        let misplaced = errors(properties: #"<number name="n" max-length="5"/>"#)
        #expect(
            misplaced.map(\.message) == [
                "The attribute max-length does not apply to <number>; remove it or use an attribute the form spec lists for <number>."
            ])
    }

    @Test("the did-you-mean names are exactly the attributes the bundled XSD declares")
    func attributeNamesMatchTheSchema() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/FormImport/Resources/fieldwork-form-1.xsd")
        let xsd = try String(contentsOf: url, encoding: .utf8)
        let declared = Set(xsd.matches(of: /attribute name="([a-z-]+)"/).map { String($0.1) })
        #expect(Set(SchemaMessage.attributeNames) == declared)
    }

    @Test("a group in <key> says where groups go")
    func groupInKey() {
        let xml = """
            <form xmlns="urn:fieldwork:form:1" id="sample" title="Sample">
              <key><group label="G"><text name="title" required="true"/></group></key>
            </form>
            """
        let found = Fixtures.errors(of: [ImportDocument(name: "inline.xml", data: Array(xml.utf8))])
        #expect(
            found.first?.message
                == "Groups of fields are for <properties> only; move the <group> there, or put its fields straight in <key>."
        )
        #expect(found.first?.line == 2 && found.first?.column == 8)
    }

    @Test("elements inside a field that takes none")
    func content() {
        let found = errors(properties: #"<number name="n"><option value="a">A</option></number>"#)
        #expect(found.map(\.code) == ["unexpected-element"])
        #expect(found.first?.message == "<number> cannot hold other elements; remove its content.")
    }

    @Test("a known element in the wrong place")
    func misplaced() {
        let found = errors(properties: #"<option value="a">A</option>"#)
        #expect(found.map(\.code) == ["misplaced-element"])
        #expect(found.first?.message == "<option> is not allowed inside <properties>.")
        #expect(found.first?.line == 5)
    }

    @Test("an option group without options")
    func emptyGroup() {
        let found = errors(properties: "", lists: #"<lists><list id="l"><group label="G"/></list></lists>"#)
        #expect(found.map(\.code) == ["missing-element"])
        #expect(found.first?.message == "<group> is incomplete; add <option> inside it.")
    }

    @Test("a value that is not a whole number of 1 or more")
    func positive() {
        let found = errors(properties: #"<note name="n" rows="0"/>"#)
        #expect(found.map(\.code) == ["bad-integer"])
        #expect(found.first?.message == "rows on <note> must be a whole number of 1 or more, not \"0\".")
    }

    @Test("a boolean other than true or false")
    func boolean() {
        let found = errors(properties: #"<text name="n" required="yes"/>"#)
        #expect(found.map(\.message) == ["required on <text> must be true or false, not \"yes\"."])
    }
}
