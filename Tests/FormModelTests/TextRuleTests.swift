import Testing

@testable import FormModel

@Suite("Text validation")
struct TextRuleTests {
    @Test("single-line text is trimmed and whitespace only is empty")
    func trimming() {
        #expect(DemoForm.value("title", ["title": ["  Crash  "]]) == .text("Crash"))
        #expect(DemoForm.messages("title", ["title": ["   "]]) == ["Enter a title"])
    }

    @Test("a note keeps its line breaks, CRLF counted as one")
    func notes() {
        #expect(DemoForm.value("notes", ["notes": ["a\r\nb"]]) == .text("a\nb"))
        #expect(DemoForm.value("notes", ["notes": [" \r\n "]]) == nil)
        let long = String(repeating: "x\r\n", count: 1000)
        #expect(DemoForm.messages("notes", ["notes": [long]]) == [], "2000 characters once CRLF is one")
        #expect(DemoForm.messages("notes", ["notes": [long + "y"]]) == ["Notes must be 2000 characters or fewer"])
    }

    @Test("text longer than max-length is refused")
    func maxLength() {
        #expect(DemoForm.messages("title", ["title": [String(repeating: "é", count: 120)]]) == [])
        #expect(
            DemoForm.messages("title", ["title": [String(repeating: "é", count: 121)]]) == [
                "Title must be 120 characters or fewer"
            ])
    }

    @Test("upperCase stores the text upper-cased, and max-length applies to what is stored")
    func upperCase() {
        let schema = SchemaSamples.with(
            Field(
                name: "code", kind: .text, label: "Code",
                constraints: Constraints(maxLength: 4, pattern: "[A-Z]+", upperCase: true)))
        let stored = FormValidator.validate(schema, Submission(fields: ["title": ["T"], "code": [" abc "]]))
        #expect(stored.issues.isEmpty)
        #expect(stored.values["code"] == .text("ABC"))
        // "ß" upper-cases to "SS": five stored characters for four typed.
        let long = FormValidator.validate(schema, Submission(fields: ["title": ["T"], "code": ["abcß"]]))
        #expect(long.issues.map(\.code) == ["too-long"])
    }

    @Test("text shorter than min-length is refused")
    func minLength() {
        let schema = SchemaSamples.with(
            Field(name: "code", kind: .text, label: "Code", constraints: Constraints(minLength: 4)))
        let result = FormValidator.validate(schema, Submission(fields: ["title": ["T"], "code": ["abc"]]))
        #expect(result.issues.map(\.message) == ["Code must be at least 4 characters"])
        #expect(result.issues.map(\.code) == ["too-short"])
    }

    @Test("a pattern must match the whole value")
    func patternFullMatch() {
        #expect(DemoForm.value("asset", ["asset": ["AB-1234"]]) == .text("AB-1234"))
        #expect(
            DemoForm.messages("asset", ["asset": ["XAB-12345"]]) == [
                "Asset code must be two letters, a hyphen and four digits"
            ])
        #expect(DemoForm.messages("asset", ["asset": ["AB-1234\n"]]) == [], "trimmed before matching")
        #expect(DemoForm.messages("asset", ["asset": ["AB-1234 x"]]).count == 1)
    }

    @Test("without a hint the pattern message asks for the correct format")
    func patternWithoutHint() {
        let schema = SchemaSamples.with(
            Field(name: "asset", kind: .text, label: "Asset code", constraints: Constraints(pattern: "[A-Z]{2}[0-9]+")))
        let result = FormValidator.validate(schema, Submission(fields: ["title": ["T"], "asset": ["12a"]]))
        #expect(
            result.issues == [
                FieldIssue(field: "asset", code: "pattern", message: "Enter asset code in the correct format")
            ])
    }

    @Test(
        "a pattern that names a type says what to type, whatever the hint",
        arguments: [
            (KnownPattern.digits, "12a", "Agency ID must only include the digits 0 to 9"),
            (KnownPattern.integer, "1.5", "Agency ID must be a whole number, like 12 or -3"),
            (KnownPattern.decimal, "1,5", "Agency ID must be a number, like 12 or 12.5"),
            (
                KnownPattern.uuid, "12",
                "Enter agency ID as a GUID: 32 hexadecimal digits in groups of 8, 4, 4, 4 and 12, like 7c9e6679-7425-40de-944b-e07fc1f90ae7"
            ),
        ])
    func knownPatterns(pattern: String, bad: String, message: String) {
        // An imported hint describes the property, not its format: it must not become the rule.
        let field = Field(
            name: "agency", kind: .text, label: "Agency ID", hint: "Flight Reference Scenario: Agency ID",
            constraints: Constraints(pattern: pattern))
        let result = FormValidator.validate(
            SchemaSamples.with(field), Submission(fields: ["title": ["T"], "agency": [bad]]))
        #expect(result.issues == [FieldIssue(field: "agency", code: "pattern", message: message)])
        let good = ["12", "-3", "12.5", "7c9e6679-7425-40de-944b-e07fc1f90ae7"].filter {
            TextRule.fullMatch(pattern, $0)
        }
        #expect(!good.isEmpty)
        for value in good {
            #expect(
                FormValidator.validate(
                    SchemaSamples.with(field), Submission(fields: ["title": ["T"], "agency": [value]])
                ).issues.isEmpty)
        }
    }

    @Test(
        "the rule is read from the hint without its example",
        arguments: [
            ("Two letters, a hyphen and four digits, like AB-1234", "two letters, a hyphen and four digits"),
            ("Six digits (e.g. 123456)", "six digits"),
            ("Letters only.", "letters only"),
            ("UK postcode, like SW1A 1AA", "UK postcode"),
        ])
    func ruleFromHint(_ hint: String, _ rule: String) {
        #expect(TextRule.ruleFromHint(hint) == rule)
    }

    @Test("email addresses need one @ and a dotted domain")
    func email() {
        #expect(DemoForm.value("email", ["email": [" ana@example.com "]]) == .text("ana@example.com"))
        for bad in [
            "ana", "ana@", "@example.com", "ana@example", "a b@example.com", "a@b@example.com", "ana@example..com",
        ] {
            #expect(
                DemoForm.messages("email", ["email": [bad]]) == [
                    "Enter an email address in the correct format, like name@example.com"
                ],
                "\(bad)")
        }
        #expect(DemoForm.messages("email", ["email": [""]]) == [])
    }

    @Test("a required email field asks for an email address")
    func requiredEmail() {
        let schema = SchemaSamples.with(
            Field(
                name: "email", kind: .text, label: "Email", required: true, constraints: Constraints(textType: .email)))
        #expect(
            FormValidator.validate(schema, Submission(fields: ["title": ["T"]])).issues.map(\.message) == [
                "Enter an email address"
            ])
    }

    @Test("telephone numbers take digits, spaces, +, -, brackets and at least 5 digits")
    func telephone() {
        let schema = SchemaSamples.with(
            Field(name: "tel", kind: .text, label: "Phone", constraints: Constraints(textType: .tel)))
        func messages(_ text: String) -> [String] {
            FormValidator.validate(schema, Submission(fields: ["title": ["T"], "tel": [text]])).issues.map(\.message)
        }
        #expect(messages("+44 (0)1632 960-001") == [])
        #expect(messages("1234") == ["Enter a telephone number, like 01632 960 001 or +44 808 157 0192"])
        #expect(messages("01632 960 001 ext 4") == ["Enter a telephone number, like 01632 960 001 or +44 808 157 0192"])
    }

    @Test("web addresses need http or https and a host")
    func webAddress() {
        let schema = SchemaSamples.with(
            Field(name: "site", kind: .text, label: "Website", constraints: Constraints(textType: .url)))
        func messages(_ text: String) -> [String] {
            FormValidator.validate(schema, Submission(fields: ["title": ["T"], "site": [text]])).issues.map(\.message)
        }
        #expect(messages("https://example.com/a?b=c") == [])
        #expect(messages("HTTP://example.com") == [])
        for bad in ["javascript:alert(1)", "ftp://example.com", "https://", "example.com", "https://exa mple.com"] {
            #expect(
                messages(bad) == ["Enter a web address in the correct format, like https://www.example.com"], "\(bad)")
        }
    }

    @Test(
        "grouped characters are normalised and stored without separators",
        arguments: ["(555) 123-4567", "555 123 4567", "555-123-4567", "5551234567", "555.123.4567"])
    func groupedNormalised(_ typed: String) {
        #expect(DemoForm.value("phone", ["phone": [typed]]) == .text("5551234567"))
    }

    @Test("grouped characters that do not fit the format are refused with the format's example")
    func groupedRefused() {
        for bad in ["555 123 456", "555 123 45678", "555 ABC 4567"] {
            #expect(
                DemoForm.messages("phone", ["phone": [bad]]) == [
                    "Contact phone must be 10 digits, like (555) 123-4567"
                ], "\(bad)")
        }
    }

    @Test("a mixed format is named in the message, and its letters are kept")
    func groupedMixed() {
        let schema = SchemaSamples.with(
            Field(name: "plate", kind: .text, label: "Plate", constraints: Constraints(format: "AA-####")))
        func result(_ text: String) -> ValidationResult {
            FormValidator.validate(schema, Submission(fields: ["title": ["T"], "plate": [text]]))
        }
        #expect(result("ab 1234").values["plate"] == .text("ab1234"))
        #expect(result("1234-AB").issues.map(\.message) == ["Enter plate in the format AA-####"])
        #expect(result("1234-AB").issues.map(\.code) == ["format"])
    }
}
