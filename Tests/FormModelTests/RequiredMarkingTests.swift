import Testing

@testable import FormModel

@Suite("Required marking")
struct RequiredMarkingTests {
    private func schema(_ fields: [Field]) -> FormSchema {
        FormSchema(id: "f", title: "F", sections: [FormSection(kind: .key, groups: [FieldGroup(fields: fields)])])
    }

    private func field(
        _ name: String, required: Bool = false, kind: FieldKind = .text, editable: Editability = .yes
    ) -> Field {
        Field(name: name, kind: kind, required: required, editable: editable)
    }

    @Test("required fields get a star and the legend shows")
    func required() {
        let marking = schema([field("a", required: true), field("b")]).requiredMarking
        #expect(marking.showsLegend)
        #expect(marking.marker(for: field("a", required: true)) == .required)
        #expect(RequiredMarking.legend == "* indicates a required field")
    }

    @Test("few optional fields say (optional); many do not")
    func optionalMarking() {
        let mostlyRequired = schema([field("a", required: true), field("b", required: true), field("c")])
            .requiredMarking
        #expect(mostlyRequired.marksOptional)
        #expect(mostlyRequired.marker(for: field("c")) == .optional)

        let mostlyOptional = schema([field("a", required: true), field("b"), field("c")]).requiredMarking
        #expect(!mostlyOptional.marksOptional)
        #expect(mostlyOptional.marker(for: field("b")) == .none)
    }

    @Test("switches and read-only fields are never marked optional")
    func unmarkable() {
        let marking = schema([
            field("a", required: true), field("b", required: true), field("c"), field("s", kind: .switch),
            field("r", editable: .no),
        ]).requiredMarking
        #expect(marking.marksOptional)
        #expect(marking.marker(for: field("s", kind: .switch)) == .none)
        #expect(marking.marker(for: field("r", editable: .no)) == .none)
    }

    @Test("a form without required fields shows no legend")
    func noLegend() {
        let marking = schema([field("a"), field("b")]).requiredMarking
        #expect(!marking.showsLegend)
        #expect(!marking.marksOptional)
    }
}
