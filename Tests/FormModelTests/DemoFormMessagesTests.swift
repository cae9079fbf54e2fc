import Testing

@testable import FormModel

/// Every message the demo form (`Specs/new-issue.xml`) can show, exactly: they are API.
@Suite("Demo form messages")
struct DemoFormMessagesTests {
    static let cases: [(String, [String: [String]], String)] = [
        ("title", ["title": [""]], "Enter a title"),
        ("title", ["title": [String(repeating: "a", count: 121)]], "Title must be 120 characters or fewer"),
        ("project", ["project": []], "Select a project"),
        ("project", ["project": ["nope"]], "Select a project from the list"),
        ("priority", ["priority": ["urgent"]], "Select a priority from the list"),
        ("priority", ["priority": ["low", "high"]], "Select only one priority"),
        ("categories", ["categories": ["bug", "ui", "docs", "security"]], "Select at most 3 categories"),
        ("categories", ["categories": ["malware"]], "Select categories from the list"),
        ("assignees", ["assignees": ["mallory"]], "Select assignees from the list"),
        ("due", ["due": ["2023-02-29"]], "Due date must be a real date"),
        ("start", ["start": ["2pm"]], "Start time must be a real time"),
        ("estimate", ["estimate": ["1h30"]], "Enter estimate in hours and minutes, like PT1H30M"),
        ("estimate", ["estimate.hours": ["one"]], "Estimate must be whole hours and minutes"),
        ("estimate", ["estimate.hours": ["1"], "estimate.minutes": ["75"]], "Estimate minutes must be 59 or fewer"),
        ("estimate", ["estimate.minutes": ["14"]], "Estimate must be at least 15 minutes"),
        ("estimate", ["estimate": ["P30DT1M"]], "Estimate must be 30 days or less"),
        ("progress", ["progress": ["half"]], "Enter progress as a number, like 12.5"),
        ("progress", ["progress": ["-5"]], "Progress must be 0 or more"),
        ("progress", ["progress": ["101"]], "Progress must be 100 or less"),
        ("progress", ["progress": ["33"]], "Progress must be a multiple of 5"),
        ("phone", ["phone": ["555 1234"]], "Contact phone must be 10 digits, like (555) 123-4567"),
        ("cost", ["cost": ["1,000"]], "Enter cost as a number, like 12.50"),
        ("cost", ["cost": ["-0.01"]], "Cost must be 0 or more"),
        ("cost", ["cost": ["USD 0.001"]], "Cost must have 2 decimal places or fewer"),
        ("weight", ["weight": ["12 lb"]], "Enter weight as a number, like 12.5"),
        ("weight", ["weight": ["1.25 kg"]], "Weight must have 1 decimal place or fewer"),
        ("weight", ["weight": ["-1kg"]], "Weight must be 0 or more"),
        (
            "email", ["email": ["name.example.com"]],
            "Enter an email address in the correct format, like name@example.com"
        ),
        ("asset", ["asset": ["ab-1234"]], "Asset code must be two letters, a hyphen and four digits"),
        ("reminder", ["remind": ["on"]], "Enter a reminder"),
        ("reminder", ["remind": ["on"], "reminder": ["tomorrow"]], "Reminder must be a real date and time"),
        ("notes", ["notes": [String(repeating: "n", count: 2001)]], "Notes must be 2000 characters or fewer"),
    ]

    @Test("each broken rule gives its exact message", arguments: cases.indices)
    func message(_ index: Int) {
        let (field, fields, message) = Self.cases[index]
        let result = DemoForm.validate(fields)
        #expect(result.issues.map(\.field) == [field])
        #expect(result.issues.map(\.message) == [message])
    }

    static let fileCases: [([SubmittedFile], [String])] = [
        (
            [SubmittedFile(id: "1", name: "a.svg", size: 10, contentType: "image/svg+xml")],
            ["The selected file must be a PNG, JPEG, PDF or CSV"]
        ),
        (
            [SubmittedFile(id: "1", name: "a.pdf", size: 20 << 20, contentType: "application/pdf")],
            ["The selected file must be smaller than 10 MB"]
        ),
        (
            Array(repeating: SubmittedFile(id: "1", name: "a.pdf", size: 1, contentType: "application/pdf"), count: 6),
            ["Select up to 5 files"]
        ),
    ]

    @Test("each broken attachment rule gives its exact message", arguments: fileCases.indices)
    func fileMessage(_ index: Int) {
        let (files, messages) = Self.fileCases[index]
        #expect(DemoForm.validate([:], files: ["attachments": files]).issues.map(\.message) == messages)
    }
}
