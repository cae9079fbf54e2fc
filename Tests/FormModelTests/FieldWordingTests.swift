import Testing

@testable import FormModel

@Suite("Field wording")
struct FieldWordingTests {
    @Test(
        "required messages by kind, from the label or the placeholder",
        arguments: [
            (Field(name: "title", kind: .text, placeholder: "Title"), "Enter a title"),
            (Field(name: "estimate", kind: .duration, label: "Estimate"), "Enter an estimate"),
            (Field(name: "url", kind: .text, label: "URL"), "Enter a URL"),
            (Field(name: "sku", kind: .text, label: "SKU"), "Enter an SKU"),
            (Field(name: "notes", kind: .note, label: "Notes"), "Enter notes"),
            (Field(name: "hours", kind: .number, label: "Hour count"), "Enter an hour count"),
            (Field(name: "user", kind: .text, label: "User name"), "Enter a user name"),
            (Field(name: "app", kind: .valueList, label: "iOS app"), "Select an iOS app"),
            (Field(name: "project", kind: .valueList, label: "Project"), "Select a project"),
            (Field(name: "attachments", kind: .attachments, label: "Attachments"), "Select a file"),
            (Field(name: "remind", kind: .switch, label: "Remind me"), "Turn on Remind me"),
        ])
    func requiredMessages(_ field: Field, _ message: String) {
        #expect(RequiredMessage.text(for: field) == message)
    }

    @Test("labels are lower-cased inside sentences except acronyms and mixed case")
    func lowercasing() {
        #expect(FieldWording.lowercased("Asset Code") == "asset code")
        #expect(FieldWording.lowercased("VAT number") == "VAT number")
        #expect(FieldWording.lowercased("iOS build") == "iOS build")
    }

    @Test("plural labels give singular and counted forms")
    func plurals() {
        let categories = FieldWording(Field(name: "c", kind: .chips, label: "Categories"))
        #expect(categories.singular == "category")
        #expect(categories.count(1) == "1 category")
        #expect(categories.count(3) == "3 categories")
        let status = FieldWording(Field(name: "s", kind: .buttons, label: "Status"))
        #expect(!status.isPlural)
        #expect(status.withArticle == "a status")
        #expect(FieldWording(Field(name: "t", kind: .chips, label: "Tag")).count(2) == "2 tags")
    }
}
