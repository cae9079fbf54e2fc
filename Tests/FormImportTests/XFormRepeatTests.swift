import Foundation
import Testing

@testable import FormImport
@testable import FormModel
@testable import FormRules

/// XForms repeats as item lists (`../shared/spec/items.md`): imported with their counts, judged
/// per item with the item as context, as ODK Collect judges the same answers.
@Suite("XForm repeats")
struct XFormRepeatTests {
    /// 2024-05-15 12:00 UTC.
    static let now = Date(timeIntervalSince1970: 1_715_774_400)

    static func judge(
        _ name: String, _ submitted: [String: String], counts: [String: Int]
    ) throws -> XFormJudge.Verdict {
        let (_, _, rules) = try XFormFixtures.importing(name)
        let judge = try XFormJudge(rules: rules)
        return judge.judge(
            submitted, counts: counts,
            host: XFormHost(rules: rules, now: now, timeZone: TimeZone(identifier: "UTC")!))
    }

    @Test("each item is judged with itself as context: relative and absolute paths, position(..), current()")
    func perItem() throws {
        let verdict = try Self.judge(
            "repeat-position",
            [
                "village": "Kibera",
                "members[0].member_name": "Ann", "members[0].member_age": "34", "members[0].pregnant": "no",
                "members[1].member_name": "", "members[1].member_age": "130",
                "members[2].member_name": "Joe", "members[2].member_age": "8", "members[2].pregnant": "yes",
            ], counts: ["members": 3])
        #expect(
            verdict.issues == [
                .init(field: "members[1].member_name", code: "required", message: "Enter Name"),
                .init(field: "members[1].member_age", code: "constraint", message: "Enter an age under 120"),
            ])
        // `position(..)` per item; the relevance reads the item's own age, written absolute and relative.
        #expect(verdict.values["members[0].number"] == nil)  // no field: hidden values are not fields
        #expect(verdict.relevant.contains("members[0].pregnant"))
        #expect(!verdict.relevant.contains("members[1].pregnant"))
        #expect(!verdict.relevant.contains("members[2].pregnant"))
        #expect(verdict.values["members[2].pregnant"] == nil)
        #expect(verdict.relevant.contains("members"))
        let xml = verdict.instanceXML
        #expect(xml.contains("<member_count>3</member_count>"))
        #expect(xml.contains("<total_age>172</total_age>"))
        #expect(xml.contains("<second_name/>") || xml.contains("<second_name></second_name>"))
        #expect(xml.contains("<number>1</number>") && xml.contains("<number>3</number>"))
        #expect(xml.contains("<member_name>Joe</member_name><member_age>8</member_age><number>3</number>"))
        #expect(xml.contains("<older_than_first>no</older_than_first>"))
        #expect(!xml.contains("template"))
        #expect(xml.components(separatedBy: "<members>").count == 4)
    }

    @Test("a list with no items leaves no node in the instance; the count reads 0")
    func noItems() throws {
        let verdict = try Self.judge("repeat-position", ["village": "Kibera"], counts: [:])
        #expect(verdict.issues.isEmpty)
        #expect(!verdict.instanceXML.contains("<members"))
        #expect(verdict.instanceXML.contains("<member_count>0</member_count>"))
    }

    @Test("jr:count gives the number of items from the answers; jr:noAddRemove and jr:count take no Add or Remove")
    func counts() throws {
        let (result, form, rules) = try XFormFixtures.importing("repeat-count")
        let rounds = try #require(form.itemList(named: "round"))
        #expect(!rounds.addRemove && rounds.startCount == nil && rounds.label == "Rounds")
        let fixed = try #require(form.itemList(named: "fixed"))
        #expect(!fixed.addRemove && fixed.startCount == 2 && fixed.label == "Notes")
        #expect(rules.node(at: "/data/round")?.repeat?.count?.compiled == "/data/rounds_planned")
        #expect(result.warnings.isEmpty, "\(result.warnings)")
        let verdict = try Self.judge(
            "repeat-count",
            ["child": "Ann", "rounds_planned": "3", "round[0].round_date": "2024-05-01", "round[0].dose": "0.5"],
            counts: ["round": 1, "fixed": 2])
        #expect(verdict.itemCounts == ["round": 3])
        #expect(verdict.issues.map(\.field) == ["round[1].round_date", "round[2].round_date"])
        let fewer = try Self.judge(
            "repeat-count", ["child": "Ann", "rounds_planned": "", "round[0].round_date": "2024-05-01"],
            counts: ["round": 2])
        #expect(fewer.itemCounts == ["round": 0] && fewer.issues.isEmpty)
    }

    @Test("nested repeats: lists within items, the outer repeat's relevance over all of it, rules per inner item")
    func nested() throws {
        let (_, form, _) = try XFormFixtures.importing("repeat-nested")
        let kids = try #require(form.itemList(named: "kid"))
        #expect(kids.fields.map(\.name) == ["name", "doses_planned"])
        #expect(kids.lists.map(\.name) == ["dose"])
        #expect(kids.lists.first?.label == "Doses")
        // The form's `name` and an item's `name` do not meet.
        #expect(form.allFields.map(\.name).contains("name"))
        let answers = [
            "has_kids": "yes",
            "kid[0].name": "Tom", "kid[0].dose[0].vaccine": "Polio", "kid[0].dose[0].given": "2030-01-01",
            "kid[0].dose[1].vaccine": "",
            "kid[1].name": "Dick",
        ]
        let verdict = try Self.judge(
            "repeat-nested", answers, counts: ["kid": 2, "kid[0].dose": 2, "kid[1].dose": 0])
        // In the order of the rules (the page puts them in form order).
        #expect(
            Set(verdict.issues) == [
                .init(
                    field: "kid[0].dose[0].given", code: "constraint",
                    message: "Enter a date that is not in the future"),
                .init(field: "kid[0].dose[1].vaccine", code: "required", message: "Enter Vaccine"),
            ])
        #expect(verdict.relevant.isSuperset(of: ["kid", "kid[0].dose", "kid[1].dose", "kid[1].name"]))
        let xml = verdict.instanceXML
        #expect(xml.contains("<kid><name>Tom</name><doses_planned/><dose><vaccine>Polio</vaccine>"))
        #expect(xml.contains("<kid><name>Dick</name><doses_planned/></kid>"))
        var none = answers
        none["has_kids"] = "no"
        let noKids = try Self.judge("repeat-nested", none, counts: ["kid": 2, "kid[0].dose": 2])
        #expect(noKids.issues.isEmpty)
        #expect(!noKids.relevant.contains("kid") && !noKids.relevant.contains("kid[0].name"))
        #expect(!noKids.instanceXML.contains("<kid"))
    }
}

@Test("a repeat's items beside its template start a new form with the values the instance writes in them")
func prefilledItems() throws {
    let source = """
        <h:html xmlns="http://www.w3.org/2002/xforms" xmlns:h="http://www.w3.org/1999/xhtml"
                xmlns:jr="http://openrosa.org/javarosa">
          <h:head><h:title>Household</h:title>
            <model>
              <instance><data id="household"><village/>
                <members jr:template=""><member_name/><member_age>18</member_age></members>
                <members><member_name>Ann</member_name><member_age>34</member_age></members>
                <members><member_name>Joe</member_name><member_age/></members>
              </data></instance>
              <bind nodeset="/data/village" type="string"/>
              <bind nodeset="/data/members/member_name" type="string"/>
              <bind nodeset="/data/members/member_age" type="int"/>
            </model>
          </h:head>
          <h:body>
            <input ref="/data/village"><label>Village</label></input>
            <repeat nodeset="/data/members"><label>Members</label>
              <input ref="/data/members/member_name"><label>Name</label></input>
              <input ref="/data/members/member_age"><label>Age</label></input>
            </repeat>
          </h:body>
        </h:html>
        """
    let result = try FormImporter.importDocuments([ImportDocument(name: "household.xml", data: Array(source.utf8))])
    let form = try #require(result.forms.first)
    let list = try #require(form.itemLists.first)
    #expect(list.startCount == 2)
    #expect(list.startItems == [["member_name": "Ann", "member_age": "34"], ["member_name": "Joe"]])
    let start = Submission.starting(form.itemLists)
    let items = try #require(start.items["members"])
    #expect(items.map { $0.fields["member_name"] } == [["Ann"], ["Joe"]])
    // An item without its own value takes the template's, as a new item does.
    #expect(items.map { $0.fields["member_age"] } == [["34"], ["18"]])
    // Kept in the canonical JSON.
    let again = try FormSchema.fromCanonicalJSON(try form.canonicalJSON())
    #expect(again.itemLists.first?.startItems == list.startItems)
}

@Test("a repeat's upload is an attachments field of its items, up to one per item of the list")
func uploadsInItems() throws {
    let source = """
        <h:html xmlns="http://www.w3.org/2002/xforms" xmlns:h="http://www.w3.org/1999/xhtml"
                xmlns:jr="http://openrosa.org/javarosa">
          <h:head><h:title>Household photos</h:title>
            <model>
              <instance><data id="photos"><village/>
                <member jr:template=""><name/><photo/></member>
              </data></instance>
              <bind nodeset="/data/village" type="string"/>
              <bind nodeset="/data/member/name" type="string" required="true()"/>
              <bind nodeset="/data/member/photo" type="binary"/>
            </model>
          </h:head>
          <h:body>
            <input ref="/data/village"><label>Village</label></input>
            <group ref="/data/member"><label>Members</label>
              <repeat nodeset="/data/member">
                <input ref="/data/member/name"><label>Name</label></input>
                <upload ref="/data/member/photo" mediatype="image/*"><label>Photo</label></upload>
              </repeat>
            </group>
          </h:body>
        </h:html>
        """
    let result = try FormImporter.importDocuments([ImportDocument(name: "photos.xml", data: Array(source.utf8))])
    #expect(result.warnings.isEmpty, "\(result.warnings)")
    let form = try #require(result.forms.first)
    let photo = try #require(form.itemLists.first?.fields.first { $0.name == "photo" })
    #expect(photo.kind == .attachments)
    #expect(form.contains(kind: .attachments))
    #expect(form.attachmentsFields.map { "\($0.field.name) ×\($0.times)" } == ["photo ×\(ItemList.maxItems)"])
}
