import Foundation
import Testing

@testable import FormModel

/// Item lists in the schema (`../shared/spec/items.md`): their JSON, their rules and how a
/// submission's items are judged.
@Suite("Item lists")
struct ItemListTests {
    typealias S = SchemaSamples

    /// Household members, each with a name, an age and a switch, and their vaccinations within.
    static var members: ItemList {
        ItemList(
            name: "members", label: "Household members", object: "Member", minCount: 1, maxCount: 3,
            groups: [
                FieldGroup(fields: [
                    Field(name: "name", kind: .text, label: "Name", required: true),
                    Field(
                        name: "age", kind: .number, label: "Age", required: true,
                        constraints: Constraints(min: "0", max: "130")),
                    Field(
                        name: "pregnant", kind: .switch, label: "Pregnant",
                        children: [Field(name: "weeks", kind: .number, label: "Weeks", required: true)]),
                ]),
                FieldGroup(
                    items: ItemList(
                        name: "doses", label: "Vaccinations", object: "Dose", maxCount: 2,
                        groups: [
                            FieldGroup(fields: [Field(name: "given", kind: .date, label: "Given", required: true)])
                        ]
                    )),
            ])
    }

    /// The sound sample form with the members list after its groups.
    static var household: FormSchema {
        var schema = S.sound
        schema.sections[1].groups.append(FieldGroup(items: members))
        return schema
    }

    static func item(_ fields: [String: String], items: [String: [Submission]] = [:]) -> Submission {
        Submission(fields: fields.mapValues { [$0] }, items: items)
    }

    static func valid(_ submission: Submission) -> Submission {
        var submission = submission
        for (name, values) in [("title", ["A household"]), ("project", ["ios"])] {
            submission.fields[name] = values
        }
        return submission
    }

    @Test("a schema with item lists round-trips through its canonical JSON; a group without is written as before")
    func canonicalJSON() throws {
        let schema = Self.household
        let json = try schema.canonicalJSON()
        #expect(try FormSchema.fromCanonicalJSON(json).canonicalJSON() == json)
        #expect(try FormSchema.fromCanonicalJSON(json).itemLists == schema.itemLists)
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.contains(#""items":{"groups":[{"fields":["#))
        #expect(text.contains(#""maxCount":3,"minCount":1,"name":"members","object":"Member""#))
        #expect(!text.contains("startCount") && !text.contains("addRemove"))
        var fixed = schema
        fixed.sections[1].groups[fixed.sections[1].groups.count - 1].items?.startCount = 2
        fixed.sections[1].groups[fixed.sections[1].groups.count - 1].items?.addRemove = false
        let fixedJSON = try fixed.canonicalJSON()
        #expect(String(decoding: fixedJSON, as: UTF8.self).contains(#""addRemove":false"#))
        #expect(try FormSchema.fromCanonicalJSON(fixedJSON).itemLists == fixed.itemLists)
        let plain = String(decoding: try S.sound.canonicalJSON(), as: UTF8.self)
        #expect(!plain.contains("items"))
        #expect(schema.itemLists.map(\.name) == ["members"])
        #expect(schema.itemList(named: "members")?.lists.map(\.name) == ["doses"])
        // An item's fields are its own: not the form's.
        #expect(schema.field(named: "age") == nil)
        #expect(Self.members.depth == 2)
        #expect(schema.itemNames(of: "members[1].age") == "Member 2")
        #expect(schema.itemNames(of: "members[0].doses[2].given") == "Member 1, Dose 3")
        #expect(schema.itemNames(of: "members[0].doses") == "Member 1")
        #expect(schema.itemNames(of: "members") == nil)
        #expect(schema.itemNames(of: "title") == nil)
        #expect(schema.itemNames(of: "others[0].x") == nil)
    }

    @Test("a sound item list breaks no rule; its item's names are its own")
    func soundRules() {
        #expect(Self.household.ruleViolations() == [])
        var schema = Self.household
        // A form field named as an item's field does not clash.
        schema.sections[1].groups[0].fields.append(Field(name: "name", kind: .text, label: "Household name"))
        #expect(schema.ruleViolations() == [])
    }

    @Test(
        "item lists stand in properties, count 0 to 500 items, nest 3 levels, hold fields (attachments too) without prefill"
    )
    func brokenRules() {
        func codes(_ change: (inout ItemList) -> Void) -> [String] {
            var list = Self.members
            change(&list)
            var schema = S.sound
            schema.sections[1].groups.append(FieldGroup(items: list))
            return S.codes(schema)
        }
        #expect(codes { $0.maxCount = 501 } == ["bad-item-count"])
        #expect(codes { $0.minCount = 4 } == ["bad-item-count"])
        #expect(codes { $0.minCount = -1 } == ["bad-item-count"])
        #expect(codes { $0.name = "house members" } == ["bad-name"])
        #expect(codes { $0.name = "title" } == ["duplicate-name"])
        #expect(codes { $0.label = " " } == ["empty-title"])
        #expect(codes { $0.groups = [] } == ["empty-items"])
        #expect(codes { $0.groups[0].fields.append(Field(name: "age", kind: .text)) } == ["duplicate-name"])
        #expect(codes { $0.groups[0].fields[0].prefill = .query } == ["prefill-in-items"])
        #expect(codes { $0.groups[0].fields.append(Field(name: "photo", kind: .attachments)) } == [])
        #expect(codes { $0.groups[0].fields[1].constraints.min = "old" } == ["bad-number"])
        // Four levels: members, doses, and two more.
        let deepest = ItemList(name: "d", label: "D", groups: [FieldGroup(fields: [Field(name: "x", kind: .text)])])
        let third = ItemList(
            name: "c", label: "C",
            groups: [FieldGroup(fields: [Field(name: "x", kind: .text)]), FieldGroup(items: deepest)])
        #expect(codes { $0.groups[1].items?.groups.append(FieldGroup(items: third)) } == ["items-too-deep"])
        #expect(
            codes {
                $0.groups[1].items?.groups.append(
                    FieldGroup(
                        items: ItemList(
                            name: "c", label: "C", groups: [FieldGroup(fields: [Field(name: "x", kind: .text)])])))
            } == [])
        var inKey = S.sound
        inKey.sections[0].groups.append(FieldGroup(items: Self.members))
        #expect(S.codes(inKey) == ["items-not-allowed"])
    }

    @Test("every item is judged as a form's fields are; issues name the item's path, in form order")
    func judged() throws {
        let adult = Self.item(["name": "Ada", "age": "34", "_id": "6F1D5C4E-9A57-4C27-9E6B-1E2C1D7A0B11"])
        let child = Self.item(
            ["name": "", "age": "-3", "pregnant": "on"], items: ["doses": [Self.item(["given": "2026-02-30"])]])
        let result = FormValidator.validate(
            Self.household, Self.valid(Submission(items: ["members": [adult, child]])))
        #expect(
            result.issues.map(\.description) == [
                "members[1].name: Enter a name [required]",
                "members[1].age: Age must be 0 or more [min]",
                "members[1].weeks: Enter weeks [required]",
                "members[1].doses[0].given: Given must be a real date [invalid]",
            ])
        guard case .items(let items) = result.values["members"] else {
            Issue.record("no items in \(result.values)")
            return
        }
        #expect(items.count == 2)
        #expect(items[0].id == "6f1d5c4e-9a57-4c27-9e6b-1e2c1d7a0b11")
        #expect(
            items[0].values == [
                "name": .text("Ada"), "age": .number(34), "pregnant": .bool(false), "doses": .items([]),
            ])
        #expect(items[1].id == nil)
        #expect(items[1].values["pregnant"] == .bool(true))
    }

    @Test("a list's count outside min-count and max-count is one message on the list")
    func counts() {
        let empty = FormValidator.validate(Self.household, Self.valid(Submission()))
        #expect(empty.issues.map(\.description) == ["members: Add at least 1 member [min-count]"])
        #expect(empty.values["members"] == .items([]))
        let member = Self.item(["name": "Ada", "age": "34"])
        let many = FormValidator.validate(
            Self.household, Self.valid(Submission(items: ["members": Array(repeating: member, count: 4)])))
        #expect(many.issues.map(\.description) == ["members: Remove members: at most 3 [max-count]"])
        let doses = Array(repeating: Self.item(["given": "2026-01-01"]), count: 3)
        let nested = FormValidator.validate(
            Self.household,
            Self.valid(
                Submission(items: ["members": [Self.item(["name": "Ada", "age": "34"], items: ["doses": doses])]])))
        #expect(nested.issues.map(\.description) == ["members[0].doses: Remove doses: at most 2 [max-count]"])
        #expect(FormValidator.validate(Self.household, Self.valid(Submission(items: ["members": [member]]))).isValid)
    }

    @Test("past the limits of an object nothing of a list is judged, and the message says what to do")
    func limits() {
        var wide = Self.members
        wide.maxCount = ItemList.maxItems
        wide.groups[1].items?.maxCount = ItemList.maxItems
        var schema = S.sound
        schema.sections[1].groups.append(FieldGroup(items: wide))
        let dose = Self.item(["given": "2026-01-01"])
        let member = Self.item(["name": "Ada", "age": "34"], items: ["doses": Array(repeating: dose, count: 500)])
        // 4 members with 500 doses each: 2,004 items.
        let result = FormValidator.validate(
            schema, Self.valid(Submission(items: ["members": Array(repeating: member, count: 4)])))
        #expect(
            result.issues.map(\.description) == [
                "members[3].doses: Remove doses: an object holds at most 2000 items in all [too-many]"
            ])
        #expect(Self.members.noun == "member" && Self.members.pluralNoun == "members")
        #expect(ItemList(name: "u", label: "URLs", object: "URL", groups: []).noun == "URL")
    }

    @Test("a page's item inputs become items, in the order of their indices, numbered again; other names stay")
    func gathered() {
        let file = SubmittedFile(id: "f1", name: "card.png", size: 3, contentType: "image/png")
        let sent = Submission(
            fields: [
                "title": ["A household"], "members[5].name": ["Ben"], "members[2].name": ["Ada"],
                "members[2].age": ["34"], "members[2].doses[7].given": ["2026-01-02"],
                "members[2].doses[3].given": ["2026-01-01"], "members[5].stay.hours": ["2"],
                "others[0].name": ["kept as is"], "members[x].name": ["not an item"], "members[1]": ["no name"],
                "[0].name": ["no list"], "members[1234567].name": ["index too long"],
            ],
            files: ["members[5].card": [file], "photo": [file]])
        let gathered = sent.gatheringItems(of: [Self.members])
        #expect(
            gathered.fields == [
                "title": ["A household"], "others[0].name": ["kept as is"], "members[x].name": ["not an item"],
                "members[1]": ["no name"], "[0].name": ["no list"], "members[1234567].name": ["index too long"],
            ])
        #expect(gathered.files == ["photo": [file]])
        let members = gathered.items["members"] ?? []
        #expect(members.count == 2)
        #expect(members.first?.fields == ["name": ["Ada"], "age": ["34"]])
        #expect(members.first?.items["doses"]?.map(\.fields) == [["given": ["2026-01-01"]], ["given": ["2026-01-02"]]])
        #expect(members.last?.fields == ["name": ["Ben"], "stay.hours": ["2"]])
        #expect(members.last?.files == ["card": [file]])
        // A form without item lists leaves the submission whole.
        #expect(sent.gatheringItems(of: []) == sent)
    }

    @Test("the values a page shows read back as the same items; stored items keep their ids, new ones get one")
    func roundTripAndIDs() throws {
        let member = Self.item(
            ["name": "Ada", "age": "34", "pregnant": "on", "weeks": "12"],
            items: ["doses": [Self.item(["given": "2026-01-01"])]])
        let first = FormValidator.validate(Self.household, Self.valid(Submission(items: ["members": [member]])))
        #expect(first.isValid)
        var made = 0
        let stored = FieldValue.assigningItemIDs(first.values) {
            made += 1
            return "id-\(made)"
        }
        #expect(made == 2)
        #expect(FieldValue.itemIDs(stored) == ["id-1", "id-2"])
        // Shown again as inputs, sent back, judged: the same values, ids and all.
        let sent = Submission(fields: InputStrings.of(stored)).gatheringItems(of: Self.household.itemLists)
        var again = FormValidator.validate(Self.household, sent)
        #expect(again.isValid)
        // Ids the server did not make are not kept: the ids above are no UUIDs, so they come back nil.
        #expect(FieldValue.itemIDs(again.values).isEmpty)
        let uuid = "6f1d5c4e-9a57-4c27-9e6b-1e2c1d7a0b11"
        guard case .items(var items) = again.values["members"] else { throw ItemsMissing() }
        items[0].id = uuid
        again.values["members"] = .items(items)
        let kept = FieldValue.assigningItemIDs(again.values, known: [uuid]) { "new" }
        #expect(FieldValue.itemIDs(kept) == [uuid, "new"])
        let unknown = FieldValue.assigningItemIDs(again.values, known: []) { "new" }
        #expect(FieldValue.itemIDs(unknown) == ["new"])
        // Plain JSON (the API's) reads back as items.
        let json = try JSONEncoder().encode(kept["members"])
        let decoded = try JSONDecoder().decode(FieldValue.self, from: json)
        #expect(decoded.conformed(to: Self.members) == kept["members"])
        #expect(FieldValue.conformed(["members": decoded], to: Self.household) == ["members": kept["members"]!])
        var written = ""
        kept["members"]?.writeJSON(into: &written)
        let sorted = JSONEncoder()
        sorted.outputFormatting = [.sortedKeys]
        #expect(
            written.replacingOccurrences(of: "\\/", with: "/")
                == String(decoding: try sorted.encode(kept["members"]), as: UTF8.self).replacingOccurrences(
                    of: "\\/", with: "/"))
    }

    struct ItemsMissing: Error {}

    @Test("in an edit, an item sent back with its id keeps its stored values of fields read-only there")
    func readOnlyInEdits() {
        var list = Self.members
        list.groups[0].fields.append(Field(name: "code", kind: .text, label: "Code", editable: .createOnly))
        var schema = S.sound
        schema.sections[1].groups.append(FieldGroup(items: list))
        let id = "6f1d5c4e-9a57-4c27-9e6b-1e2c1d7a0b11"
        let stored: [String: FieldValue] = [
            "members": .items([
                ItemValues(id: id, values: ["name": .text("Ada"), "age": .number(34), "code": .text("A-1")])
            ])
        ]
        var context = ValidationContext(mode: .edit)
        context.serverItems = FieldValue.storedItemInputs(stored)
        #expect(context.serverItems == [id: ["name": ["Ada"], "age": ["34"], "code": ["A-1"]]])
        let sent = Submission(items: [
            "members": [
                Self.item(["_id": id, "name": "Ada", "age": "35", "code": "CHANGED"]),
                Self.item(["name": "Ben", "age": "3", "code": "NEW"]),
            ]
        ])
        let result = FormValidator.validate(schema, Self.valid(sent), context: context)
        guard case .items(let items) = result.values["members"] else {
            Issue.record("no items")
            return
        }
        #expect(items[0].values["code"] == .text("A-1"))
        #expect(items[0].values["age"] == .number(35))
        // A new item has nothing stored: a field it may not set has no value.
        #expect(items[1].values["code"] == nil)
    }

    @Test("a new item starts with its fields' defaults, today read from the clock; a form reads the clock for them")
    func newItemDefaults() throws {
        var list = Self.members
        list.groups[0].fields.append(Field(name: "seen", kind: .date, label: "Seen", defaultValue: "today"))
        list.groups[0].fields.append(Field(name: "status", kind: .text, label: "Status", defaultValue: "home"))
        let clock = ClockReading(today: try #require(LocalDate(year: 2026, month: 11, day: 29)))
        let start = Submission.starting([list], clock: clock)
        #expect(start.items["members"]?.count == 1)
        #expect(start.items["members"]?.first?.fields == ["seen": ["2026-11-29"], "status": ["home"]])
        #expect(start.items["members"]?.first?.items["doses"] == [])
        #expect(start.pageInputs == ["members[0].seen": ["2026-11-29"], "members[0].status": ["home"]])
        var sent = start
        let added = sent.addItem(at: "members", lists: [list], clock: clock)
        #expect(added)
        #expect(sent.items["members"]?.last?.fields["status"] == ["home"])
        let addedWithin = sent.addItem(at: "members[1].doses", lists: [list], clock: clock)
        #expect(addedWithin)
        #expect(sent.itemCounts(of: [list]) == ["members": 2, "members[0].doses": 0, "members[1].doses": 1])
        let addedNowhere = sent.addItem(at: "members[5].doses", lists: [list], clock: clock)
        #expect(!addedNowhere)
        let removed = sent.removeItem(at: "members[0]", lists: [list])
        #expect(removed)
        #expect(sent.itemCounts(of: [list]) == ["members": 1, "members[0].doses": 1])
        let removedNothing = sent.removeItem(at: "members[3]", lists: [list])
        #expect(!removedNothing)
        // A list whose count the form gives takes no Add or Remove.
        var fixed = list
        fixed.addRemove = false
        let addedToFixed = sent.addItem(at: "members", lists: [fixed], clock: clock)
        let removedFromFixed = sent.removeItem(at: "members[0]", lists: [fixed])
        #expect(!addedToFixed && !removedFromFixed)
        fixed.startCount = 3
        #expect(Submission.starting([fixed]).items["members"]?.count == 3)
        var schema = S.sound
        schema.sections[1].groups.append(FieldGroup(items: list))
        #expect(PreparedForm(schema: schema, version: 1, mode: .create).startsWithClock)
    }
}
