import Foundation
import Testing

@testable import FormModel

@Suite("Values for people")
struct DisplayTextTests {
    static let schema = DemoForm.schema

    func text(_ name: String, _ value: FieldValue) -> String {
        value.displayText(for: Self.schema.field(named: name)!, in: Self.schema)
    }

    @Test("dates, times, datetimes and durations in words")
    func temporal() {
        #expect(text("due", .date(LocalDate("2026-11-21")!)) == "21 November 2026")
        #expect(text("start", .time(LocalTime("14:30")!)) == "14:30")
        #expect(text("start", .time(LocalTime("22:02:10.562+07:00")!)) == "22:02:10 (UTC+07:00)")
        #expect(text("reminder", .datetime(LocalDateTime("2026-11-21T14:30")!)) == "21 November 2026 at 14:30")
        #expect(text("estimate", .duration(ISODuration(hours: 1, minutes: 30))) == "1 hour 30 minutes")
        #expect(text("estimate", .duration(ISODuration("P30D")!)) == "30 days")
        #expect(text("estimate", .duration(ISODuration(hours: 1, minutes: 1))) == "1 hour 1 minute")
    }

    @Test("numbers with the field's scale, prefix and suffix")
    func numbers() {
        #expect(text("cost", .number(Decimal(string: "12.5")!)) == "USD 12.50")
        #expect(text("weight", .number(Decimal(string: "12.5")!)) == "12.5 kg")
        #expect(text("weight", .number(12)) == "12.0 kg")
        #expect(text("progress", .number(45)) == "45")
    }

    @Test("options by label, several summarised")
    func options() {
        #expect(text("priority", .choice("high")) == "High")
        #expect(text("categories", .choices(["bug", "ui"])) == "Bug and UI")
        #expect(text("categories", .choices(["bug", "ui", "docs"])) == "Bug, UI and Documentation")
        #expect(
            text("categories", .choices(["bug", "feature", "ui", "performance", "docs"])) == "Bug, Feature and 3 more")
        #expect(text("project", .choice("unknown")) == "unknown")
    }

    @Test("switches, grouped characters and files")
    func others() {
        #expect(text("remind", .bool(true)) == "On")
        #expect(text("remind", .bool(false)) == "Off")
        #expect(text("phone", .text("5551234567")) == "(555) 123-4567")
        let file = SubmittedFile(id: "1", name: "a.png", size: 1, contentType: "image/png")
        #expect(text("attachments", .files([file, file, file])) == "3 files")
        #expect(text("attachments", .files([file])) == "a.png")
    }

    @Test("pages that list every value get each label or file name")
    func items() {
        let schema = Self.schema
        let categories = schema.field(named: "categories")!
        #expect(
            FieldValue.choices(["bug", "feature", "ui", "docs"]).displayItems(for: categories, in: schema) == [
                "Bug", "Feature", "UI", "Documentation",
            ])
        let file = SubmittedFile(id: "1", name: "a.png", size: 1, contentType: "image/png")
        #expect(
            FieldValue.files([file, file]).displayItems(for: schema.field(named: "attachments")!, in: schema) == [
                "a.png", "a.png",
            ])
        #expect(FieldValue.number(3).displayItems(for: schema.field(named: "cost")!, in: schema) == ["USD 3.00"])
    }

    @Test("values decoded from JSON display like typed ones")
    func decoded() {
        #expect(text("due", .text("2026-11-21")) == "21 November 2026")
        #expect(text("categories", .choices(["ui"])) == "UI")
    }
}
