import Testing

@testable import FormModel

@Suite("Date, time and duration validation")
struct TemporalRuleTests {
    static let bounded = SchemaSamples.with(
        Field(name: "start", kind: .time, label: "Start time", constraints: Constraints(min: "09:00", max: "17:30")))

    func messages(_ schema: FormSchema, _ fields: [String: [String]]) -> [String] {
        FormValidator.validate(schema, Submission(fields: fields.merging(["title": ["T"]]) { a, _ in a })).issues.map(
            \.message)
    }

    @Test("dates must be real")
    func realDates() {
        #expect(DemoForm.value("due", ["due": ["2026-11-21"]]) == .date(LocalDate("2026-11-21")!))
        #expect(DemoForm.messages("due", ["due": ["2023-02-29"]]) == ["Due date must be a real date"])
        #expect(DemoForm.messages("due", ["due": ["21/11/2026"]]) == ["Due date must be a real date"])
    }

    @Test("dates within min and max, named in words")
    func dateBounds() {
        let schema = SampleSchema.sound
        #expect(messages(schema, ["due": ["2025-12-31"]]) == ["Due must be on or after 1 January 2026"])
        #expect(messages(schema, ["due": ["2027-01-01"]]) == ["Due must be on or before 31 December 2026"])
        #expect(messages(schema, ["due": ["2026-01-01"]]) == [])
    }

    @Test("a required date asks for it")
    func requiredDate() {
        let schema = SchemaSamples.with(Field(name: "due", kind: .date, label: "Due date", required: true))
        #expect(
            FormValidator.validate(schema, Submission(fields: ["title": ["T"]])).issues.map(\.message).last
                == "Enter a due date")
    }

    @Test("times must be real and within bounds")
    func times() {
        #expect(DemoForm.value("start", ["start": ["14:30"]]) == .time(LocalTime("14:30")!))
        #expect(DemoForm.messages("start", ["start": ["25:00"]]) == ["Start time must be a real time"])
        #expect(messages(Self.bounded, ["start": ["08:59"]]) == ["Start time must be 09:00 or later"])
        #expect(messages(Self.bounded, ["start": ["17:31"]]) == ["Start time must be 17:30 or earlier"])
    }

    @Test("datetimes must be real and within bounds")
    func datetimes() {
        let schema = SchemaSamples.with(
            Field(
                name: "at", kind: .datetime, label: "Reminder",
                constraints: Constraints(min: "2026-01-01T09:00", max: "2026-12-31T17:00")))
        #expect(messages(schema, ["at": ["2026-11-21T14:30"]]) == [])
        #expect(messages(schema, ["at": ["2026-11-21 14:30"]]) == ["Reminder must be a real date and time"])
        #expect(
            messages(schema, ["at": ["2026-01-01T08:00"]]) == ["Reminder must be on or after 1 January 2026 at 09:00"])
        #expect(
            messages(schema, ["at": ["2026-12-31T17:01"]]) == [
                "Reminder must be on or before 31 December 2026 at 17:00"
            ])
    }

    @Test("durations come as ISO 8601 or as hours and minutes")
    func durations() {
        #expect(DemoForm.value("estimate", ["estimate": ["PT1H30M"]]) == .duration(ISODuration(hours: 1, minutes: 30)))
        #expect(
            DemoForm.value("estimate", ["estimate.hours": ["1"], "estimate.minutes": ["30"]])
                == .duration(ISODuration(hours: 1, minutes: 30)))
        #expect(
            DemoForm.value("estimate", ["estimate.hours": ["2"], "estimate.minutes": [""]])
                == .duration(ISODuration(hours: 2)))
        #expect(
            DemoForm.value("estimate", ["estimate.minutes": ["90"]]) == .duration(ISODuration(hours: 1, minutes: 30)))
        #expect(DemoForm.value("estimate", ["estimate.hours": [""], "estimate.minutes": [" "]]) == nil)
    }

    @Test("durations that cannot be read are refused")
    func badDurations() {
        #expect(
            DemoForm.messages("estimate", ["estimate": ["90 minutes"]]) == [
                "Enter estimate in hours and minutes, like PT1H30M"
            ])
        #expect(
            DemoForm.messages("estimate", ["estimate.hours": ["1.5"]]) == ["Estimate must be whole hours and minutes"])
        #expect(
            DemoForm.messages("estimate", ["estimate.hours": ["-1"]]) == ["Estimate must be whole hours and minutes"])
        #expect(
            DemoForm.messages("estimate", ["estimate.hours": ["1"], "estimate.minutes": ["60"]]) == [
                "Estimate minutes must be 59 or fewer"
            ])
    }

    @Test("durations within bounds, described in words")
    func durationBounds() {
        #expect(DemoForm.messages("estimate", ["estimate.minutes": ["10"]]) == ["Estimate must be at least 15 minutes"])
        #expect(DemoForm.messages("estimate", ["estimate": ["P31D"]]) == ["Estimate must be 30 days or less"])
        #expect(DemoForm.messages("estimate", ["estimate.hours": ["720"]]) == [])
        #expect(
            DemoForm.messages("estimate", ["estimate.hours": ["720"], "estimate.minutes": ["1"]]) == [
                "Estimate must be 30 days or less"
            ])
    }
}

/// The sound sample form, under a name that reads well here.
enum SampleSchema {
    static var sound: FormSchema { SchemaSamples.sound }
}
