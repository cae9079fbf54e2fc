import Foundation
import Testing

@testable import FormImport
@testable import FormModel

@Suite("Demo spec import")
struct DemoImportTests {
    private func demo() throws -> (FormSchema, ImportResult) {
        let result = try FormImporter.importDocuments([
            ImportDocument(name: "new-issue.xml", data: Fixtures.demoBytes())
        ])
        #expect(result.kind == .native)
        #expect(result.forms.count == 1)
        return (try #require(result.forms.first), result)
    }

    @Test("the demo spec imports without errors or warnings")
    func importsCleanly() throws {
        let (schema, result) = try demo()
        #expect(result.warnings == [])
        #expect(result.sources.map(\.name) == ["new-issue.xml"])
        #expect(schema.id == "new-issue")
        #expect(schema.title == "New Issue")
        #expect(schema.object == "Issue")
        #expect(schema.submit == "Create")
        #expect(schema.regular == .formSheet)
        #expect(schema.sections.map(\.kind) == [.key, .properties, .accessory])
    }

    @Test("sections and groups keep the spec's structure")
    func structure() throws {
        let (schema, _) = try demo()
        let key = try #require(schema.section(.key))
        #expect(key.groups.map(\.label) == [nil])
        #expect(key.groups[0].fields.map(\.name) == ["title"])
        let properties = try #require(schema.section(.properties))
        #expect(properties.groups.map(\.label) == ["Classification", "Schedule", "Details"])
        #expect(properties.groups[1].fields.map(\.kind) == [.date, .time, .duration, .slider])
        let accessory = try #require(schema.section(.accessory))
        #expect(accessory.groups.count == 1)
        #expect(accessory.groups[0].fields.map(\.name) == ["remind", "notes", "attachments"])
        #expect(schema.allFields.count == 19)
    }

    @Test("fields carry their attributes, constraints and lines")
    func fields() throws {
        let (schema, _) = try demo()
        let title = try #require(schema.field(named: "title"))
        #expect(title.kind == .text)
        #expect(title.placeholder == "Title")
        #expect(title.label == nil)
        #expect(title.required)
        #expect(title.constraints.maxLength == 120)
        #expect(title.location == FormModel.SourceLocation(line: 6, column: 5))

        let task = try #require(schema.field(named: "task"))
        #expect(task.prefill == .query)
        #expect(task.editable == .no)
        #expect(task.hint == "Filled in from the task you started from")
        // The start tag spans lines 11-12: the field is where the tag begins.
        #expect(task.location?.line == 11)

        let estimate = try #require(schema.field(named: "estimate"))
        #expect(estimate.kind == .duration)
        #expect(estimate.constraints.min == "PT15M")
        #expect(estimate.constraints.max == "P30D")

        let progress = try #require(schema.field(named: "progress"))
        #expect(progress.constraints.step == "5")
        #expect(progress.defaultValue == "0")

        let phone = try #require(schema.field(named: "phone"))
        #expect(phone.constraints.textType == .tel)
        #expect(phone.constraints.format == "(###) ###-####")

        let cost = try #require(schema.field(named: "cost"))
        #expect(cost.kind == .number)
        #expect(cost.presentation.prefix == "USD")
        #expect(cost.constraints.scale == 2)
        #expect(cost.constraints.step == "0.01")
        #expect(try #require(schema.field(named: "weight")).presentation.suffix == "kg")
        #expect(try #require(schema.field(named: "asset")).constraints.pattern == "[A-Z]{2}-[0-9]{4}")

        let notes = try #require(schema.field(named: "notes"))
        #expect(notes.presentation.rows == 4)
        #expect(notes.constraints.maxLength == 2000)

        let files = try #require(schema.field(named: "attachments"))
        #expect(files.constraints.maxCount == 5)
        #expect(files.constraints.maxSize == 10_485_760)
        #expect(files.constraints.accept == ["image/png", "image/jpeg", "application/pdf", "text/csv"])
    }

    @Test("choice fields keep their options and lists")
    func options() throws {
        let (schema, _) = try demo()
        let priority = try #require(schema.field(named: "priority"))
        #expect(priority.kind == .buttons)
        #expect(priority.defaultValue == "medium")
        #expect(
            priority.options == [
                OptionGroup(options: [
                    Option(value: "low", label: "Low"), Option(value: "medium", label: "Medium"),
                    Option(value: "high", label: "High"),
                ])
            ])

        let categories = try #require(schema.field(named: "categories"))
        #expect(categories.constraints.multiple)
        #expect(categories.constraints.maxSelected == 3)
        #expect(schema.options(for: categories).count == 6)

        let project = try #require(schema.field(named: "project"))
        #expect(project.list == "projects")
        #expect(project.presentation.searchable)
        #expect(project.options == nil)
        let projects = try #require(schema.list(id: "projects"))
        #expect(projects.options.count == 13)
        #expect(projects.groups.map(\.label) == ["Mobile", "Web", "Platform"])
        #expect(projects.location?.line == 54)

        let people = try #require(schema.list(id: "people"))
        #expect(people.groups.count == 1)
        #expect(people.groups[0].label == nil)
        #expect(people.options.map(\.label).contains("Inês Ferreira"))
        #expect(try #require(schema.field(named: "assignees")).takesSeveralValues)
    }

    @Test("a switch holds its child fields")
    func switchChildren() throws {
        let (schema, _) = try demo()
        let remind = try #require(schema.field(named: "remind"))
        #expect(remind.kind == .switch)
        let reminder = try #require(remind.children?.first)
        #expect(remind.children?.count == 1)
        #expect(reminder.kind == .datetime)
        #expect(reminder.required)
        #expect(reminder.defaultValue == "now")
        #expect(!schema.topLevelFields.contains { $0.name == "reminder" })
    }

    @Test("the imported demo survives canonical JSON")
    func canonicalJSON() throws {
        let (schema, _) = try demo()
        let json = try schema.canonicalJSON()
        let again = try FormSchema.fromCanonicalJSON(json)
        #expect(try again.canonicalJSON() == json)
        #expect(again.allFields.map(\.name) == schema.allFields.map(\.name))
    }

    @Test("a byte order mark does not matter")
    func byteOrderMark() throws {
        let (schema, _) = try NativeSpecImporter.importSpec([0xEF, 0xBB, 0xBF] + Fixtures.demoBytes(), file: "bom.xml")
        #expect(schema.id == "new-issue")
        #expect(schema.field(named: "title")?.location?.line == 6)
    }
}

@Suite("Attribute mapping")
struct AttributeMappingTests {
    private func schema() throws -> FormSchema {
        let (schema, warnings) = try NativeSpecImporter.importSpec(
            Fixtures.bytes("every-attribute"), file: "every-attribute.xml")
        #expect(warnings == [])
        return schema
    }

    @Test("form attributes map to the schema")
    func form() throws {
        let schema = try schema()
        #expect(schema.object == "Thing")
        #expect(schema.submit == "Save thing")
        #expect(schema.regular == .popover)
    }

    @Test("text and number attributes map to constraints and presentation")
    func textAndNumber() throws {
        let schema = try schema()
        let code = try #require(schema.field(named: "code"))
        #expect(code.constraints.textType == .url)
        #expect(code.constraints.minLength == 3)
        #expect(code.constraints.maxLength == 40)
        #expect(code.editable == .createOnly)
        #expect(code.defaultValue == "https://example.com")
        #expect(code.presentation.prefix == "#")
        #expect(code.presentation.suffix == "!")
        #expect(code.location == FormModel.SourceLocation(line: 6, column: 5))

        let amount = try #require(schema.field(named: "amount"))
        #expect(amount.constraints.min == "-5")
        #expect(amount.constraints.max == "5.5")
        #expect(amount.constraints.step == "0.5")
        #expect(amount.constraints.scale == 1)
        #expect(amount.label == nil)
        #expect(amount.displayName == "Amount")
    }

    @Test("ungrouped fields around a group become groups without a label")
    func groups() throws {
        let properties = try #require(try schema().section(.properties))
        #expect(properties.groups.map(\.label) == [nil, "Choices", nil])
        #expect(properties.groups.map { $0.fields.map(\.name) } == [["amount"], ["colour", "size"], ["start"]])
    }

    @Test("inline options keep their groups; ungrouped options form an unlabelled group")
    func inlineOptions() throws {
        let colour = try #require(try schema().field(named: "colour"))
        #expect(colour.options?.map(\.label) == [nil, "Cool"])
        #expect(colour.options?.map { $0.options.map(\.value) } == [["red"], ["blue", "green"]])
        #expect(colour.constraints.multiple)
        #expect(colour.constraints.minSelected == 1)
        #expect(colour.constraints.maxSelected == 2)
        #expect(colour.defaultValues == ["red", "blue"])
        #expect(colour.presentation.searchable == false)
        let size = try #require(try schema().field(named: "size"))
        #expect(size.constraints.minSelected == 1)
    }

    @Test("attachment limits parse; accept splits on any whitespace")
    func attachments() throws {
        let files = try #require(try schema().field(named: "files"))
        #expect(files.constraints.minCount == 1)
        #expect(files.constraints.maxCount == 3)
        #expect(files.constraints.maxSize == 524_288)
        #expect(files.constraints.accept == ["image/*", "application/pdf"])
    }

    @Test("a switch without children has none")
    func emptySwitch() throws {
        let more = try #require(try schema().field(named: "more"))
        #expect(more.children == nil)
        #expect(more.defaultValue == "false")
    }
}

@Suite("Concurrent import")
struct ConcurrentImportTests {
    @Test("imports running in parallel share the compiled XSD safely")
    func parallel() async throws {
        let demo = try Fixtures.demoBytes()
        let broken = try Fixtures.bytes("unknown-attribute")
        let outcomes = await withTaskGroup(of: [String].self) { group in
            for i in 0..<32 {
                group.addTask {
                    do throws(ImportFailure) {
                        return try NativeSpecImporter.importSpec(i.isMultiple(of: 2) ? demo : broken, file: "\(i).xml")
                            .0.allFields.map(\.name)
                    } catch {
                        return error.errors.map(\.code.rawValue)
                    }
                }
            }
            var all: [[String]] = []
            for await outcome in group { all.append(outcome) }
            return all
        }
        #expect(outcomes.filter { $0 == ["unknown-attribute"] }.count == 16)
        #expect(outcomes.filter { $0.count == 19 }.count == 16)
    }
}
