import Testing

@testable import FormModel

@Suite("Choice validation")
struct ChoiceRuleTests {
    @Test("a required value list asks to select one")
    func requiredSingle() {
        #expect(DemoForm.messages("project", ["project": []]) == ["Select a project"])
        #expect(DemoForm.messages("project", ["project": [""]]) == ["Select a project"])
    }

    @Test("a value the field does not offer is refused")
    func notOffered() {
        let result = DemoForm.validate(["project": ["secret-project"]])
        #expect(
            result.issues == [
                FieldIssue(field: "project", code: "not-an-option", message: "Select a project from the list")
            ])
        #expect(
            DemoForm.messages("categories", ["categories": ["bug", "hack"]]) == ["Select categories from the list"])
    }

    @Test("a single choice refuses several values; the same value twice is one")
    func singleChoice() {
        #expect(DemoForm.messages("priority", ["priority": ["low", "high"]]) == ["Select only one priority"])
        #expect(DemoForm.validate(["priority": ["low", "high"]]).issues.map(\.code) == ["too-many"])
        #expect(DemoForm.value("priority", ["priority": ["high", "high"]]) == .choice("high"))
    }

    @Test("several choices are stored in the order the field offers them, without duplicates")
    func order() {
        #expect(DemoForm.value("categories", ["categories": ["docs", "bug", "docs"]]) == .choices(["bug", "docs"]))
    }

    @Test("max-selected and min-selected count the chosen values")
    func counts() {
        #expect(
            DemoForm.messages("categories", ["categories": ["bug", "ui", "docs", "security"]]) == [
                "Select at most 3 categories"
            ])
        #expect(
            DemoForm.validate(["categories": ["bug", "ui", "docs", "security"]]).issues.map(\.code) == ["max-selected"])
        let schema = SchemaSamples.with(
            Field(
                name: "categories", kind: .chips, label: "Categories",
                constraints: Constraints(multiple: true, minSelected: 2, maxSelected: 1),
                options: [OptionGroup(options: [Option(value: "a", label: "A"), Option(value: "b", label: "B")])]))
        let few = FormValidator.validate(schema, Submission(fields: ["title": ["T"], "categories": ["a"]]))
        #expect(few.issues.map(\.message) == ["Select at least 2 categories"])
        let many = FormValidator.validate(schema, Submission(fields: ["title": ["T"], "categories": ["a", "b"]]))
        #expect(many.issues.map(\.message) == ["Select at most 1 category"])
    }

    @Test("a required multiple choice asks for at least one")
    func requiredMultiple() {
        let schema = SchemaSamples.with(
            Field(
                name: "assignees", kind: .valueList, label: "Assignees", required: true,
                constraints: Constraints(multiple: true), list: "projects"))
        let result = FormValidator.validate(schema, Submission(fields: ["title": ["T"]]))
        #expect(result.issues.map(\.message) == ["Select at least one assignee"])
    }

    @Test("a list without options accepts any value")
    func emptyList() {
        let schema = SchemaSamples.with(
            Field(name: "plant", kind: .valueList, label: "Plant", required: true, list: "plants"))
        var withList = schema
        withList.lists.append(OptionList(id: "plants", groups: []))
        for form in [schema, withList] {
            let result = FormValidator.validate(form, Submission(fields: ["title": ["T"], "plant": ["P-100"]]))
            #expect(result.values["plant"] == .choice("P-100"))
            let empty = FormValidator.validate(form, Submission(fields: ["title": ["T"]]))
            #expect(empty.issues.map(\.message) == ["Enter a plant"])
        }
    }

    @Test("an open list (options to be uploaded) is valid without options and checks text limits")
    func openList() {
        var schema = SchemaSamples.with(
            Field(
                name: "plant", kind: .valueList, label: "Plant", constraints: Constraints(maxLength: 4), list: "plants")
        )
        schema.lists.append(OptionList(id: "plants", groups: [], external: true))
        #expect(schema.ruleViolations().isEmpty)
        let ok = FormValidator.validate(schema, Submission(fields: ["title": ["T"], "plant": [" P100 "]]))
        #expect(ok.values["plant"] == .choice("P100"))
        let long = FormValidator.validate(schema, Submission(fields: ["title": ["T"], "plant": ["P-1000"]]))
        #expect(long.issues.map(\.message) == ["Plant must be 4 characters or fewer"])
        let json = try! schema.canonicalJSON()
        #expect(String(decoding: json, as: UTF8.self).contains(#""external":true"#))
        #expect(try! FormSchema.fromCanonicalJSON(json).canonicalJSON() == json)
    }
}
