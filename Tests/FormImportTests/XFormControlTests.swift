import Foundation
import Testing

@testable import FormImport
@testable import FormModel

@Suite("XForms: controls become fields")
struct XFormControlTests {
    @Test("each control gets the kind of the Controls table, in document order")
    func kinds() throws {
        let (_, form, _) = try XFormFixtures.importing("controls")
        let kinds = form.allFields.map { "\($0.name) \($0.kind.rawValue)" }
        #expect(
            kinds == [
                "name text", "story note", "pin text", "site text", "age number", "weight number", "month date",
                "feast date", "alarm time", "seen datetime", "where text", "intro text", "bmi number", "size buttons",
                "colour chips", "country value-list", "pick value-list", "fruits chips", "animal value-list",
                "score slider", "photo attachments", "sig attachments", "ack switch",
            ])
        // The key information is the first text-like question; the rest keep their order in properties.
        #expect(form.section(.key)?.groups.flatMap(\.fields).map(\.name) == ["name"])
        #expect(form.section(.properties)?.groups.count == 1)
        #expect(form.section(.properties)?.groups.first?.label == nil)
        // Nothing breaks a rule of every form but the native-only required one.
        #expect(form.ruleViolations().filter { $0.code != .noRequiredField }.isEmpty)
    }

    @Test("inputs take their constraints from type and appearance")
    func inputs() throws {
        let (_, form, _) = try XFormFixtures.importing("controls")
        let name = try #require(form.field(named: "name"))
        #expect(name.required && name.label == "Name" && name.location?.line == 66)
        #expect(form.field(named: "pin")?.constraints.pattern == "[0-9]+")
        #expect(form.field(named: "site")?.constraints.textType == .url)
        #expect(form.field(named: "site")?.defaultValue == "https://example.org")
        #expect(form.field(named: "age")?.constraints.scale == 0)
        #expect(form.field(named: "weight")?.constraints.scale == nil)
        #expect(form.field(named: "pin")?.required == false)
    }

    @Test(
        "a read-only note is text in place; read-only with a calculate shows the value; a hidden calculate is no field")
    func notesAndCalculations() throws {
        let (_, form, rules) = try XFormFixtures.importing("controls")
        let intro = try #require(form.field(named: "intro"))
        #expect(intro.presentation.displayOnly)
        #expect(intro.editable == .no && !intro.required && intro.defaultValue == nil)
        #expect(intro.label == "Welcome" && intro.hint == "Read this first")
        let bmi = try #require(form.field(named: "bmi"))
        #expect(!bmi.presentation.displayOnly && bmi.editable == .no && bmi.kind == .number)
        #expect(form.field(named: "secret_sum") == nil)
        let hidden = try #require(rules.node(at: "/data/secret_sum"))
        #expect(hidden.field == nil && hidden.control == nil && hidden.type == "int")
        #expect(hidden.bind?.calculate?.source == "/data/age + 1")
        // The display-only flag survives the canonical JSON.
        let json = try form.canonicalJSON()
        let back = try FormSchema.fromCanonicalJSON(json)
        #expect(back.field(named: "intro")?.presentation.displayOnly == true)
        #expect(back.field(named: "bmi")?.presentation.displayOnly == false)
        #expect(String(decoding: json, as: UTF8.self).contains(#""displayOnly":true"#))
    }

    @Test("selects are buttons, chips or value lists by option count and appearance")
    func selects() throws {
        let (_, form, _) = try XFormFixtures.importing("controls")
        #expect(
            form.options(for: try #require(form.field(named: "size"))).map(\.label) == ["Small", "Medium", "Large"])
        #expect(form.field(named: "colour")?.options?.first?.options.map(\.value) == ["r", "g", "b", "k"])
        #expect(form.options(for: try #require(form.field(named: "country"))).count == 9)
        let fruits = try #require(form.field(named: "fruits"))
        #expect(fruits.constraints.multiple && fruits.kind == .chips)
        let animal = try #require(form.field(named: "animal"))
        #expect(animal.constraints.multiple && animal.presentation.searchable && animal.kind == .valueList)
        #expect(form.field(named: "pick")?.presentation.searchable == false)
    }

    @Test("range, upload and trigger become slider, attachments and switch")
    func otherControls() throws {
        let (_, form, rules) = try XFormFixtures.importing("controls")
        let score = try #require(form.field(named: "score"))
        #expect(score.constraints.min == "1" && score.constraints.max == "10" && score.constraints.step == "1")
        #expect(score.constraints.scale == 0)
        let photo = try #require(form.field(named: "photo"))
        #expect(photo.constraints.maxCount == 1 && photo.constraints.accept == ["image/*"])
        let ack = try #require(form.field(named: "ack"))
        #expect(ack.required && ack.label == "I agree")
        // The switch stands for the trigger, whose value when on is OK.
        #expect(rules.node(forField: "ack")?.control == "trigger")
    }

    @Test("controls left out and appearances passed over are reported by code")
    func warnings() throws {
        let (result, _, rules) = try XFormFixtures.importing("controls")
        #expect(
            result.warnings(.controlUnsupported) == [
                "The odk:rank question /data/order ('Order') is not supported and was left out.",
                "The question /data/breath ('Breaths') is answered by an external app (appearance ex:change.uw.android.BREATHCOUNT), which is not supported; it was left out.",
            ])
        #expect(rules.node(at: "/data/order")?.leftOut == .control)
        #expect(rules.node(at: "/data/order")?.type == "odk:rank")
        #expect(rules.node(at: "/data/breath")?.leftOut == .control)
        #expect(
            result.warnings(.appearanceIgnored) == [
                "Appearance 'thousands-sep' is presentation only; the kind chosen stands.",
                "Appearance 'likert' is presentation only; the kind chosen stands.",
                "Appearance 'rating' is presentation only; the kind chosen stands.",
                "Appearance 'signature' is not supported: a file is uploaded instead.",
            ])
        #expect(
            result.warnings(.calendarUnsupported) == [
                "The ethiopian calendar is not supported: 1 date question takes a Gregorian date."
            ])
        #expect(
            result.warnings(.geoAsText) == [
                "1 geopoint question is entered as text in ODK's format (lat lon [alt [acc]]): no map."
            ])
        #expect(
            result.warnings(.preloadNotFilled) == [
                "The preload \"property deviceid\" of /data/device is not filled by the server; the node stays empty."
            ])
        #expect(
            result.warnings(.unknownAttribute) == [
                "The attribute k:quality on <bind> is not supported and was ignored."
            ])
        #expect(
            result.warnings(.actionUnsupported) == [
                "The setvalue on /data/pin (event \"xforms-value-changed\") is not supported and was left out; only setvalue on odk-instance-first-load is."
            ])
        #expect(result.warnings.allSatisfy { $0.form == "controls-test" && $0.file == "controls.xml" })
        #expect(result.warnings.count == 11)
    }

    @Test("field names are valid and unique: renamed from invalid node names, disambiguated by their group")
    func names() throws {
        let (result, form, rules) = try XFormFixtures.importing("relevant-group")
        #expect(form.allFields.map(\.name) == ["name", "consent", "age", "phone", "spouse_name"])
        #expect(rules.fieldNames["/visit/spouse/name"] == "spouse_name")
        #expect(rules.fieldNames["/visit/head/name"] == "name")
        #expect(
            result.warnings(.renamedField) == [
                "The question /visit/spouse/name is the field spouse_name (name is the field of an earlier question)."
            ])
        #expect(ImportNames.valid("sel-1.x") == "sel_1_x")
        #expect(ImportNames.valid("été") == "_t_")
    }

    @Test("groups are flattened in document order, Outer – Inner; an unlabelled group makes none")
    func groups() throws {
        let (_, form, rules) = try XFormFixtures.importing("relevant-group")
        #expect(form.section(.key)?.groups.flatMap(\.fields).map(\.name) == ["name"])
        let groups = try #require(form.section(.properties)?.groups)
        #expect(groups.map(\.label) == [nil, "Head of household", "Head of household – Contact", nil])
        #expect(groups.map { $0.fields.map(\.name) } == [["consent"], ["age"], ["phone"], ["spouse_name"]])
        // The unlabelled group's relevant stays in the rules, applying to everything inside.
        let spouse = try #require(rules.node(at: "/visit/spouse"))
        #expect(spouse.isGroup && spouse.control == "group" && spouse.label == nil && spouse.field == nil)
        #expect(spouse.bind?.relevant?.source == "/visit/head/age > 17")
        #expect(rules.node(at: "/visit/head")?.label == .literal("Head of household"))
        #expect(form.field(named: "consent")?.kind == .buttons && form.field(named: "consent")?.defaultValue == "no")
    }
}
