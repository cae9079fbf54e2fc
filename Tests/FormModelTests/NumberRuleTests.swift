import Foundation
import Testing

@testable import FormModel

@Suite("Number validation")
struct NumberRuleTests {
    @Test("numbers use a . point", arguments: ["12.50", "12.5", "12", "0", "12.500"])
    func plainNumbers(_ text: String) {
        #expect(DemoForm.messages("cost", ["cost": [text]]) == [])
        #expect(DemoForm.value("cost", ["cost": [text]]) == .number(Decimal(string: text)!))
    }

    @Test(
        "the field's prefix or suffix may be typed",
        arguments: [
            ("cost", "USD 12.50", "12.50"), ("cost", "usd12.50", "12.50"), ("weight", "12 kg", "12"),
            ("weight", "12kg", "12"),
            ("weight", "12.5 KG", "12.5"),
        ])
    func affixes(_ name: String, _ typed: String, _ number: String) {
        #expect(DemoForm.value(name, [name: [typed]]) == .number(Decimal(string: number)!))
    }

    @Test(
        "thousands separators, commas and words are refused with an example",
        arguments: ["1,200.00", "12,50", "twelve", "1e3", ".5", "EUR 12"])
    func notNumbers(_ text: String) {
        #expect(DemoForm.messages("cost", ["cost": [text]]) == ["Enter cost as a number, like 12.50"])
    }

    @Test("a number with more digits than a Decimal holds exactly is refused, not stored rounded")
    func tooManyDigits() {
        let widest = String(repeating: "9", count: 38)
        #expect(DemoForm.messages("weight", ["weight": [widest]]) == [])
        #expect(DemoForm.messages("weight", ["weight": ["000" + widest + ".000"]]) == [])
        // Too many digits, too large, too small: each would be stored as another number.
        for text in [
            widest + "1", "1" + String(repeating: "0", count: 60), "0." + String(repeating: "0", count: 130) + "1",
        ] {
            #expect(DemoForm.messages("weight", ["weight": [text]]) == ["Enter weight with 38 digits or fewer"])
        }
        #expect(DecimalText.significantDigits(of: "-000120.0500") == 5)
        #expect(DecimalText.significantDigits(of: "0.0120") == 3)
        #expect(DecimalText.significantDigits(of: "0.000") == 0)
    }

    @Test("the example follows the scale")
    func examples() {
        #expect(DemoForm.messages("weight", ["weight": ["heavy"]]) == ["Enter weight as a number, like 12.5"])
        #expect(NumberRule.example(scale: 0) == "12")
        #expect(NumberRule.example(scale: nil) == "12.5")
    }

    @Test("more decimals than the scale are refused")
    func scale() {
        #expect(DemoForm.messages("cost", ["cost": ["12.505"]]) == ["Cost must have 2 decimal places or fewer"])
        #expect(DemoForm.messages("weight", ["weight": ["12.25"]]) == ["Weight must have 1 decimal place or fewer"])
        let schema = SchemaSamples.with(
            Field(name: "weight", kind: .number, label: "Weight", constraints: Constraints(scale: 0)))
        let result = FormValidator.validate(schema, Submission(fields: ["title": ["T"], "weight": ["2.5"]]))
        #expect(result.issues == [FieldIssue(field: "weight", code: "scale", message: "Weight must be a whole number")])
    }

    @Test("min and max are each named on their own side")
    func bounds() {
        #expect(DemoForm.messages("cost", ["cost": ["-1"]]) == ["Cost must be 0 or more"])
        #expect(DemoForm.messages("progress", ["progress": ["105"]]) == ["Progress must be 100 or less"])
        #expect(DemoForm.messages("progress", ["progress": ["-5"]]) == ["Progress must be 0 or more"])
        #expect(DemoForm.messages("progress", ["progress": ["100"]]) == [])
    }

    @Test("a value must be min plus a whole number of steps")
    func step() {
        #expect(DemoForm.messages("progress", ["progress": ["42"]]) == ["Progress must be a multiple of 5"])
        #expect(DemoForm.value("progress", ["progress": ["45"]]) == .number(45))
        let schema = SchemaSamples.with(
            Field(name: "size", kind: .number, label: "Size", constraints: Constraints(min: "1", step: "2")))
        func messages(_ text: String) -> [String] {
            FormValidator.validate(schema, Submission(fields: ["title": ["T"], "size": [text]])).issues.map(\.message)
        }
        #expect(messages("5") == [])
        #expect(messages("4") == ["Size must be 1 plus a multiple of 2"])
    }

    @Test("a required number asks for a value")
    func required() {
        let schema = SchemaSamples.with(Field(name: "cost", kind: .number, label: "Cost", required: true))
        #expect(
            FormValidator.validate(schema, Submission(fields: ["title": ["T"], "cost": [" "]])).issues.map(\.message)
                == ["Enter a cost"])
    }
}
