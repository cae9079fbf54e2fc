import Testing

@testable import FormModel

@Suite("Schema rules")
struct SchemaRulesTests {
    typealias S = SchemaSamples

    private func options(_ count: Int) -> [OptionGroup] {
        [OptionGroup(options: (1...count).map { Option(value: "v\($0)", label: "Option \($0)") })]
    }

    @Test("a sound schema breaks no rule")
    func sound() {
        #expect(S.sound.ruleViolations() == [])
    }

    @Test("the form id must be a lowercase slug")
    func badID() {
        var schema = S.sound
        schema.id = "New Issue"
        #expect(S.codes(schema) == ["bad-id"])
        schema.id = "-issue"
        #expect(S.codes(schema) == ["bad-id"])
        schema.id = "issue-2"
        #expect(S.codes(schema) == [])
        schema.id = String(repeating: "a", count: 101)
        #expect(
            schema.ruleViolations().map(\.message) == [
                "The form id \"aaaaaaaaaaaaaaaaaaaa…\" is 101 characters long; use at most 100 (it is the form's URL name)."
            ])
    }

    @Test("a date-time bound with a time zone, or a duration in fractions, says what to write instead")
    func boundsSayWhy() {
        let zoned = S.with(Field(name: "f", kind: .datetime, constraints: Constraints(min: "2026-01-01T00:00:00Z")))
        #expect(
            zoned.ruleViolations().map(\.message) == [
                #"min of "f" must be a date and time like 2026-11-21T14:30 (got "2026-01-01T00:00:00Z"); forms hold local date-times, so leave out the time zone."#
            ])
        let offset = S.with(Field(name: "f", kind: .datetime, constraints: Constraints(max: "2026-01-01T10:00+02:00")))
        #expect(offset.ruleViolations().first?.message.hasSuffix("so leave out the time zone.") == true)
        let half = S.with(Field(name: "f", kind: .duration, constraints: Constraints(min: "PT0.5H")))
        #expect(
            half.ruleViolations().first?.message.hasSuffix("write it in whole units, like PT30M for half an hour.")
                == true)
        // A date's own hyphens are no time zone.
        let bad = S.with(Field(name: "f", kind: .datetime, constraints: Constraints(min: "2026-13-01T10:00")))
        #expect(bad.ruleViolations().first?.message.hasSuffix(#"(got "2026-13-01T10:00")."#) == true)
    }

    @Test("a bound or default needing more digits than a number holds is refused, not read rounded")
    func tooManyDigits() {
        let wide = "1" + String(repeating: "0", count: 60)
        let field = Field(name: "f", kind: .number, defaultValue: wide, constraints: Constraints(max: wide))
        #expect(
            S.with(field).ruleViolations().map(\.message) == [
                #"max of "f" must be a number of 38 digits or fewer (got "\#(wide)")."#,
                #"The default of "f" must be a number of 38 digits or fewer (got "\#(wide)")."#,
            ])
        #expect(DecimalText.parse(wide) == nil && DecimalText.parse(String(repeating: "9", count: 38)) != nil)
    }

    @Test("max-selected takes 1 or more")
    func maxSelectedZero() {
        let chips = Field(
            name: "f", kind: .chips, constraints: Constraints(multiple: true, maxSelected: 0),
            options: [OptionGroup(options: [Option(value: "a", label: "A")])])
        #expect(S.codes(S.with(chips)) == ["bad-count"])
    }

    @Test("the form needs a title")
    func emptyTitle() {
        var schema = S.sound
        schema.title = "  "
        #expect(S.codes(schema) == ["empty-title"])
    }

    @Test("sections go key, properties, accessory, each once")
    func sectionOrder() {
        var schema = S.sound
        schema.sections.swapAt(1, 2)
        #expect(S.codes(schema) == ["section-order"])
        schema = S.sound
        schema.sections.append(FormSection(kind: .properties, groups: []))
        #expect(S.codes(schema) == ["duplicate-section"])
    }

    @Test("the key section must hold a field")
    func emptyKey() {
        var schema = S.sound
        schema.sections[0].groups = []
        schema.sections[1].groups[1].fields[0].required = true
        let issues = schema.ruleViolations()
        #expect(issues.map(\.code) == ["empty-key"])
        #expect(issues.first?.message == "The <key> section must hold at least one field.")
    }

    @Test("at least one top-level field is required")
    func noRequired() {
        var schema = S.sound
        schema.sections[0].groups[0].fields[0].required = false
        // The required datetime inside the switch does not count.
        #expect(S.codes(schema) == ["no-required-field"])
    }

    @Test("field names are identifiers, unique in the form, switch children included")
    func names() {
        #expect(S.codes(S.with(Field(name: "1st", kind: .text))) == ["bad-name"])
        // The second use is reported, where it stands.
        let issues = S.with(Field(name: "title", kind: .text, location: SourceLocation(line: 40))).ruleViolations()
        #expect(issues.map(\.code) == ["duplicate-name"])
        #expect(
            issues.first?.message == "The field name \"title\" is used twice; field names must be unique in a form.")
        #expect(issues.first?.location == SourceLocation(line: 40))
        // A switch child shares the form's names.
        #expect(S.codes(S.with(Field(name: "reminder", kind: .text))) == ["duplicate-name"])
    }

    @Test("segmented buttons take at most 3 options")
    func tooManyButtons() {
        #expect(S.codes(S.with(Field(name: "size", kind: .buttons, options: options(3)))) == [])
        let issues = S.with(Field(name: "size", kind: .buttons, options: options(4))).ruleViolations()
        #expect(issues.map(\.code) == ["too-many-buttons"])
        #expect(
            issues.first?.message
                == "\"size\" has 4 buttons; segmented buttons take at most 3 options (use chips or a value list).")
    }

    @Test("chips take at most 8 options")
    func tooManyChips() {
        #expect(S.codes(S.with(Field(name: "tag", kind: .chips, options: options(8)))) == [])
        #expect(S.codes(S.with(Field(name: "tag", kind: .chips, options: options(9)))) == ["too-many-chips"])
    }

    @Test("a value list must name a list that exists")
    func unknownList() {
        let issues = S.with(Field(name: "owner", kind: .valueList, list: "people")).ruleViolations()
        #expect(issues.map(\.code) == ["unknown-list"])
        #expect(
            issues.first?.message == "The list \"people\" named by \"owner\" does not exist; declare it under <lists>.")
    }

    @Test("choice fields need options, from a list or inline but not both")
    func optionSources() {
        #expect(S.codes(S.with(Field(name: "pick", kind: .valueList))) == ["no-options"])
        #expect(
            S.codes(S.with(Field(name: "pick", kind: .valueList, list: "projects", options: options(2)))) == [
                "list-and-options"
            ])
        #expect(S.codes(S.with(Field(name: "pick", kind: .chips, list: "projects"))) == ["list-not-allowed"])
    }

    @Test("a value list given its value by its parent or a default needs no options; an editable one still does")
    func valueFromParent() {
        #expect(S.codes(S.with(Field(name: "task", kind: .valueList, editable: .no, prefill: .query))) == [])
        #expect(S.codes(S.with(Field(name: "task", kind: .valueList, editable: .no, defaultValue: "T-1"))) == [])
        #expect(S.codes(S.with(Field(name: "task", kind: .valueList, prefill: .query))) == ["no-options"])
        #expect(S.codes(S.with(Field(name: "task", kind: .valueList, editable: .no))) == ["no-options"])
        #expect(S.codes(S.with(Field(name: "task", kind: .chips, editable: .no, defaultValue: "a"))) == ["no-options"])
    }

    @Test("option groups belong to value lists only")
    func groupsOutsideValueList() {
        let grouped = [OptionGroup(label: "G", options: [Option(value: "a", label: "A")])]
        #expect(S.codes(S.with(Field(name: "pick", kind: .buttons, options: grouped))) == ["group-not-allowed"])
        #expect(S.codes(S.with(Field(name: "pick", kind: .valueList, options: grouped))) == [])
    }

    @Test("option values are unique and defaults are among them")
    func optionValues() {
        let twice = [OptionGroup(options: [Option(value: "a", label: "A"), Option(value: "a", label: "Again")])]
        #expect(S.codes(S.with(Field(name: "pick", kind: .buttons, options: twice))) == ["duplicate-option"])
        #expect(
            S.codes(S.with(Field(name: "pick", kind: .buttons, defaultValue: "zzz", options: options(2)))) == [
                "unknown-default"
            ])
    }

    @Test("min above max is refused for numbers, dates, times and durations")
    func minAboveMax() {
        let cases: [(FieldKind, String, String)] = [
            (.number, "10", "2"), (.slider, "10", "2"), (.date, "2026-12-31", "2026-01-01"), (.time, "18:00", "09:00"),
            (.datetime, "2026-01-02T00:00", "2026-01-01T23:59"), (.duration, "P1D", "PT1H"),
        ]
        for (kind, min, max) in cases {
            let field = Field(name: "f", kind: kind, constraints: Constraints(min: min, max: max))
            #expect(S.codes(S.with(field)) == ["min-above-max"], "\(kind)")
        }
        let issue = S.with(Field(name: "f", kind: .number, constraints: Constraints(min: "10", max: "2")))
            .ruleViolations().first
        #expect(issue?.message == "min of \"f\" (10) is above its max (2).")
    }

    @Test("min-length above max-length and min-selected above max-selected are refused")
    func countRanges() {
        let text = Field(name: "f", kind: .text, constraints: Constraints(minLength: 5, maxLength: 2))
        #expect(S.codes(S.with(text)) == ["min-above-max"])
        let chips = Field(
            name: "f", kind: .chips, constraints: Constraints(multiple: true, minSelected: 3, maxSelected: 2),
            options: options(4))
        #expect(S.codes(S.with(chips)) == ["min-above-max"])
        let files = Field(name: "f", kind: .attachments, constraints: Constraints(minCount: 3, maxCount: 1))
        #expect(S.codes(S.with(files)) == ["min-above-max"])
    }

    @Test("bounds must have the kind's form")
    func badBounds() {
        #expect(
            S.codes(S.with(Field(name: "f", kind: .number, constraints: Constraints(min: "ten")))) == ["bad-number"])
        #expect(
            S.codes(S.with(Field(name: "f", kind: .date, constraints: Constraints(max: "2023-02-29")))) == ["bad-date"])
        #expect(
            S.codes(S.with(Field(name: "f", kind: .duration, constraints: Constraints(min: "15 minutes")))) == [
                "bad-duration"
            ])
        #expect(
            S.codes(S.with(Field(name: "f", kind: .text, constraints: Constraints(min: "1")))) == [
                "attribute-not-allowed"
            ])
    }

    @Test("a slider needs both min and max")
    func sliderRange() {
        let issues = S.with(Field(name: "level", kind: .slider, constraints: Constraints(min: "0"))).ruleViolations()
        #expect(issues.map(\.code) == ["slider-range"])
        #expect(issues.first?.message == "A slider needs both min and max; add them to \"level\".")
    }

    @Test("step must be above zero and scale 0...18")
    func stepAndScale() {
        #expect(S.codes(S.with(Field(name: "f", kind: .number, constraints: Constraints(step: "0")))) == ["bad-step"])
        #expect(S.codes(S.with(Field(name: "f", kind: .number, constraints: Constraints(scale: 19)))) == ["bad-scale"])
    }

    @Test("defaults must fit the kind and its range")
    func defaults() {
        #expect(S.codes(S.with(Field(name: "f", kind: .number, defaultValue: "1,5"))) == ["bad-default"])
        #expect(
            S.codes(S.with(Field(name: "f", kind: .number, defaultValue: "20", constraints: Constraints(max: "10"))))
                == ["default-out-of-range"])
        #expect(S.codes(S.with(Field(name: "f", kind: .date, defaultValue: "tomorrow"))) == ["bad-default"])
        #expect(S.codes(S.with(Field(name: "f", kind: .time, defaultValue: "now"))) == [])
        // "dates also take today / now": both words on dates and date-times, only "now" on a time.
        #expect(S.codes(S.with(Field(name: "f", kind: .date, defaultValue: "now"))) == [])
        #expect(S.codes(S.with(Field(name: "f", kind: .datetime, defaultValue: "today"))) == [])
        #expect(S.codes(S.with(Field(name: "f", kind: .time, defaultValue: "today"))) == ["bad-default"])
        #expect(
            ClockReading(today: LocalDate("2026-11-24")!, time: LocalTime("09:05")).value(for: .date) == "2026-11-24")
        #expect(S.codes(S.with(Field(name: "f", kind: .switch, defaultValue: "yes"))) == ["bad-default"])
        #expect(
            S.codes(
                S.with(Field(name: "f", kind: .text, defaultValue: "abcdef", constraints: Constraints(maxLength: 3))))
                == ["default-out-of-range"])
    }

    @Test("patterns must compile and formats need a placeholder character")
    func patternAndFormat() {
        #expect(
            S.codes(S.with(Field(name: "f", kind: .text, constraints: Constraints(pattern: "[A-Z")))) == ["bad-pattern"]
        )
        #expect(
            S.codes(S.with(Field(name: "f", kind: .text, constraints: Constraints(format: "(---)")))) == ["bad-format"])
    }

    @Test("accept lists MIME types or type/* patterns")
    func accept() {
        #expect(FormSchema.isMIMEPattern("image/*"))
        #expect(FormSchema.isMIMEPattern("application/vnd.ms-excel"))
        #expect(!FormSchema.isMIMEPattern("*/*"))
        #expect(!FormSchema.isMIMEPattern(".pdf"))
        #expect(
            S.codes(S.with(Field(name: "f", kind: .attachments, constraints: Constraints(accept: ["pdf"])))) == [
                "bad-accept"
            ])
    }

    @Test("selection bounds need multiple and enough options")
    func selection() {
        let single = Field(name: "f", kind: .chips, constraints: Constraints(maxSelected: 1), options: options(3))
        #expect(S.codes(S.with(single)) == ["selected-without-multiple"])
        let over = Field(
            name: "f", kind: .chips, constraints: Constraints(multiple: true, maxSelected: 5), options: options(3))
        #expect(S.codes(S.with(over)) == ["max-selected-above-options"])
        #expect(
            S.codes(
                S.with(Field(name: "f", kind: .buttons, constraints: Constraints(multiple: true), options: options(2))))
                == ["buttons-multiple"])
    }

    @Test("only switches hold fields, and not other switches")
    func switches() {
        let nested = Field(name: "outer", kind: .switch, children: [Field(name: "inner", kind: .switch)])
        #expect(S.codes(S.with(nested)) == ["nested-switch"])
        let text = Field(name: "outer", kind: .text, children: [Field(name: "inner", kind: .text)])
        #expect(S.codes(S.with(text)) == ["children-outside-switch"])
    }

    @Test("lists have valid unique ids and at least one option")
    func lists() {
        var schema = S.sound
        schema.lists.append(
            OptionList(id: "projects", groups: [OptionGroup(options: [Option(value: "x", label: "X")])]))
        #expect(S.codes(schema) == ["duplicate-list"])
        schema = S.sound
        schema.lists.append(OptionList(id: "empty one", groups: []))
        #expect(S.codes(schema) == ["bad-list-id", "empty-list"])
    }
}

@Test("a field left out takes its emptied group and section and its own list, never the key section or a shared list")
func removeField() {
    var kindOf = Field(name: "kind", kind: .valueList, label: "Kind")
    kindOf.list = "kinds"
    var other = Field(name: "other", kind: .valueList, label: "Other")
    other.list = "shared"
    var again = Field(name: "again", kind: .valueList, label: "Again")
    again.list = "shared"
    var schema = FormSchema(
        id: "f", title: "F",
        sections: [
            FormSection(kind: .key, groups: [FieldGroup(fields: [Field(name: "title", kind: .text)])]),
            FormSection(
                kind: .properties,
                groups: [FieldGroup(label: "Alone", fields: [kindOf]), FieldGroup(fields: [other, again])]),
        ],
        lists: [OptionList(id: "kinds", groups: []), OptionList(id: "shared", groups: [])])
    schema.removeField(named: "kind")
    #expect(schema.sections.map(\.groups.count) == [1, 1])
    #expect(schema.lists.map(\.id) == ["shared"])
    schema.removeField(named: "other")
    #expect(schema.lists.map(\.id) == ["shared"], "still named by another field")
    schema.removeField(named: "again")
    #expect(schema.sections.map(\.kind) == [.key] && schema.lists.isEmpty)
    schema.removeField(named: "title")
    #expect(schema.sections.map(\.kind) == [.key], "the key section stays, empty")
}
