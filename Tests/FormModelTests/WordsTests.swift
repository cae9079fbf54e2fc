import Testing

@testable import FormModel

@Suite("Words")
struct WordsTests {
    @Test(
        "identifiers become capitalised words",
        arguments: [
            ("CompanyName", "Company Name"),
            ("COMPANY_NAME", "Company Name"),
            ("companyName", "Company Name"),
            ("due_date", "Due Date"),
            ("title", "Title"),
            ("address2Line", "Address2 Line"),
        ])
    func fromIdentifier(_ identifier: String, _ words: String) {
        #expect(Words.fromIdentifier(identifier) == words)
    }

    @Test("lists join with commas and a conjunction")
    func list() {
        #expect(Words.list([]) == "")
        #expect(Words.list(["A"]) == "A")
        #expect(Words.list(["A", "B"]) == "A and B")
        #expect(Words.list(["A", "B", "C"], conjunction: "or") == "A, B or C")
    }
}
