import FormModel
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import TestSupport
import Testing

@testable import FormWeb

/// An object with its items, through the browser's pages without JavaScript: Add and Remove
/// as submit buttons, refusals under the item's cells, the items stored with stable ids.
@Suite("Items through the pages")
struct ItemSubmissionTests {
    static var form: FormSchema { form() }

    /// The household form; `extra` fields added to each member.
    static func form(extra: [Field] = []) -> FormSchema {
        var schema = Fixtures.schema([], id: "household", title: "New Household", object: "Household")
        let members = ItemList(
            name: "members", label: "Household members", object: "Member", minCount: 1, maxCount: 3,
            groups: [
                FieldGroup(
                    fields: [
                        Field(name: "name", kind: .text, label: "Name", required: true),
                        Field(name: "age", kind: .number, label: "Age"),
                    ] + extra)
            ])
        schema.sections.append(FormSection(kind: .properties, groups: [FieldGroup(items: members)]))
        return schema
    }

    static func items(_ browser: TestBrowser, _ location: String) async throws -> [[String: Any]] {
        let api = try await browser.get(
            "/api" + location.replacingOccurrences(of: "/household/", with: "/household/objects/"))
        #expect(api.status == .ok)
        let json = try JSONSerialization.jsonObject(with: Data(api.body.utf8)) as? [String: Any]
        return (json?["values"] as? [String: Any])?["members"] as? [[String: Any]] ?? []
    }

    @Test("Add and Remove show the form again with everything kept; a refusal names the item; the items are stored")
    func journey() async throws {
        try await TestApp.run(forms: [(Self.form, .public)]) { client in
            let browser = TestBrowser(client)
            let fresh = try await browser.get("/forms/household/new")
            #expect(fresh.status == .ok)
            #expect(fresh.body.contains("Household members (1)"))
            #expect(fresh.body.contains(#"name="members[0].name""#))
            let token = try #require(fresh.csrf)
            var sent = [("_csrf", token), ("title", "The Smiths"), ("members[0].name", "Ada")]
            if let once = fresh.body.firstMatch(of: /name="_once" value="([^"]*)"/) {
                sent.append(("_once", String(once.1)))
            }

            let added = try await browser.post("/forms/household", sent + [("_add", "members")])
            #expect(added.status == .ok)
            #expect(added.body.contains("Household members (2)"))
            #expect(added.body.contains(#"name="members[0].name" type="text" data-clear="true" value="Ada">"#))
            #expect(added.body.contains(#"name="members[1].name""#))
            #expect(added.body.contains(#"value="The Smiths""#))

            let removed = try await browser.post(
                "/forms/household", sent + [("members[1].name", "Ben"), ("_remove", "members[0]")])
            #expect(removed.status == .ok)
            #expect(removed.body.contains("Household members (1)"))
            #expect(removed.body.contains(#"name="members[0].name" type="text" data-clear="true" value="Ben">"#))
            #expect(!removed.body.contains("Ada"))

            let refused = try await browser.post(
                "/forms/household",
                sent + [("members[1].name", ""), ("members[1].age", "x")])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.body.contains(##"<a href="#field-members[1].name">Member 2: Enter a name</a>"##))
            #expect(refused.body.contains(#"id="field-members[1].name-error""#))
            #expect(
                refused.body.contains(#"name="members[1].age" type="number" inputmode="decimal" step="any" value="x""#))

            let created = try await browser.post(
                "/forms/household", sent + [("members[0].age", "34"), ("members[3].name", "Ben")])
            #expect(created.status == .seeOther)
            let location = try #require(created.location)
            // The detail page shows the items as a table.
            let detail = try await browser.get(location)
            #expect(detail.body.contains("Household members (2)"))
            #expect(detail.body.contains(#"<th scope="col">Name</th>"#))
            #expect(detail.body.contains(#"<tr><td data-label="Name">Ada</td><td data-label="Age">34</td></tr>"#))
            #expect(detail.body.contains(#"<tr><td data-label="Name">Ben</td><td data-label="Age"></td></tr>"#))
            let stored = try await Self.items(browser, location)
            #expect(stored.map { $0["name"] as? String } == ["Ada", "Ben"])
            #expect((stored.first?["age"] as? NSNumber)?.intValue == 34)
            let ids = stored.compactMap { $0["_id"] as? String }
            #expect(ids.count == 2 && ids.allSatisfy { UUID(uuidString: $0) != nil })

            // The edit view carries the ids back; a kept item keeps its id, a new one gets one.
            let edit = try await browser.get(location + "/edit")
            #expect(edit.status == .ok)
            #expect(edit.body.contains("Household members (2)"))
            #expect(edit.body.contains(#"name="members[0]._id" value="\#(ids[0])""#))
            let saved = try await browser.post(
                location,
                [
                    ("_csrf", try #require(edit.csrf)), ("title", "The Smiths"), ("members[0]._id", ids[0]),
                    ("members[0].name", "Ada"), ("members[1]._id", "6f1d5c4e-9a57-4c27-9e6b-1e2c1d7a0b11"),
                    ("members[1].name", "Cy"),
                ])
            #expect(saved.status == .seeOther)
            let after = try await Self.items(browser, location)
            #expect(after.map { $0["name"] as? String } == ["Ada", "Cy"])
            #expect(after.first?["_id"] as? String == ids[0])
            let newID = after.last?["_id"] as? String
            #expect(newID != nil && newID != "6f1d5c4e-9a57-4c27-9e6b-1e2c1d7a0b11" && newID != ids[1])
        }
    }
}

/// The same through the JSON API: lists of objects in, nested items out, a PATCH replacing a
/// list and keeping the items it names by `_id`.
@Suite("Items through the JSON API")
struct ItemAPITests {
    static func members(_ page: TestBrowser.Page) throws -> [[String: Any]] {
        let json = try JSONSerialization.jsonObject(with: Data(page.body.utf8)) as? [String: Any]
        return (json?["values"] as? [String: Any])?["members"] as? [[String: Any]] ?? []
    }

    @Test("a create sends its items as a list of objects; refusals name the item; a PATCH replaces the list")
    func api() async throws {
        try await TestApp.run(forms: [(ItemSubmissionTests.form, .public)], adminToken: "items-token") { client in
            let browser = TestBrowser(client)
            let admin: HTTPFields = [.contentType: "application/json", .authorization: "Bearer items-token"]
            let refused = try await browser.postJSON(
                "/api/forms/household/objects",
                #"{"title": "Smiths", "members": [{"name": "Ada", "age": 34}, {"age": "old", "extra": {"a": 1}}]}"#)
            #expect(refused.status == .unprocessableContent)
            #expect(refused.body.contains(#""field":"members[1].extra""#))
            let refusedAgain = try await browser.postJSON(
                "/api/forms/household/objects", #"{"title": "Smiths", "members": [{"name": "Ada"}, {"age": "old"}]}"#)
            #expect(refusedAgain.status == .unprocessableContent)
            #expect(refusedAgain.body.contains(#""field":"members[1].name""#))
            #expect(refusedAgain.body.contains(#""field":"members[1].age""#))
            let none = try await browser.postJSON("/api/forms/household/objects", #"{"title": "Smiths"}"#)
            #expect(none.body.contains(#""field":"members","message":"Add at least 1 member""#))

            let created = try await browser.postJSON(
                "/api/forms/household/objects",
                #"{"title": "Smiths", "members": [{"name": "Ada", "age": 34}, {"name": "Ben", "_id": "not-ours"}]}"#)
            #expect(created.status == .created)
            let items = try Self.members(created)
            #expect(items.map { $0["name"] as? String } == ["Ada", "Ben"])
            let ids = items.compactMap { $0["_id"] as? String }
            #expect(ids.count == 2 && !ids.contains("not-ours"))
            let location = try #require(created.location)

            // Ada kept by her id, Ben left out, Cy new; the title untouched.
            let patched = try await browser.send(
                location, method: .patch, headers: admin,
                body: ByteBuffer(
                    string: #"{"members": [{"_id": "\#(ids[0])", "name": "Ada", "age": 35}, {"name": "Cy"}]}"#))
            #expect(patched.status == .ok)
            let after = try Self.members(patched)
            #expect(after.map { $0["name"] as? String } == ["Ada", "Cy"])
            #expect(after.first?["_id"] as? String == ids[0])
            #expect((after.first?["age"] as? NSNumber)?.intValue == 35)
            #expect(patched.body.contains(#""title":"Smiths""#))
            // A PATCH without the list keeps it.
            let kept = try await browser.send(
                location, method: .patch, headers: admin,
                body: ByteBuffer(string: #"{"title": "The Smiths"}"#))
            #expect(try Self.members(kept).map { $0["_id"] as? String } == after.map { $0["_id"] as? String })

            // The CSV: a ZIP of the objects' file and the members' file, linked by ids (ODK Central's shape).
            let response = try await client.execute(
                uri: "/api/forms/household/export.csv?header=names", method: .get,
                headers: [.authorization: "Bearer items-token"])
            #expect(response.status == .ok && response.headers[.contentType] == "application/zip")
            #expect(response.headers[.contentDisposition]?.contains("household-objects-csv.zip") == true)
            let read = try await ZipCheck.read(Array(buffer: response.body))
            let export = (body: String(decoding: Array(buffer: response.body), as: UTF8.self), ())
            #expect(read.entries.map(\.name) == ["household.csv", "household-members.csv"])
            let objectID = try #require(location.split(separator: "/").last.map(String.init))
            #expect(export.body.contains("id,title,members,version"), "\(export.body.prefix(400))")
            #expect(export.body.contains("\(objectID),The Smiths,2,"))
            #expect(export.body.contains("object_id,_id,position,name,age"))
            #expect(export.body.contains("\(objectID),\(ids[0]),1,Ada,35"))
            #expect(export.body.contains(",2,Cy,"))
        }
    }

    @Test("an item's fields the JSON leaves out take their defaults; null sends none")
    func itemDefaults() async throws {
        let form = ItemSubmissionTests.form(
            extra: [Field(name: "status", kind: .text, label: "Status", defaultValue: "home")])
        try await TestApp.run(forms: [(form, .public)]) { client in
            let created = try await TestBrowser(client).postJSON(
                "/api/forms/household/objects",
                #"{"title": "Smiths", "members": [{"name": "Ada"}, {"name": "Ben", "status": null}, {"name": "Cy", "status": "away"}]}"#
            )
            #expect(created.status == .created)
            #expect(try Self.members(created).map { $0["status"] as? String } == ["home", nil, "away"])
        }
    }
}
