import FormModel
import Foundation
import TestSupport
import Testing

@testable import FormPages

/// An item list in the create view (`../shared/spec/items.md`): its heading with the count, each
/// item a fieldset of cells named by the item's path, Remove and Add as submit buttons.
@Suite("Item lists in the create view")
struct ItemListPageTests {
    static var schema: FormSchema {
        var schema = Fixtures.schema([Field(name: "note", kind: .text, label: "Note")], id: "household")
        let doses = ItemList(
            name: "doses", label: "Vaccinations", object: "Dose",
            groups: [FieldGroup(fields: [Field(name: "given", kind: .date, label: "Given", required: true)])])
        let members = ItemList(
            name: "members", label: "Household members", object: "Member", minCount: 1,
            groups: [
                FieldGroup(fields: [
                    Field(name: "name", kind: .text, label: "Name", required: true),
                    Field(name: "age", kind: .number, label: "Age"),
                ]),
                FieldGroup(items: doses),
            ])
        schema.sections[1].groups.append(FieldGroup(items: members))
        return schema
    }

    @Test("the detail page shows each item a row, a list within an item a table in its cell")
    func detail() async throws {
        let plan = try await Fixtures.renderer().detailPage(for: Self.schema)
        let values: [String: FieldValue] = [
            "members": .items([
                ItemValues(
                    values: [
                        "name": .text("Ada"),
                        "doses": .items([
                            ItemValues(values: ["given": .date(LocalDate("2026-01-02")!)]),
                            ItemValues(values: ["given": .date(LocalDate("2026-03-04")!)]),
                        ]),
                    ]),
                ItemValues(values: ["name": .text("Ben <B>")]),
            ])
        ]
        var state = RenderState(values: [:], csrfToken: "")
        state.showItems(values["members"], of: Self.schema.itemLists[0], in: Self.schema)
        #expect(state.itemCounts == ["members": 2, "members[0].doses": 2, "members[1].doses": 0])
        let html = String(buffer: plan.render(state))
        #expect(html.contains("Household members (2)"))
        #expect(
            html.components(separatedBy: #"<table class="fw-item-table">"#).count == 3, "the members' and Ada's doses'")
        #expect(html.contains(#"<td data-label="Name">Ada</td>"#))
        #expect(html.contains(#"<td data-label="Name">Ben &lt;B&gt;</td>"#))
        #expect(html.contains(#"<th scope="col">Given</th>"#))
        #expect(html.contains(#"<p class="fw-detail__none">No doses</p>"#))
        #expect(!html.contains("2 doses"))
    }

    @Test("an item's long list asks at its own input name, narrowed by its own item's answers")
    func itemLongList() async throws {
        var schema = Fixtures.schema([], id: "travel")
        let bookings = ItemList(
            name: "_Booking", label: "Bookings", object: "Booking",
            groups: [
                FieldGroup(fields: [
                    Field(name: "AirlineID", kind: .valueList, label: "Airline", list: "carriers"),
                    Field(name: "ConnectionID", kind: .valueList, label: "Flight", list: "flights"),
                ])
            ])
        schema.sections[1].groups.append(FieldGroup(items: bookings))
        schema.lists = [
            OptionList(id: "carriers", groups: [], external: true),
            OptionList(id: "flights", groups: [], external: true),
        ]
        schema.markRemoteLists(forFields: ["_Booking[].AirlineID", "_Booking[].ConnectionID"])
        schema.listFilters["_Booking[].ConnectionID"] = ["AirlineID"]
        let view = try await Fixtures.renderer().formView(for: schema, version: 1)
        var state = RenderState(values: ["_Booking[1].AirlineID": ["AA"]], csrfToken: "t")
        state.itemCounts = ["_Booking": 2]
        let html = String(buffer: view.render(state))
        #expect(
            html.contains(
                #"data-name="_Booking[1].ConnectionID" data-options-url="/api/forms/travel/fields/_Booking[1].ConnectionID/options" data-remote"#
            ))
        #expect(html.contains(#"data-filtered-by="_Booking[1].AirlineID""#))
        #expect(html.contains(#"data-filtered-by="_Booking[999999].AirlineID""#), "the new item's template")
        #expect(!html.contains(#"data-filtered-by="AirlineID""#))
        #expect(html.contains(#"name="_search" value="_Booking[0].AirlineID""#))
    }

    @Test("each item shows its values and errors under its cells; Add and Remove name the list and the item")
    func items() async throws {
        let view = try await Fixtures.renderer().formView(for: Self.schema, version: 1)
        let values: [String: FieldValue] = [
            "members": .items([
                ItemValues(id: "m0", values: ["name": .text("Ada <A>"), "doses": .items([ItemValues(values: [:])])]),
                ItemValues(values: ["age": .text("-3")]),
            ])
        ]
        var state = RenderState(
            values: InputStrings.of(values),
            errors: [FieldError(field: "members[1].name", message: "Enter a name")], csrfToken: "t")
        state.itemCounts = ["members": 2, "members[0].doses": 1, "members[1].doses": 0]
        let html = String(buffer: view.render(state))
        #expect(
            html.contains(
                #"<h2 class="fw-items__label" id="items-members-label" tabindex="-1">Household members (2)</h2>"#))
        #expect(html.contains(#"<legend class="fw-item__legend">Member 1</legend>"#))
        #expect(html.contains(#"<legend class="fw-item__legend">Member 2</legend>"#))
        #expect(html.contains(#"name="members[0].name""#))
        #expect(html.contains(#"value="Ada &lt;A&gt;""#))
        #expect(html.contains(#"name="members[1].age""#))
        #expect(html.contains(#"value="-3""#))
        #expect(html.contains(#"id="field-members[1].name-error""#))
        #expect(html.contains(#"Vaccinations (1)"#))
        #expect(html.contains(#"name="members[0].doses[0].given""#))
        #expect(html.contains(#"Vaccinations (0)"#))
        #expect(
            html.contains(
                #"name="_add" value="members" formaction="/forms/household#field-members[2].name" formnovalidate>Add member</button>"#
            ))
        #expect(
            html.contains(
                #"name="_add" value="members[1].doses" formaction="/forms/household#field-members[1].doses[0].given""#))
        #expect(
            html.contains(
                #"name="_remove" value="members[1]" formaction="/forms/household#items-members-label" formnovalidate>Remove member 2</button>"#
            ))
        #expect(
            html.contains(
                #"name="_remove" value="members[0].doses[0]" formaction="/forms/household#items-members[0].doses-label" formnovalidate>Remove dose 1</button>"#
            ))
        // The first item's id goes back with it; the second has none yet, and is counted by its
        // empty one.
        #expect(html.contains(#"<input type="hidden" name="members[0]._id" value="m0">"#))
        #expect(html.contains(#"<input type="hidden" name="members[1]._id" value="">"#))
        // Items come after the form's own groups, in the properties section, and nowhere twice.
        #expect(html.components(separatedBy: #"id="items-members""#).count == 2)
        // The same page from the plan specialised for these values.
        #expect(String(buffer: view.render(state)) == html)
    }
}
