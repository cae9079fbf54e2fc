import Foundation
import Testing

@testable import FormModel

@Suite("Trimming submitted values")
struct TrimmingTests {
    static let samples = [
        "", " ", "a", " a", "a ", "\ta\t", "a\n", "\na", "\r\n", "plain text", "x y",
        "\u{00A0}a", "a\u{00A0}", "\u{2003}a\u{2003}", "a\u{0085}", "\u{2028}a", "é", "é ", " é",
        "a\u{0301}", "\u{0301}a", "\u{1F600}", "~!", "\u{7F}", "\u{0B}a\u{0C}",
    ]

    @Test("the fast trims give exactly what Foundation's give")
    func sameAsFoundation() {
        for sample in Self.samples {
            #expect(
                sample.trimmingWhitespace() == sample.trimmingCharacters(in: .whitespaces), "\(sample.debugDescription)"
            )
            #expect(
                sample.trimmingWhitespaceAndNewlines() == sample.trimmingCharacters(in: .whitespacesAndNewlines),
                "\(sample.debugDescription)")
        }
    }

    @Test("a field's wording is worked out when a message asks for it")
    func wording() {
        let field = Field(name: "email", kind: .text, label: "Email", constraints: Constraints(textType: .email))
        #expect(FieldWording(field).noun == "email address")
        let categories = Field(name: "c", kind: .chips, label: "Categories")
        #expect(FieldWording(categories).singular == "category")
        #expect(FieldWording(Field(name: "u", kind: .text, label: "URL")).withArticle == "a URL")
    }
}
