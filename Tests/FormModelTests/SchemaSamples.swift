@testable import FormModel

/// Small hand-built schemas: a sound one, and helpers to break it one rule at a time.
enum SchemaSamples {
    static let title = Field(
        name: "title", kind: .text, placeholder: "Title", required: true, location: SourceLocation(line: 3))

    /// A form that breaks no rule, using most field kinds.
    static var sound: FormSchema {
        FormSchema(
            id: "new-issue", title: "New Issue", object: "Issue",
            sections: [
                FormSection(kind: .key, groups: [FieldGroup(fields: [title])]),
                FormSection(
                    kind: .properties,
                    groups: [
                        FieldGroup(
                            label: "Classification",
                            fields: [
                                Field(name: "project", kind: .valueList, label: "Project", list: "projects"),
                                Field(
                                    name: "priority", kind: .buttons, defaultValue: "low",
                                    options: [
                                        OptionGroup(options: [
                                            Option(value: "low", label: "Low"), Option(value: "high", label: "High"),
                                        ])
                                    ]),
                                Field(
                                    name: "tags", kind: .chips,
                                    constraints: Constraints(multiple: true, maxSelected: 2),
                                    options: [
                                        OptionGroup(options: [
                                            Option(value: "a", label: "A"), Option(value: "b", label: "B"),
                                        ])
                                    ]),
                            ]),
                        FieldGroup(fields: [
                            Field(
                                name: "due", kind: .date, defaultValue: "today",
                                constraints: Constraints(min: "2026-01-01", max: "2026-12-31")),
                            Field(
                                name: "estimate", kind: .duration, constraints: Constraints(min: "PT15M", max: "P30D")),
                            Field(
                                name: "cost", kind: .number,
                                constraints: Constraints(min: "0", max: "100.50", step: "0.01", scale: 2)),
                            Field(
                                name: "progress", kind: .slider, defaultValue: "0",
                                constraints: Constraints(min: "0", max: "100", step: "5")),
                        ]),
                    ]),
                FormSection(
                    kind: .accessory,
                    groups: [
                        FieldGroup(fields: [
                            Field(
                                name: "remind", kind: .switch,
                                children: [
                                    Field(name: "reminder", kind: .datetime, required: true, defaultValue: "now")
                                ]),
                            Field(
                                name: "notes", kind: .note, constraints: Constraints(maxLength: 2000),
                                presentation: Presentation(rows: 4)),
                            Field(
                                name: "files", kind: .attachments,
                                constraints: Constraints(
                                    minCount: 0, maxCount: 5, maxSize: 10 << 20, accept: ["image/*", "application/pdf"])
                            ),
                        ])
                    ]),
            ],
            lists: [
                OptionList(
                    id: "projects",
                    groups: [
                        OptionGroup(label: "Mobile", options: [Option(value: "ios", label: "iOS App")]),
                        OptionGroup(label: "Web", options: [Option(value: "portal", label: "Portal")]),
                    ])
            ])
    }

    /// The sound form with one extra field in properties.
    static func with(_ field: Field) -> FormSchema {
        var schema = sound
        schema.sections[1].groups[1].fields.append(field)
        return schema
    }

    /// The codes of the rules a schema breaks.
    static func codes(_ schema: FormSchema) -> [String] {
        schema.ruleViolations().map(\.code.rawValue)
    }
}
