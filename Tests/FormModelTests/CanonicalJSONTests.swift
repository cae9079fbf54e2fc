import Foundation
import Testing

@testable import FormModel

@Suite("Canonical JSON")
struct CanonicalJSONTests {
    /// Locations are not part of the JSON, so compare schemas without them.
    private func withoutLocations(_ schema: FormSchema) -> FormSchema {
        var copy = schema
        for s in copy.sections.indices {
            for g in copy.sections[s].groups.indices {
                for f in copy.sections[s].groups[g].fields.indices {
                    copy.sections[s].groups[g].fields[f].location = nil
                    for c in (copy.sections[s].groups[g].fields[f].children ?? []).indices {
                        copy.sections[s].groups[g].fields[f].children![c].location = nil
                    }
                }
            }
        }
        for l in copy.lists.indices { copy.lists[l].location = nil }
        return copy
    }

    /// A schema whose key information is one field.
    private func oneField(_ field: Field, lists: [OptionList] = []) -> FormSchema {
        FormSchema(
            id: "f", title: "F", sections: [FormSection(kind: .key, groups: [FieldGroup(fields: [field])])],
            lists: lists)
    }

    @Test("a schema survives JSON and back")
    func roundTrip() throws {
        let schema = SchemaSamples.sound
        let decoded = try FormSchema.fromCanonicalJSON(schema.canonicalJSON())
        #expect(decoded == withoutLocations(schema))
    }

    @Test("equal schemas give equal bytes, pretty or not")
    func stableBytes() throws {
        let schema = SchemaSamples.sound
        let once = try schema.canonicalJSON()
        let again = try FormSchema.fromCanonicalJSON(once).canonicalJSON()
        #expect(once == again)
        #expect(
            try schema.canonicalJSON(pretty: true) == FormSchema.fromCanonicalJSON(once).canonicalJSON(pretty: true))
    }

    @Test("fields are flat objects with sorted keys and no location")
    func flatFields() throws {
        let schema = oneField(
            Field(
                name: "title", kind: .text, required: true, constraints: Constraints(maxLength: 120),
                location: SourceLocation(line: 7)))
        let text = try #require(String(data: schema.canonicalJSON(), encoding: .utf8))
        #expect(
            text
                == #"{"format":"urn:fieldwork:form:1","id":"f","regular":"form-sheet","sections":[{"groups":[{"fields":[{"editable":"true","kind":"text","maxLength":120,"name":"title","required":true}]}],"section":"key"}],"submit":"Create","title":"F"}"#
        )
    }

    @Test("an unknown format is refused")
    func unknownFormat() {
        let json = Data(#"{"format":"urn:other","id":"f","title":"F"}"#.utf8)
        #expect(throws: DecodingError.self) { try FormSchema.fromCanonicalJSON(json) }
    }

    @Test("absent optional members take their defaults")
    func defaults() throws {
        let json = Data(
            #"{"id":"f","title":"F","sections":[{"section":"key","groups":[{"fields":[{"name":"a","kind":"number"}]}]}]}"#
                .utf8)
        let schema = try FormSchema.fromCanonicalJSON(json)
        #expect(schema.submit == "Create")
        #expect(schema.regular == .formSheet)
        let field = try #require(schema.field(named: "a"))
        #expect(field.required == false)
        #expect(field.editable == .yes)
        #expect(field.constraints.multiple == false)
        #expect(field.constraints.upperCase == false)
    }

    @Test("upperCase is written only when set, and read back")
    func upperCase() throws {
        var schema = oneField(Field(name: "a", kind: .text, required: true))
        #expect(!String(decoding: try schema.canonicalJSON(), as: UTF8.self).contains("upperCase"))
        schema.sections[0].groups[0].fields[0].constraints.upperCase = true
        let json = try schema.canonicalJSON()
        #expect(String(decoding: json, as: UTF8.self).contains(#""upperCase":true"#))
        #expect(try FormSchema.fromCanonicalJSON(json).field(named: "a")?.constraints.upperCase == true)
    }

    @Test("a list's title is written only when it has one, and a list without one reads back without one")
    func listTitle() throws {
        var schema = oneField(
            Field(name: "a", kind: .valueList, required: true, list: "l"),
            lists: [OptionList(id: "l", groups: [], external: true)])
        let untitled = String(decoding: try schema.canonicalJSON(), as: UTF8.self)
        #expect(untitled.contains(#""lists":[{"external":true,"groups":[],"id":"l"}]"#))
        #expect(try FormSchema.fromCanonicalJSON(Data(untitled.utf8)).lists.first?.title == nil)
        schema.lists[0].title = "Currencies"
        let json = try schema.canonicalJSON()
        #expect(
            String(decoding: json, as: UTF8.self).contains(
                #""lists":[{"external":true,"groups":[],"id":"l","title":"Currencies"}]"#))
        #expect(try FormSchema.fromCanonicalJSON(json).lists.first?.title == "Currencies")
    }
}
