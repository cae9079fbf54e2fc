import Foundation
import Testing

@testable import FormModel

/// The JSON Schema of a form's values, pinned on the demo form (every kind of field) and a few
/// small forms for what the demo does not have.
@Suite("Form JSON Schema")
struct FormJSONSchemaTests {
    static let answer = FormJSONSchema.values(of: DemoForm.schema, use: .answer)
    static let create = FormJSONSchema.values(of: DemoForm.schema, use: .create)
    static let edit = FormJSONSchema.values(of: DemoForm.schema, use: .edit)

    static func property(_ schema: JSONValue, _ name: String) throws -> JSONValue {
        try #require(schema["properties"]?[name])
    }

    @Test("each kind has its JSON type: text, numbers, booleans, arrays, and formats or patterns for dates and times")
    func types() throws {
        let answer = Self.answer
        #expect(try Self.property(answer, "title")["type"] == "string")
        #expect(try Self.property(answer, "progress")["type"] == "integer")
        #expect(try Self.property(answer, "cost")["type"] == "number")
        #expect(try Self.property(answer, "remind")["type"] == "boolean")
        #expect(try Self.property(answer, "categories")["type"] == "array")
        #expect(try Self.property(answer, "assignees")["type"] == "array")
        #expect(try Self.property(answer, "due")["format"] == "date")
        #expect(try Self.property(answer, "start")["pattern"] == .string(FieldJSONSchema.Patterns.time))
        #expect(try Self.property(answer, "reminder")["pattern"] == .string(FieldJSONSchema.Patterns.datetime))
        #expect(try Self.property(answer, "estimate")["pattern"] == .string(FieldJSONSchema.Patterns.duration))
        #expect(try Self.property(answer, "email")["format"] == "email")
        #expect(try Self.property(answer, "attachments")["items"]?["required"] == ["id", "name", "size"])
    }

    @Test("the patterns match what the server writes and refuse what it refuses")
    func patterns() throws {
        func matches(_ pattern: String, _ text: String) throws -> Bool {
            let regex = try NSRegularExpression(pattern: pattern)
            return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        }
        let p = FieldJSONSchema.Patterns.self
        for text in ["14:30", "09:05:59", "23:59"] { #expect(try matches(p.time, LocalTime(text)!.description)) }
        for text in ["24:00", "14:3", "2:30", "14:30Z"] { #expect(try !matches(p.time, text), "\(text)") }
        #expect(try matches(p.datetime, LocalDateTime("2026-11-21T14:30")!.description))
        #expect(try !matches(p.datetime, "2026-11-21 14:30"))
        for text in ["PT1H30M", "P2DT4H", "P1W2D", "PT0S", "PT1.5S", "P1Y2M"] {
            #expect(try matches(p.duration, ISODuration(text)!.description), "\(text)")
        }
        for text in ["P", "PT", "P1H", "PT1.5H", "1H"] { #expect(try !matches(p.duration, text), "\(text)") }
        #expect(try matches(p.telephone, "+44 808 157 0192") && !matches(p.telephone, "1234"))
    }

    @Test("bounds: lengths in requests, minimum, maximum and multipleOf where exact, items, the stored run of a format")
    func bounds() throws {
        let create = Self.create
        #expect(try Self.property(create, "title")["maxLength"] == 120)
        // Answers count code points, which may be more than the characters the server counts.
        #expect(try Self.property(Self.answer, "title")["maxLength"] == nil)
        let progress = try Self.property(create, "progress")
        #expect(progress["minimum"] == 0 && progress["maximum"] == 100 && progress["multipleOf"] == 5)
        let cost = try Self.property(create, "cost")
        #expect(cost["minimum"] == 0 && cost["multipleOf"] == .number("0.01"))
        #expect(try Self.property(create, "weight")["multipleOf"] == .number("0.1"))
        #expect(try Self.property(create, "categories")["maxItems"] == 3)
        #expect(try Self.property(create, "categories")["uniqueItems"] == true)
        #expect(try Self.property(Self.answer, "attachments")["maxItems"] == 5)
        // Typed grouped or not; stored as the bare digits.
        guard case .string(let typed)? = try Self.property(create, "phone")["pattern"] else {
            Issue.record("no pattern for a create's phone")
            return
        }
        let regex = try NSRegularExpression(pattern: typed)
        for (text, taken) in [
            ("(555) 123-4567", true), ("5551234567", true), ("555.123.4567 ", true), ("555-123-456", false),
        ] {
            let found = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
            #expect(found == taken, "\(text)")
            // As the server takes it.
            #expect((GroupedFormat("(###) ###-####").normalise(text) != nil) == taken, "\(text)")
        }
        #expect(try Self.property(Self.answer, "phone")["pattern"] == "^[0-9]{10}$")
        #expect(try Self.property(create, "asset")["pattern"] == "^(?:[A-Z]{2}-[0-9]{4})$")
        #expect(try Self.property(create, "estimate")["description"] == "Hours and minutes From PT15M to P30D.")

        // A step counted from a minimum that is no multiple of it says nothing JSON Schema can.
        let odd = Field(
            name: "odd", kind: .number, constraints: Constraints(min: "1", step: "2"))
        let schema = try #require(FieldJSONSchema.schema(for: odd, in: DemoForm.schema, use: .answer))
        #expect(schema["multipleOf"] == nil && schema["minimum"] == 1 && schema["type"] == "number")
    }

    @Test("choice fields list their options where the form holds them; uploaded and service lists stay open")
    func enums() throws {
        #expect(try Self.property(Self.create, "priority")["enum"] == ["low", "medium", "high", .null])
        #expect(try Self.property(Self.answer, "priority")["enum"] == ["low", "medium", "high"])
        let projects = try #require(DemoForm.schema.field(named: "project")).list.flatMap(DemoForm.schema.list(id:))
        #expect(try Self.property(Self.create, "project")["enum"] == .strings(projects?.options.map(\.value) ?? []))
        #expect(try Self.property(Self.create, "categories")["items"]?["enum"]?.arrayCount == 6)
        // A list's options can be replaced while objects keep their values: answers do not pin them.
        #expect(try Self.property(Self.answer, "project")["enum"] == nil)

        var form = DemoForm.schema
        let index = try #require(form.lists.firstIndex { $0.id == "projects" })
        form.lists[index].external = true
        let external = FormJSONSchema.values(of: form, use: .create)
        #expect(try Self.property(external, "project")["enum"] == nil)
        form.lists[index].groups = []
        let open = try Self.property(FormJSONSchema.values(of: form, use: .create), "project")
        #expect(open["type"] == "string" && open["enum"] == nil)
    }

    @Test("a create requires the required fields without a default; read-only fields are marked, files only answered")
    func requiredAndReadOnly() throws {
        #expect(Self.create["required"] == ["title", "project"])
        #expect(Self.answer["required"] == nil)
        #expect(Self.create["additionalProperties"] == false)
        #expect(try Self.property(Self.create, "task")["readOnly"] == true)
        #expect(try Self.property(Self.answer, "task")["readOnly"] == true)
        #expect(try Self.property(Self.create, "title")["readOnly"] == nil)
        #expect(Self.create["properties"]?["attachments"] == nil)
        #expect(try Self.property(Self.answer, "attachments")["readOnly"] == true)
        // null sends no value: only for fields that may be empty.
        #expect(try Self.property(Self.create, "title")["type"] == "string")
        #expect(try Self.property(Self.create, "notes")["type"] == ["string", "null"])
        #expect(try Self.property(Self.create, "priority")["default"] == "medium")
        #expect(try Self.property(Self.create, "due")["default"] == nil)

        // create-only: the create's to give, read-only in an edit.
        let code = Field(name: "code", kind: .text, required: true, editable: .createOnly)
        var form = DemoForm.schema
        form.sections[0].groups[0].fields.append(code)
        #expect(try Self.property(FormJSONSchema.values(of: form, use: .create), "code")["readOnly"] == nil)
        #expect(try Self.property(FormJSONSchema.values(of: form, use: .edit), "code")["readOnly"] == true)
        #expect(FormJSONSchema.values(of: form, use: .create)["required"] == ["title", "code", "project"])
    }
}

extension JSONValue {
    var arrayCount: Int? {
        guard case .array(let values) = self else { return nil }
        return values.count
    }
}

@Suite("Form JSON Schema of item lists")
struct ItemListJSONSchemaTests {
    @Test("an item list is an array of its items' objects: bounds and required fields in a create, ids in an answer")
    func itemLists() throws {
        let schema = ItemListTests.household
        let create = FormJSONSchema.values(of: schema, use: .create)
        let members = try FormJSONSchemaTests.property(create, "members")
        #expect(members["type"] == "array")
        #expect(members["minItems"] == .int(1) && members["maxItems"] == .int(3))
        #expect(members["items"]?["required"] == .strings(["name", "age"]))
        #expect(members["items"]?["additionalProperties"] == false)
        #expect(members["items"]?["properties"]?["age"]?["type"] == "number")
        #expect(members["items"]?["properties"]?["weeks"] != nil)
        #expect(members["items"]?["properties"]?["_id"]?["format"] == "uuid")
        let doses = try #require(members["items"]?["properties"]?["doses"])
        #expect(doses["maxItems"] == .int(2) && doses["minItems"] == nil)
        #expect(create["required"]?.array?.contains("members") == true)
        let answer = try FormJSONSchemaTests.property(FormJSONSchema.values(of: schema, use: .answer), "members")
        #expect(answer["items"]?["required"] == .strings(["_id"]))
        #expect(answer["minItems"] == nil && answer["maxItems"] == nil)
    }
}
