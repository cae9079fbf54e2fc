import Foundation
import Testing

@testable import FormImport
@testable import FormModel

@Suite("XForms: the rules kept with the form")
struct XFormRulesTests {
    @Test("every node of the primary instance, in document order, with its path, field, type and bind")
    func nodes() throws {
        let (_, _, rules) = try XFormFixtures.importing("relevant-group")
        #expect(
            rules.nodes.map(\.path) == [
                "/visit", "/visit/consent", "/visit/head", "/visit/head/name", "/visit/head/age",
                "/visit/head/details", "/visit/head/details/phone", "/visit/spouse", "/visit/spouse/name",
                "/visit/age_next_year",
            ])
        #expect(rules.nodes.map(\.isGroup) == [true, false, true, false, false, true, false, true, false, false])
        #expect(rules.nodes.map(\.type) == [nil, "string", nil, "string", "int", nil, "string", nil, "string", "int"])
        let age = try #require(rules.node(at: "/visit/head/age")?.bind)
        var constraint = XFormExpression(
            source: ". < 120", element: "bind", attribute: "constraint", line: 26, column: 50)
        constraint.compiled = ". < 120"
        constraint.reads = ["/visit/head/age"]
        #expect(age.constraint == constraint)
        #expect(age.constraintMessage == .literal("Too old"))
        #expect(age.line == 26)
        // A relative path is kept as written; the integrator resolves it against the node.
        #expect(rules.node(at: "/visit/head/details/phone")?.bind?.relevant?.source == "../../age > 17")
        let calculated = try #require(rules.node(at: "/visit/age_next_year"))
        #expect(calculated.field == nil && calculated.bind?.calculate?.source == "/visit/head/age + 1")
        #expect(rules.node(at: "/visit/consent")?.bind?.requiredMessage == .literal("Say whether they agree"))
        #expect(XFormBind.isTrue(rules.node(at: "/visit/consent")?.bind?.required))
        #expect(rules.instanceID == "household_visit" && rules.version == "2024-05-01")
    }

    @Test("the primary instance is kept as XML in no namespace, with its defaults; orx elements keep theirs")
    func primaryInstance() throws {
        let (_, _, group) = try XFormFixtures.importing("relevant-group")
        #expect(
            group.primaryInstance
                == #"<visit id="household_visit" version="2024-05-01"><consent>no</consent><head><name/><age/><details><phone/></details></head><spouse><name/></spouse><age_next_year/></visit>"#
        )
        let (_, _, controls) = try XFormFixtures.importing("controls")
        #expect(
            controls.primaryInstance.hasPrefix(
                #"<data id="Controls Test" o:version="7" xmlns:o="http://openrosa.org/xforms/"><name/>"#))
        #expect(controls.primaryInstance.hasSuffix("<o:meta><o:instanceID/></o:meta></data>"))
        #expect(controls.node(at: "/data/o:meta/o:instanceID")?.preload == XFormPreload(preload: "uid"))
        #expect(
            controls.node(at: "/data/start")?.preload == XFormPreload(preload: "timestamp", params: "start"))
    }

    @Test("first-load setvalues are kept as the target's default")
    func firstLoad() throws {
        let (_, _, rules) = try XFormFixtures.importing("controls")
        #expect(rules.firstLoad.count == 1)
        #expect(rules.firstLoad.first?.target == "/data/weight")
        #expect(rules.firstLoad.first?.value?.source == "70")
        #expect(rules.firstLoad.first?.value?.element == "setvalue")
    }

    @Test("itemsets become value lists with every option of their instance; the filter stays in the rules")
    func itemsets() throws {
        let (result, form, rules) = try XFormFixtures.importing("itemset-filter")
        let country = try #require(form.field(named: "country"))
        #expect(country.kind == .valueList && country.list == "country")
        #expect(
            form.options(for: country) == [Option(value: "ke", label: "Kenya"), Option(value: "ug", label: "Uganda")])
        let city = try #require(form.field(named: "city"))
        #expect(city.presentation.searchable && city.required)
        // Every item of the instance, the filter left out, a value offered twice once.
        #expect(form.options(for: city).map(\.label) == ["Nairobi", "Mombasa & coast", "Kampala"])
        #expect(form.list(id: "city")?.external == false)
        let itemset = try #require(rules.node(at: "/data/city")?.itemset)
        #expect(itemset.nodeset.source == "instance('cities')/root/item[country = /data/country]")
        #expect(itemset.instance == "cities" && itemset.value == "name" && itemset.label == "label")
        #expect(rules.node(at: "/data/country")?.itemset?.labelItext == "itextId")
        #expect(rules.node(at: "/data/country")?.itemset?.label == nil)
        #expect(
            rules.secondaryInstances["cities"]?.xml?.hasPrefix(
                "<root><item><name>nbo</name><label>Nairobi</label><country>ke</country></item>") == true)
        #expect(rules.secondaryInstances["cities"]?.xml?.contains("Mombasa &amp; coast") == true)
        #expect(result.warnings.isEmpty)
    }

    @Test("an external instance is never fetched: a warning, and a value list waiting for its options")
    func externalInstance() throws {
        let (result, form, rules) = try XFormFixtures.importing("external-instance")
        #expect(rules.secondaryInstances["cities"] == XFormInstance(src: "jr://file/cities.xml", line: 11))
        let city = try #require(form.field(named: "city"))
        #expect(city.kind == .valueList && form.options(for: city).isEmpty)
        #expect(form.list(id: "city")?.external == true)
        #expect(
            result.warnings(.externalInstance) == [
                "The instance 'cities' is loaded from jr://file/cities.xml, which is never fetched: the options it gives stay empty until an admin uploads the file for this form."
            ])
    }

    @Test("a repeat is an item list: its group's label, its questions an item's fields, its node marked")
    func repeats() throws {
        let (result, form, rules) = try XFormFixtures.importing("repeat")
        #expect(form.allFields.map(\.name) == ["village"])
        let members = try #require(form.itemList(named: "members"))
        #expect(members.label == "Household members" && members.addRemove && members.startCount == 0)
        #expect(members.fields.map(\.name) == ["member_name", "member_age"])
        #expect(members.fields.first?.required == true && members.fields.last?.kind == .number)
        #expect(result.warnings(.repeatUnsupported).isEmpty)
        #expect(rules.node(at: "/data/members")?.repeat == XFormRepeat(list: "members"))
        #expect(rules.node(at: "/data/members/member_name")?.field == "member_name")
        #expect(rules.node(forField: "member_name") == nil)
        #expect(rules.fieldNames == ["/data/village": "village"])
        #expect(rules.node(at: "/data/total")?.leftOut == nil)
    }

    @Test("the rules survive JSON as they were")
    func codable() throws {
        for name in ["controls", "relevant-group", "itemset-filter", "itext-languages"] {
            let (_, _, rules) = try XFormFixtures.importing(name)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let data = try encoder.encode(rules)
            #expect(try JSONDecoder().decode(XFormRules.self, from: data) == rules, "\(name)")
        }
        let segment = try JSONEncoder().encode(XFormSegment.text("a"))
        #expect(String(decoding: segment, as: UTF8.self) == #"{"text":"a"}"#)
    }
}
