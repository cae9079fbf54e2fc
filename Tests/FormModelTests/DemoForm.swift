@testable import FormModel

/// The demo form `Specs/new-issue.xml` built by hand, and helpers to validate against it.
enum DemoForm {
    static func options(_ pairs: [(String, String)]) -> [Option] { pairs.map { Option(value: $0.0, label: $0.1) } }

    static var schema: FormSchema {
        FormSchema(
            id: "new-issue", title: "New Issue", object: "Issue",
            sections: [
                FormSection(
                    kind: .key,
                    groups: [
                        FieldGroup(fields: [
                            Field(
                                name: "title", kind: .text, placeholder: "Title", required: true,
                                constraints: Constraints(maxLength: 120))
                        ])
                    ]),
                FormSection(
                    kind: .properties,
                    groups: [
                        FieldGroup(
                            label: "Classification",
                            fields: [
                                Field(
                                    name: "project", kind: .valueList, label: "Project", required: true,
                                    list: "projects"),
                                Field(
                                    name: "task", kind: .text, label: "Task",
                                    hint: "Filled in from the task you started from",
                                    editable: .no, prefill: .query),
                                Field(
                                    name: "priority", kind: .buttons, label: "Priority", defaultValue: "medium",
                                    options: [
                                        OptionGroup(
                                            options: options([("low", "Low"), ("medium", "Medium"), ("high", "High")]))
                                    ]),
                                Field(
                                    name: "categories", kind: .chips, label: "Categories", hint: "Choose up to 3",
                                    constraints: Constraints(multiple: true, maxSelected: 3),
                                    options: [
                                        OptionGroup(
                                            options: options([
                                                ("bug", "Bug"), ("feature", "Feature"), ("ui", "UI"),
                                                ("performance", "Performance"),
                                                ("security", "Security"), ("docs", "Documentation"),
                                            ]))
                                    ]),
                                Field(
                                    name: "assignees", kind: .valueList, label: "Assignees",
                                    constraints: Constraints(multiple: true), list: "people"),
                            ]),
                        FieldGroup(
                            label: "Schedule",
                            fields: [
                                Field(name: "due", kind: .date, label: "Due date", defaultValue: "today"),
                                Field(name: "start", kind: .time, label: "Start time"),
                                Field(
                                    name: "estimate", kind: .duration, label: "Estimate", hint: "Hours and minutes",
                                    constraints: Constraints(min: "PT15M", max: "P30D")),
                                Field(
                                    name: "progress", kind: .slider, label: "Progress", defaultValue: "0",
                                    constraints: Constraints(min: "0", max: "100", step: "5")),
                            ]),
                        FieldGroup(
                            label: "Details",
                            fields: [
                                Field(
                                    name: "phone", kind: .text, label: "Contact phone", placeholder: "(555) 123-4567",
                                    constraints: Constraints(textType: .tel, format: "(###) ###-####")),
                                Field(
                                    name: "cost", kind: .number, label: "Cost",
                                    constraints: Constraints(min: "0", step: "0.01", scale: 2),
                                    presentation: Presentation(prefix: "USD")),
                                Field(
                                    name: "weight", kind: .number, label: "Weight",
                                    constraints: Constraints(min: "0", scale: 1),
                                    presentation: Presentation(suffix: "kg")),
                                Field(
                                    name: "email", kind: .text, label: "Email", placeholder: "name@example.com",
                                    constraints: Constraints(textType: .email)),
                                Field(
                                    name: "asset", kind: .text, label: "Asset code",
                                    hint: "Two letters, a hyphen and four digits, like AB-1234",
                                    constraints: Constraints(pattern: "[A-Z]{2}-[0-9]{4}")),
                            ]),
                    ]),
                FormSection(
                    kind: .accessory,
                    groups: [
                        FieldGroup(fields: [
                            Field(
                                name: "remind", kind: .switch, label: "Remind me",
                                children: [
                                    Field(
                                        name: "reminder", kind: .datetime, label: "Reminder", required: true,
                                        defaultValue: "now")
                                ]),
                            Field(
                                name: "notes", kind: .note, label: "Notes", constraints: Constraints(maxLength: 2000),
                                presentation: Presentation(rows: 4)),
                            Field(
                                name: "attachments", kind: .attachments, label: "Attachments",
                                constraints: Constraints(
                                    maxCount: 5, maxSize: 10 << 20,
                                    accept: ["image/png", "image/jpeg", "application/pdf", "text/csv"])),
                        ])
                    ]),
            ],
            lists: [
                OptionList(
                    id: "projects",
                    groups: [
                        OptionGroup(
                            label: "Mobile", options: options([("ios-app", "iOS App"), ("android-app", "Android App")])),
                        OptionGroup(label: "Web", options: options([("portal", "Customer Portal")])),
                    ]),
                OptionList(
                    id: "people",
                    groups: [
                        OptionGroup(
                            options: options([
                                ("aaron", "Aaron Clarke"), ("beatriz", "Beatriz Souza"), ("chen", "Chen Wei"),
                                ("dana", "Dana Whitfield"),
                                ("emeka", "Emeka Obi"),
                            ]))
                    ]),
            ])
    }

    /// The smallest valid submission: a title and a project.
    static let minimal: [String: [String]] = ["title": ["Crash on launch"], "project": ["ios-app"]]

    /// Validates `fields` merged over the minimal submission.
    static func validate(
        _ fields: [String: [String]], files: [String: [SubmittedFile]] = [:],
        context: ValidationContext = ValidationContext()
    ) -> ValidationResult {
        FormValidator.validate(
            schema, Submission(fields: minimal.merging(fields) { $1 }, files: files), context: context)
    }

    /// The messages for one field after validating `fields` over the minimal submission.
    static func messages(_ name: String, _ fields: [String: [String]]) -> [String] {
        validate(fields).issues.filter { $0.field == name }.map(\.message)
    }

    /// The stored value of one field after validating `fields` over the minimal submission.
    static func value(_ name: String, _ fields: [String: [String]]) -> FieldValue? {
        validate(fields).values[name]
    }
}
