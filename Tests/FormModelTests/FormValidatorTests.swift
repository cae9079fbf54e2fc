import Testing

@testable import FormModel

@Suite("Form validator")
struct FormValidatorTests {
    @Test("a minimal valid submission gives typed values and no issues")
    func minimalSubmission() {
        let result = DemoForm.validate([:])
        #expect(result.isValid)
        #expect(result.values["title"] == .text("Crash on launch"))
        #expect(result.values["project"] == .choice("ios-app"))
        #expect(result.values["remind"] == .bool(false))
        #expect(result.values["cost"] == nil, "empty fields are absent")
    }

    @Test("an empty submission reports every required field at once, in form order")
    func everyIssueAtOnce() {
        let result = FormValidator.validate(DemoForm.schema, Submission(fields: ["cost": ["-1"], "asset": ["x"]]))
        #expect(result.issues.map(\.field) == ["title", "project", "cost", "asset"])
        #expect(result.issues.map(\.code) == ["required", "required", "min", "pattern"])
        #expect(result.values["asset"] == nil)
    }

    @Test("the six messages of the issue are exact")
    func issueMessages() {
        let result = FormValidator.validate(
            DemoForm.schema,
            Submission(
                fields: ["cost": ["-0.01"], "asset": ["A1234"], "categories": ["bug", "ui", "docs", "security"]],
                files: [
                    "attachments": [SubmittedFile(id: "1", name: "big.png", size: 11 << 20, contentType: "image/png")]
                ]))
        let messages = result.issues.map(\.message)
        #expect(messages.contains("Enter a title"))
        #expect(messages.contains("Cost must be 0 or more"))
        #expect(messages.contains("Asset code must be two letters, a hyphen and four digits"))
        #expect(messages.contains("Select at most 3 categories"))
        #expect(messages.contains("The selected file must be smaller than 10 MB"))
        let exe = DemoForm.validate(
            [:], files: ["attachments": [SubmittedFile(id: "2", name: "report.exe", size: 10, contentType: nil)]])
        #expect(exe.issues.map(\.message) == ["The selected file must be a PNG, JPEG, PDF or CSV"])
    }

    @Test("every field has one issue at most, the first broken rule")
    func oneIssuePerField() {
        #expect(
            DemoForm.messages("title", ["title": [String(repeating: "x", count: 121)]]) == [
                "Title must be 120 characters or fewer"
            ])
    }

    @Test("unknown names are ignored")
    func unknownNames() {
        let result = DemoForm.validate(["admin": ["true"], "title.hours": ["3"], "id": ["42"]])
        #expect(result.isValid)
        #expect(Set(result.values.keys) == ["title", "project", "remind"])
    }

    @Test("a switch that is off drops its children's values and issues, whatever was submitted")
    func switchOffDropsChildren() {
        let invalid = DemoForm.validate(["reminder": ["not a date"]])
        #expect(invalid.isValid)
        #expect(invalid.values["reminder"] == nil)
        let valid = DemoForm.validate(["remind": ["off"], "reminder": ["2026-11-21T14:30"]])
        #expect(valid.values["reminder"] == nil)
        #expect(valid.values["remind"] == .bool(false))
    }

    @Test("a switch that is on validates and stores its children")
    func switchOnChecksChildren() {
        #expect(DemoForm.messages("reminder", ["remind": ["on"]]) == ["Enter a reminder"])
        #expect(
            DemoForm.messages("reminder", ["remind": ["on"], "reminder": ["2026-02-30T10:00"]]) == [
                "Reminder must be a real date and time"
            ])
        let result = DemoForm.validate(["remind": ["true"], "reminder": ["2026-11-21T14:30"]])
        #expect(result.values["remind"] == .bool(true))
        #expect(result.values["reminder"] == .datetime(LocalDateTime("2026-11-21T14:30")!))
    }

    @Test(
        "a switch is on for on, true and 1, and off otherwise",
        arguments: [
            ("on", true), ("true", true), ("1", true), ("TRUE", true), ("off", false), ("false", false), ("0", false),
            ("", false),
        ])
    func switchValues(_ sent: String, _ on: Bool) {
        #expect(DemoForm.value("remind", ["remind": [sent]]) == .bool(on))
    }

    @Test("a required switch must be on")
    func requiredSwitch() {
        let schema = SchemaSamples.with(Field(name: "agree", kind: .switch, label: "Remind me", required: true))
        let result = FormValidator.validate(schema, Submission(fields: ["title": ["T"]]))
        #expect(result.issues == [FieldIssue(field: "agree", code: "required", message: "Turn on Remind me")])
    }

    @Test("a submitted value for a non-editable field is ignored: the server's value is kept")
    func tamperingChangesNothing() {
        let context = ValidationContext(serverValues: ["task": ["T-1001"]])
        let result = DemoForm.validate(["task": ["T-9999"]], context: context)
        #expect(result.values["task"] == .text("T-1001"))
        let none = DemoForm.validate(["task": ["T-9999"]])
        #expect(none.values["task"] == nil, "without a server value, nothing the browser sent is stored")
    }

    @Test("create-only fields are the user's in create mode and the server's in edit mode")
    func createOnly() {
        let schema = SchemaSamples.with(Field(name: "code", kind: .text, label: "Code", editable: .createOnly))
        let create = FormValidator.validate(schema, Submission(fields: ["title": ["T"], "code": ["NEW"]]))
        #expect(create.values["code"] == .text("NEW"))
        let edit = FormValidator.validate(
            schema, Submission(fields: ["title": ["T"], "code": ["HACKED"]]),
            context: ValidationContext(mode: .edit, serverValues: ["code": ["OLD"]]))
        #expect(edit.values["code"] == .text("OLD"))
    }

    @Test("a non-editable field without a server value keeps its default in create mode")
    func nonEditableDefault() {
        let schema = SchemaSamples.with(
            Field(
                name: "state", kind: .buttons, label: "State", editable: .no, defaultValue: "open",
                options: [
                    OptionGroup(options: [
                        Option(value: "open", label: "Open"), Option(value: "closed", label: "Closed"),
                    ])
                ]))
        let result = FormValidator.validate(schema, Submission(fields: ["title": ["T"], "state": ["closed"]]))
        #expect(result.values["state"] == .choice("open"))
    }

    @Test("a required non-editable field the server gave no value is reported as required")
    func requiredNonEditableWithoutValue() {
        let schema = SchemaSamples.with(
            Field(name: "ref", kind: .text, label: "Reference", required: true, editable: .no))
        let result = FormValidator.validate(schema, Submission(fields: ["title": ["T"], "ref": ["R-1"]]))
        #expect(result.issues == [FieldIssue(field: "ref", code: "required", message: "Enter a reference")])
    }

    @Test("read-only attachments keep the server's files in edit mode")
    func readOnlyAttachments() {
        let kept = SubmittedFile(id: "a", name: "a.pdf", size: 1, contentType: "application/pdf")
        let schema = SchemaSamples.with(Field(name: "scan", kind: .attachments, editable: .createOnly))
        let result = FormValidator.validate(
            schema,
            Submission(
                fields: ["title": ["T"]],
                files: ["scan": [SubmittedFile(id: "b", name: "b.pdf", size: 1, contentType: "application/pdf")]]),
            context: ValidationContext(mode: .edit, serverFiles: ["scan": [kept]]))
        #expect(result.values["scan"] == .files([kept]))
    }
}

@Suite("Server-decided values")
struct ServerDecidedTests {
    static let prefilled = SchemaSamples.with(Field(name: "ref", kind: .text, label: "Reference", prefill: .query))

    @Test("an editable prefilled field takes what the user typed: the query is only its initial value")
    func editablePrefill() {
        let result = FormValidator.validate(
            Self.prefilled, Submission(fields: ["title": ["T"], "ref": ["R-2"]]),
            context: ValidationContext(serverValues: ["ref": ["R-1"]]))
        #expect(result.values["ref"] == .text("R-2"))
    }

    @Test("a non-editable date defaulting to today takes the context's today")
    func todayDefault() {
        let schema = SchemaSamples.with(
            Field(name: "opened", kind: .date, label: "Opened", editable: .no, defaultValue: "today"))
        let today = LocalDate(year: 2026, month: 11, day: 21)
        let result = FormValidator.validate(
            schema, Submission(fields: ["title": ["T"], "opened": ["1999-01-01"]]),
            context: ValidationContext(clock: today.map { ClockReading(today: $0) }))
        #expect(result.values["opened"] == today.map(FieldValue.date))
    }

    @Test("server values are checked like submitted ones")
    func serverValuesChecked() {
        let schema = SchemaSamples.with(
            Field(name: "code", kind: .text, label: "Code", editable: .no, constraints: Constraints(maxLength: 3)))
        let result = FormValidator.validate(
            schema, Submission(fields: ["title": ["T"]]), context: ValidationContext(serverValues: ["code": ["ABCD"]]))
        #expect(result.issues.map(\.message) == ["Code must be 3 characters or fewer"])
    }

    @Test(
        "which fields the server decides, by mode",
        arguments: [
            (Editability.yes, FormMode.create, false), (.yes, .edit, false), (.no, .create, true), (.no, .edit, true),
            (.createOnly, .create, false), (.createOnly, .edit, true),
        ])
    func decidedByMode(_ editable: Editability, _ mode: FormMode, _ decided: Bool) {
        #expect(mode.isReadOnly(Field(name: "f", kind: .text, editable: editable)) == decided)
    }
}
