import Foundation
import Testing

@testable import FormImport
@testable import FormModel
@testable import FormRules

/// Every XForm of `../shared/corpus/xforms` (beside the checkout) imports with no error.
/// Skipped when the corpus is not there.
@Suite("XForms: the corpus", .enabled(if: XFormCorpus.isPresent, "../shared/corpus/xforms is missing"))
struct XFormCorpusTests {
    @Test("every corpus XForm imports with no error, one form with rules each")
    func everyFormImports() throws {
        var summary: [String] = []
        for name in try XFormCorpus.names() {
            let result = try XFormCorpus.importing(name)
            #expect(result.kind == .xforms)
            let form = try #require(result.forms.first, "\(name)")
            #expect(result.forms.count == 1, "\(name)")
            let rules = try #require(result.rules[form.id], "\(name)")
            // Every field stands for a node, and every node with a field is a field of the form, or
            // of the items of its repeat's list.
            let fields = Set(form.allFields.map(\.name))
            let nodeFields = Set(rules.nodes.filter { rules.repeats(around: $0).isEmpty }.compactMap(\.field))
            #expect(fields == nodeFields, "\(name)")
            for node in rules.nodes where node.field != nil && !rules.repeats(around: node).isEmpty {
                #expect(rules.field(of: node, in: form) != nil, "\(name): \(node.path)")
            }
            func itemFields(_ lists: [ItemList]) -> Int {
                lists.reduce(0) { $0 + $1.fields.count + itemFields($1.lists) }
            }
            let lists = form.itemLists.count
            let inLists =
                lists == 0 ? "" : ", \(Words.count(lists, "item list")) (\(itemFields(form.itemLists)) questions)"
            // Nothing but the (native-only) required rule is broken.
            let broken = form.ruleViolations().filter { $0.code != .noRequiredField }
            #expect(broken.isEmpty, "\(name): \(broken.map(\.message))")
            #expect(!rules.primaryInstance.isEmpty)
            var codes: [String: Int] = [:]
            for warning in result.warnings { codes[warning.code.rawValue, default: 0] += warning.count }
            let byCode = codes.keys.sorted().map { "\($0) \(codes[$0]!)" }.joined(separator: ", ")
            summary.append("\(name): \(form.allFields.count) questions\(inLists); \(byCode)")
        }
        print(summary.joined(separator: "\n"))
        #expect(summary.count == 13)
    }

    @Test("every corpus XForm's rules compile, and a submission of its defaults is judged with no evaluation error")
    func everyFormJudges() throws {
        for name in try XFormCorpus.names() {
            let result = try XFormCorpus.importing(name)
            let form = try #require(result.forms.first, "\(name)")
            let rules = try #require(result.rules[form.id], "\(name)")
            let judge = try XFormJudge(rules: rules)
            let verdict = judge.judge([:], host: XFormHost(rules: rules))
            #expect(verdict.errors.isEmpty, "\(name): \(verdict.errors.prefix(5))")
            #expect(verdict.instanceXML.contains(rules.instanceID), "\(name)")
        }
    }
}

/// Three corpus forms checked by hand against their files: labels, kinds, a relevant chain, a
/// constraint message.
@Suite(
    "XForms: three corpus forms, checked by hand",
    .enabled(if: XFormCorpus.isPresent, "../shared/corpus/xforms is missing"))
struct XFormCorpusByHandTests {
    @Test("odk-web-forms 1-validation: labels, kinds, literal and itext messages in two languages")
    func validation() throws {
        let result = try XFormCorpus.importing("odk-web-forms__1-validation.xml")
        let form = try #require(result.forms.first)
        let rules = try #require(result.rules["validation"])
        #expect(form.title == "Validation Form" && rules.version == "20240708154514")
        #expect(
            form.allFields.map { "\($0.name) \($0.kind.rawValue) \($0.label ?? "")" } == [
                "first_name text First Name", "last_name text Last Name", "profession text Profession",
                "favourite_color text Favourite Color", "citizen value-list Citizenships", "age text Age",
            ])
        #expect(form.allFields.map(\.required) == [true, true, true, false, true, true])
        let citizen = try #require(form.field(named: "citizen"))
        #expect(citizen.constraints.multiple)
        #expect(form.options(for: citizen).map(\.label) == ["Pakistan", "Canada", "USA"])
        #expect(rules.translations.languages == ["default", "Urdu (ur)"])
        #expect(rules.translations.defaultLanguage == "default")
        let age = try #require(rules.node(at: "/data/age")?.bind)
        #expect(age.constraint?.source == ". > 18 and . < 100")
        #expect(age.constraintMessage == .literal("Age has to be between 18 and 100"))
        let citizenBind = try #require(rules.node(at: "/data/citizen")?.bind)
        #expect(citizenBind.constraint?.source == "count-selected(.) = 2")
        let message = try #require(citizenBind.constraintMessage)
        #expect(message == XFormText(itext: "/data/citizen:jr:constraintMsg"))
        #expect(message.segments(in: rules.translations) == [.text("It has to be two")])
        #expect(message.segments(in: rules.translations, language: "Urdu (ur)") == [.text("صرف دو ہی ہوسکتی ہیں")])
        #expect(
            rules.node(at: "/data/profession")?.bind?.requiredMessage
                == XFormText(itext: "/data/profession:jr:requiredMsg"))
        #expect(rules.node(at: "/data/meta/instanceID")?.preload == XFormPreload(preload: "uid"))
        #expect(result.warnings.isEmpty)
    }

    @Test("enketo relevant_constraint_required: a relevant chain into a repeat, its item list judging each item")
    func relevantConstraintRequired() throws {
        let result = try XFormCorpus.importing("enketo-transformer__relevant_constraint_required.xml")
        let form = try #require(result.forms.first)
        let rules = try #require(result.rules["relevant-constraint-required"])
        #expect(form.allFields.map(\.name) == ["something"])
        let something = try #require(form.field(named: "something"))
        #expect(something.label == "something with a relevant that will be cached" && something.required)
        let bind = try #require(rules.node(at: "/relevant-constraint-required/something")?.bind)
        #expect(bind.relevant?.source == "1 + 1 = 2")
        #expect(bind.constraint?.source == "string-length(.) > 10")
        #expect(bind.constraintMessage == .literal("needs > 10"))
        #expect(bind.requiredMessage == .literal("value needed"))
        // The chain: rep is relevant on something; skipq on rep/val.
        #expect(
            rules.node(at: "/relevant-constraint-required/rep")?.bind?.relevant?.source
                == " /relevant-constraint-required/something  != ''")
        let skipq = try #require(rules.node(at: "/relevant-constraint-required/rep/skipq"))
        #expect(skipq.bind?.relevant?.source == " /relevant-constraint-required/rep/val  = 'diarrhea'")
        // The repeat is an item list now; its relevance reads its own item's val.
        #expect(skipq.type == "int" && skipq.leftOut == nil && skipq.field == "skipq")
        #expect(skipq.bind?.relevant?.compiled == "current()/../val = 'diarrhea'")
        #expect(form.itemList(named: "rep")?.fields.map(\.name) == ["val", "skipq"])
        #expect(result.warnings(.repeatUnsupported).isEmpty)
        #expect(result.warnings.filter { $0.code == .unknownAttribute }.map(\.count) == [3])
        #expect(
            rules.node(at: "/relevant-constraint-required/meta/instanceID")?.bind?.calculate?.source
                == "concat('uuid:', uuid())")
    }

    @Test("odk-web-forms date-and-time: Spanish by default, date kinds, a relevant chain and a dynamic readonly")
    func dateAndTime() throws {
        let result = try XFormCorpus.importing("odk-web-forms__date-and-time.xml")
        let form = try #require(result.forms.first)
        let rules = try #require(result.rules["date"])
        #expect(rules.translations.languages == ["English (en)", "French (fr)", "Spanish (es)"])
        #expect(rules.translations.defaultLanguage == "Spanish (es)")
        #expect(
            form.allFields.map { "\($0.name) \($0.kind.rawValue)" } == [
                "survey_date date", "date_of_birth date", "fruits_date date", "vegetables_date date", "time time",
                "last_full_meal datetime",
            ])
        #expect(form.field(named: "fruits_date")?.label == "¿Cuando fué la ultima vez que comió frutas?")
        #expect(rules.node(at: "/data/dates/date_of_birth")?.appearance == "month-year")
        for path in ["/data/dates/fruits_date", "/data/dates/vegetables_date"] {
            #expect(rules.node(at: path)?.bind?.relevant?.source == " /data/dates/date_of_birth  != \"\"")
        }
        // A readonly that is an expression leaves the field editable; the server judges it.
        #expect(form.field(named: "vegetables_date")?.editable == .yes)
        #expect(
            rules.node(at: "/data/dates/vegetables_date")?.bind?.readonly?.source
                == "/data/dates/date_of_birth <= today()")
        // The time default as ODK tools write it, its milliseconds and offset kept.
        #expect(form.field(named: "time")?.defaultValue == "22:02:10.562+07:00")
        #expect(rules.primaryInstance.contains("<time>22:02:10.562+07:00</time>"))
        #expect(result.warnings.map(\.code) == [.appearanceIgnored])
    }
}

/// The corpus's XForms.
enum XFormCorpus {
    static let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appending(path: "shared/corpus/xforms")

    static var isPresent: Bool { FileManager.default.fileExists(atPath: root.path) }

    static func names() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".xml") }.sorted()
    }

    static func importing(_ name: String) throws -> ImportResult {
        let data = try Data(contentsOf: root.appending(path: name))
        return try FormImporter.importDocuments([ImportDocument(name: name, data: Array(data))])
    }
}
