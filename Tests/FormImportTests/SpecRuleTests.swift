import Foundation
import Testing

@testable import FormImport
@testable import FormModel

/// One fixture per rule of the native spec (XSD and `ruleViolations()`): each must be refused with the rule's code at the right line.
@Suite("Spec rules")
struct SpecRuleTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var fixture: String
        var code: ImportCode
        var line: Int
        var testDescription: String { "\(fixture) -> \(code) at line \(line)" }
    }

    static let cases: [Case] = [
        Case(fixture: "unknown-element", code: "unknown-element", line: 7),
        Case(fixture: "unknown-attribute", code: "unknown-attribute", line: 7),
        Case(fixture: "missing-name", code: "missing-attribute", line: 7),
        Case(fixture: "bad-name", code: "bad-name", line: 7),
        Case(fixture: "duplicate-name", code: "duplicate-name", line: 8),
        Case(fixture: "bad-id", code: "bad-id", line: 2),
        Case(fixture: "missing-title", code: "missing-attribute", line: 2),
        Case(fixture: "wrong-namespace", code: "wrong-namespace", line: 2),
        Case(fixture: "malformed", code: "malformed-xml", line: 5),
        Case(fixture: "empty-key", code: "empty-key", line: 3),
        Case(fixture: "no-required-field", code: "no-required-field", line: 2),
        Case(fixture: "too-many-buttons", code: "too-many-buttons", line: 7),
        Case(fixture: "too-many-chips", code: "too-many-chips", line: 7),
        Case(fixture: "unknown-list", code: "unknown-list", line: 7),
        Case(fixture: "min-above-max-number", code: "min-above-max", line: 7),
        Case(fixture: "min-above-max-date", code: "min-above-max", line: 7),
        Case(fixture: "min-above-max-duration", code: "min-above-max", line: 7),
        Case(fixture: "min-above-max-length", code: "min-above-max", line: 7),
        Case(fixture: "min-above-max-selected", code: "min-above-max", line: 7),
        Case(fixture: "bad-enum", code: "bad-value", line: 7),
        Case(fixture: "slider-without-max", code: "slider-range", line: 7),
        Case(fixture: "option-group-in-buttons", code: "group-not-allowed", line: 8),
        Case(fixture: "bad-max-size", code: "bad-size", line: 7),
        Case(fixture: "bad-accept", code: "bad-accept", line: 7),
        Case(fixture: "bad-pattern", code: "bad-pattern", line: 7),
        Case(fixture: "pattern-backtracks", code: "pattern-backtracks", line: 7),
        Case(fixture: "bad-integer", code: "bad-integer", line: 7),
        Case(fixture: "huge-integer", code: "bad-integer", line: 7),
        Case(fixture: "sections-out-of-order", code: "section-order", line: 6),
        Case(fixture: "switch-in-switch", code: "nested-switch", line: 8),
        // The attribute's own line, not the tag's first (libxml2 gives only that).
        Case(fixture: "multi-line-tag", code: "unknown-attribute", line: 9),
        Case(fixture: "default-refused-url", code: "default-refused", line: 7),
        Case(fixture: "default-refused-pattern", code: "default-refused", line: 7),
        Case(fixture: "default-refused-step", code: "default-refused", line: 7),
        Case(fixture: "default-refused-selected", code: "default-refused", line: 7),
        Case(fixture: "items-bad-count", code: "bad-item-count", line: 7),
        Case(fixture: "items-prefill", code: "prefill-in-items", line: 8),
        Case(fixture: "items-too-deep", code: "items-too-deep", line: 13),
        Case(fixture: "items-in-accessory", code: "items-not-allowed", line: 10),
        Case(fixture: "items-without-label", code: "missing-attribute", line: 7),
    ]

    @Test("an item list imports in its place among the groups, with its groups, lists and counts")
    func itemsAccepted() throws {
        let result = try FormImporter.importDocuments([Fixtures.document("items-accepted")])
        let schema = try #require(result.forms.first)
        let properties = try #require(schema.section(.properties))
        #expect(properties.groups.map { $0.items?.name ?? $0.label ?? "-" } == ["Home", "members", "-"])
        let members = try #require(schema.itemList(named: "members"))
        #expect(members.object == "Member" && members.minCount == 1 && members.maxCount == 20)
        #expect(members.groups.map { $0.items?.name ?? $0.label ?? "-" } == ["-", "Health", "doses"])
        #expect(members.fields.map(\.name) == ["name", "age"])
        #expect(members.lists.first?.object == "Dose" && members.lists.first?.maxCount == 100)
        #expect(members.location?.line == 10)
        // The form's own "name" and the item's do not clash.
        #expect(schema.field(named: "name")?.label == "Household name")
    }

    @Test("a default the field's own rule refuses is refused at import, saying what the field would say")
    func defaultRefused() throws {
        let error = try #require(try Fixtures.errors("default-refused-url").first)
        #expect(
            error.message
                == "The default \"javascript:alert(1)\" of \"site\" is refused by the field's own rules (Enter a web address in the correct format, like https://www.example.com); give it a default the field accepts."
        )
        // Placed as every schema rule's issue is: the field's line (column as for duplicate-name).
        #expect(error.line == 7)
        #expect(error.column == (try Fixtures.errors("duplicate-name").first?.column))
        let step = try #require(try Fixtures.errors("default-refused-step").first)
        #expect(step.message.contains("(Progress must be a multiple of 5"))
    }

    @Test("a pattern that can backtrack catastrophically is refused at import, saying which part and what to do")
    func patternBacktracks() throws {
        let error = try #require(try Fixtures.errors("pattern-backtracks").first)
        #expect(error.code == "pattern-backtracks")
        #expect(error.line == 7 && error.column > 0)
        #expect(error.message.contains("repeats ([A-Z]+)*"))
        #expect(error.message.contains("Make the inner quantifier possessive"))
    }

    @Test("a too long or out of range default is reported once, by its own rule")
    func defaultOutOfRange() throws {
        let errors = try Fixtures.errors("default-out-of-range-length")
        #expect(errors.map(\.code) == ["default-out-of-range", "default-out-of-range"])
        #expect(errors.map(\.line) == [7, 8])
    }

    @Test("defaults the fields accept import, today and booleans included")
    func defaultsAccepted() throws {
        let result = try FormImporter.importDocuments([Fixtures.document("default-accepted")])
        #expect(result.forms.first?.field(named: "asset")?.defaultValue == "AB-1234")
    }

    @Test("each broken rule is refused with its code, its line and the file name", arguments: cases)
    func refused(_ c: Case) throws {
        let errors = try Fixtures.errors(c.fixture)
        #expect(errors.map(\.code) == [c.code])
        #expect(errors.first?.line == c.line)
        #expect(errors.allSatisfy { $0.file == "\(c.fixture).xml" })
    }

    @Test("malformed XML names the line and column")
    func malformed() throws {
        let error = try #require(try Fixtures.errors("malformed").first)
        #expect(error.line == 5)
        #expect(error.column > 1)
        #expect(
            error.message
                == "Malformed XML: Opening and ending tag mismatch: text line 4 and key. Fix the XML and import again.")
    }

    @Test(
        "error messages say what is wrong and what to do",
        arguments: [
            ("unknown-element", "Unknown element <textarea>; remove it or use an element the form spec defines."),
            (
                "unknown-attribute",
                "Unknown attribute colour on <text>; remove it or use an attribute the form spec lists for <text>."
            ),
            ("missing-name", "<text> needs the attribute name; add name=\"...\"."),
            ("missing-title", "<form> needs the attribute title; add title=\"...\"."),
            ("bad-enum", "editable on <text> must be true, false or create-only, not \"maybe\"."),
            (
                "bad-id",
                "The form id \"New Issue\" must be lowercase letters, digits and hyphens, starting with a letter or digit."
            ),
            (
                "wrong-namespace",
                "<form> is in the namespace urn:fieldwork:form:2; a form spec must use xmlns=\"urn:fieldwork:form:1\"."
            ),
            ("duplicate-name", "The field name \"nick\" is used twice; field names must be unique in a form."),
            (
                "too-many-buttons",
                "\"size\" has 4 buttons; segmented buttons take at most 3 options (use chips or a value list)."
            ),
            (
                "bad-max-size",
                "max-size of \"files\" must be a number of bytes, or of KB or MB, like 10MB (got \"ten megabytes\")."
            ),
            ("bad-integer", "max-length on <text> must be a whole number of 0 or more, not \"lots\"."),
            (
                "sections-out-of-order",
                "The <key> section is out of place: sections go key, properties, accessory, lists, each at most once."
            ),
            ("option-group-in-buttons", "Option groups are for value lists only; remove the <group> from <buttons>."),
        ])
    func messages(_ fixture: String, _ message: String) throws {
        #expect(try Fixtures.errors(fixture).map(\.message) == [message])
    }

    @Test("the description reads file:line:column: error: message [code]")
    func description() throws {
        let error = try #require(try Fixtures.errors("unknown-list").first)
        #expect(
            error.description
                == "unknown-list.xml:7:5: error: The list \"people\" named by \"owner\" does not exist; declare it under <lists>. [unknown-list]"
        )
    }

    @Test("every schema error is reported at once, in document order")
    func severalErrors() throws {
        let errors = try Fixtures.errors("several-errors")
        #expect(errors.map(\.code) == ["unknown-attribute", "bad-integer", "unknown-element"])
        #expect(errors.map(\.line) == [4, 7, 8])
    }

    @Test("option labels are trimmed")
    func trimmedLabels() throws {
        let (schema, _) = try NativeSpecImporter.importSpec(Fixtures.bytes("option-text"), file: "option-text.xml")
        #expect(schema.field(named: "size")?.options?.first?.options.map(\.label) == ["Small", "Large"])
    }

    @Test("likely mistakes import with warnings that name the line")
    func warnings() throws {
        let result = try FormImporter.importDocuments([Fixtures.document("unused-list-and-unfillable")])
        #expect(result.warnings.map(\.code) == ["unfillable-field", "unused-list"])
        #expect(result.warnings.map(\.line) == [7, 10])
        #expect(result.warnings.allSatisfy { $0.file == "unused-list-and-unfillable.xml" })
    }

    @Test("a required read-only field filled only from the link warns that a link without it cannot be sent")
    func prefillOnly() throws {
        let xml = """
            <form xmlns="urn:fieldwork:form:1" id="sample" title="Sample">
              <key><text name="title" required="true"/></key>
              <properties><text name="task" required="true" editable="false" prefill="query"/></properties>
            </form>
            """
        let result = try FormImporter.importDocuments([ImportDocument(name: "s.xml", data: Array(xml.utf8))])
        #expect(result.warnings.map(\.code) == ["unfillable-field"])
        #expect(result.warnings.first?.message.contains("filled only from the link (?task=…)") == true)
        #expect(result.warnings.first.map { [$0.line, $0.column] } == [3, 15])
    }
}
