import FormModel
import Foundation
import HummingbirdTesting
import TestSupport
import Testing

@testable import FormPages
@testable import FormStore
@testable import FormWeb

/// An object keeps a choice that its field no longer offers (the list's options were uploaded
/// again without it): the edit view shows it, chosen and marked, and saving keeps it.
@Suite("Choices no longer offered")
struct NoLongerOfferedTests {
    static var form: FormSchema {
        let colours = OptionList(
            id: "colours",
            groups: [
                OptionGroup(options: [Option(value: "red", label: "Red"), Option(value: "green", label: "Green")])
            ])
        var schema = Fixtures.schema(
            [
                Field(name: "colour", kind: .valueList, label: "Colour", list: "colours"),
                Field(
                    name: "sizes", kind: .chips, label: "Sizes",
                    constraints: Constraints(multiple: true),
                    options: [OptionGroup(options: [Option(value: "s", label: "S"), Option(value: "m", label: "M")])]),
            ],
            id: "paint", title: "New Paint", object: "Paint", lists: [colours])
        schema.sections[0].groups[0].fields[0].required = true
        return schema
    }

    @Test("the schema names the stored choices its fields no longer offer; an open list misses none")
    func missing() {
        let schema = Self.form
        #expect(
            OfferedChoices(schema).missing(in: ["colour": ["red"], "sizes": ["s", "xl"], "title": ["x"]]) == [
                "sizes": ["xl"]
            ])
        #expect(OfferedChoices(schema).missing(in: ["colour": ["blue"]]) == ["colour": ["blue"]])
        var open = schema
        open.lists[0].groups = []
        #expect(OfferedChoices(open).missing(in: ["colour": ["blue"]]).isEmpty)
    }

    @Test(
        "an edit shows a value the list no longer offers, chosen and marked, and saving keeps it; choosing another drops it"
    )
    func editKeepsIt() async throws {
        try await TestApp.run(forms: [(Self.form, .public)]) { client in
            let admin = try await AdminFixtures.admin(client)
            let view = try await admin.get("/forms/paint/new")
            let created = try await admin.post(
                "/forms/paint",
                [("_csrf", view.csrf ?? ""), ("title", "Door"), ("colour", "red"), ("sizes", "s")])
            let location = try #require(created.location)
            let page = try await admin.get("/admin/forms/paint")
            let uploaded = try await admin.postMultipart(
                "/admin/forms/paint/lists/colours",
                [
                    .field("_csrf", page.csrf ?? ""),
                    .file(
                        "csv", filename: "colours.csv", type: "text/csv", bytes: Array("blue,Blue\ngreen,Green\n".utf8)),
                ])
            #expect(uploaded.status == .seeOther)
            // The schema the API gives is the one the server now checks against.
            let schema = try await admin.get("/api/forms/paint")
            #expect(schema.body.contains(#""value":"blue""#) && !schema.body.contains(#""value":"red""#))

            let edit = try await admin.get("\(location)/edit")
            #expect(
                edit.body.contains(
                    "<option value=\"\">Select</option>\n<option value=\"red\" selected>red (no longer offered)</option>"
                ))
            #expect(!edit.body.contains("sizes-kept"), "a value still offered is not doubled")
            // The create view offers only the current options, and refuses the old one.
            let create = try await admin.get("/forms/paint/new")
            #expect(!create.body.contains("no longer offered"))
            let refused = try await admin.post(
                "/forms/paint", [("_csrf", create.csrf ?? ""), ("title", "Window"), ("colour", "red")])
            #expect(refused.status == .unprocessableContent)

            // Saved with the old value: kept. A refused save shows it again, still chosen.
            let refusedEdit = try await admin.post(
                location, [("_csrf", edit.csrf ?? ""), ("title", ""), ("colour", "red"), ("sizes", "s")])
            #expect(refusedEdit.status == .unprocessableContent)
            #expect(refusedEdit.body.contains(#"<option value="red" selected>red (no longer offered)</option>"#))
            let saved = try await admin.post(
                location, [("_csrf", edit.csrf ?? ""), ("title", "Front door"), ("colour", "red"), ("sizes", "s")])
            #expect(saved.status == .seeOther)
            let detail = try await admin.get(location)
            #expect(detail.body.contains("Front door") && detail.body.contains("red"))

            // Another choice replaces it; the edit view then offers only the list's options.
            let changed = try await admin.post(
                location, [("_csrf", edit.csrf ?? ""), ("title", "Front door"), ("colour", "blue")])
            #expect(changed.status == .seeOther)
            let again = try await admin.get("\(location)/edit")
            #expect(!again.body.contains("no longer offered"))
            #expect(again.body.contains(#"<option value="blue" selected>Blue</option>"#))
            // And the old value is an option no more.
            let back = try await admin.post(
                location, [("_csrf", again.csrf ?? ""), ("title", "Front door"), ("colour", "red")])
            #expect(back.status == .unprocessableContent)
        }
    }

    @Test("beside chips, buttons and checkboxes a value no longer offered is a checkbox or radio of the same name")
    func otherControls() async throws {
        let fields = [
            Field(
                name: "sizes", kind: .chips, label: "Sizes", constraints: Constraints(multiple: true),
                options: [OptionGroup(options: [Option(value: "s", label: "S")])]),
            Field(
                name: "level", kind: .buttons, label: "Level",
                options: [OptionGroup(options: [Option(value: "low", label: "Low")])]),
            Field(
                name: "tags", kind: .valueList, label: "Tags", constraints: Constraints(multiple: true),
                options: [OptionGroup(options: [Option(value: "a", label: "A")])]),
        ]
        let view = try await Fixtures.renderer().formView(for: Fixtures.schema(fields), version: 1, mode: .edit)
        var state = RenderState(
            values: ["sizes": ["s", "xl"], "level": ["<mid>"], "tags": []], csrfToken: "TOKEN")
        state.noLongerOffered = ["sizes": ["xl"], "level": ["<mid>"], "tags": ["b"]]
        let html = String(buffer: view.render(state))
        #expect(
            html.contains(
                #"<input class="fw-checkbox__input" type="checkbox" id="field-sizes-kept-1" name="sizes" value="xl" checked><label class="fw-checkbox__label" for="field-sizes-kept-1">xl (no longer offered)</label>"#
            ))
        #expect(
            html.contains(
                #"<input class="fw-checkbox__input" type="radio" id="field-level-kept-1" name="level" value="&lt;mid&gt;" checked><label class="fw-checkbox__label" for="field-level-kept-1">&lt;mid&gt; (no longer offered)</label>"#
            ))
        // Not chosen any more (unticked in a refused save): shown, unticked, so it can be ticked again.
        #expect(
            html.contains(
                #"<input class="fw-checkbox__input" type="checkbox" id="field-tags-kept-1" name="tags" value="b"><label"#
            ))
        // The create view has no such slot.
        let create = try await Fixtures.render(Fixtures.schema(fields))
        #expect(!create.contains("kept-"))
    }
}
