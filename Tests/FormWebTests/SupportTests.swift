import FormModel
import Foundation
import TestSupport
import Testing

@testable import FormPages
@testable import FormStore
@testable import FormWeb

@Suite("Configuration and parsing helpers")
struct SupportTests {
    @Test("resources come from FIELDWORK_RESOURCES, else a current directory with Templates, else the package root")
    func resourceRoot() throws {
        let explicit = ResourceRoot.resolve(
            environment: ["FIELDWORK_RESOURCES": "/srv/fieldwork"], currentDirectory: "/")
        #expect(explicit.url.path == "/srv/fieldwork")
        #expect(explicit.templates.path == "/srv/fieldwork/Templates")

        let packageRoot = ResourceRoot.packageRoot
        let fromCurrent = ResourceRoot.resolve(environment: [:], currentDirectory: packageRoot.path)
        #expect(fromCurrent.url.standardizedFileURL.path == packageRoot.standardizedFileURL.path)

        let fallback = ResourceRoot.resolve(environment: [:], currentDirectory: "/")
        #expect(fallback.url == packageRoot)
        #expect(FileManager.default.fileExists(atPath: fallback.templates.appendingPathComponent("form.mustache").path))
    }

    @Test("the environment sets the data folder and database URL; defaults are ./data and SQLite")
    func configurationFromEnvironment() {
        let defaults = FieldworkConfiguration.fromEnvironment([:])
        #expect(defaults.dataFolder.lastPathComponent == "data")
        #expect(defaults.databaseURL == nil)
        #expect(defaults.sqliteFile.lastPathComponent == "fieldwork.sqlite")
        let set = FieldworkConfiguration.fromEnvironment([
            "FIELDWORK_DATA": "/tmp/fw", "FIELDWORK_DATABASE_URL": "postgres://u@h/db", "LOG_LEVEL": "DEBUG",
        ])
        #expect(set.dataFolder.path == "/tmp/fw")
        #expect(set.databaseURL == "postgres://u@h/db")
        #expect(set.logLevel == .debug)
        #expect(set.secretFile.path == "/tmp/fw/secret.key")
    }

    @Test("the request deadlines come from the environment; a value that is no number stops the server at start")
    func requestDeadlines() async throws {
        let defaults = FieldworkConfiguration.fromEnvironment([:])
        #expect(
            defaults.requestDeadlines == RequestDeadlines(head: .seconds(10), body: .seconds(30), minBodyRate: 1024))
        #expect(defaults.unusableSettings.isEmpty)
        let set = FieldworkConfiguration.fromEnvironment([
            "FIELDWORK_HEAD_TIMEOUT": "2.5", "FIELDWORK_BODY_TIMEOUT": "120", "FIELDWORK_BODY_MIN_RATE": "0",
        ])
        #expect(
            set.requestDeadlines == RequestDeadlines(head: .milliseconds(2500), body: .seconds(120), minBodyRate: 0))
        let bad = FieldworkConfiguration.fromEnvironment([
            "FIELDWORK_HEAD_TIMEOUT": "10s", "FIELDWORK_BODY_TIMEOUT": "-1", "FIELDWORK_BODY_MIN_RATE": "fast",
        ])
        #expect(
            bad.unusableSettings == [
                "FIELDWORK_HEAD_TIMEOUT=10s is not a number of seconds between 0 and 86400, like 10 or 2.5.",
                "FIELDWORK_BODY_TIMEOUT=-1 is not a number of seconds between 0 and 86400, like 10 or 2.5.",
                "FIELDWORK_BODY_MIN_RATE=fast is not a whole number of bytes per second, like 1024.",
            ])
        #expect(bad.requestDeadlines == RequestDeadlines())
        var configuration = Fixtures.configuration(data: Fixtures.temporaryDataFolder())
        configuration.unusableSettings = bad.unusableSettings
        await #expect(throws: FieldworkConfigurationError.self) { _ = try await buildApplication(configuration) }
    }

    @Test("query strings decode plus as space and percent escapes, and keep repeated keys")
    func queryString() {
        let query = QueryString.parse("task=T-1001&q=a+b%26c&tag=x&tag=y&empty=&=skipped&flag")
        #expect(query["task"] == ["T-1001"])
        #expect(query["q"] == ["a b&c"])
        #expect(query["tag"] == ["x", "y"])
        #expect(query["empty"] == [""])
        #expect(query["flag"] == [""])
        #expect(query[""] == nil)
        #expect(QueryString.parse(nil).isEmpty)
    }

    @Test("urlencoded values decode as Foundation's replacingOccurrences and removingPercentEncoding did")
    func queryStringMatchesFoundation() {
        let samples = [
            "", "plain", "a+b", "a%2Bb", "100%", "%", "%4", "%zz", "%41%42", "%e2%82%ac", "%E2%82%AC+euro",
            "%ff", "%C3", "caf%C3%A9", "%25", "a%2", "%%41", "+%20+", "x%0Ay", "%00", "Gr%C3%BC%C3%9Fe%21",
            "ünïcödé+%F0%9F%98%80",
        ]
        for sample in samples {
            let foundation = sample.replacingOccurrences(of: "+", with: " ")
            #expect(QueryString.decode(Substring(sample)) == (foundation.removingPercentEncoding ?? foundation))
        }
    }

    @Test("base64url drops the padding and replaces + and / as the Foundation replacements did")
    func base64URLMatchesFoundation() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<80 {
            let data = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let foundation = data.base64EncodedString()
                .replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(Base64URL.encode(data) == foundation)
            #expect(
                Base64URL.encode(data, padded: true)
                    == data.base64EncodedString()
                    .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_"))
            // Read back with or without its padding.
            #expect(Base64URL.decode(foundation) == Array(data))
            #expect(Base64URL.decode(Base64URL.encode(data, padded: true)) == Array(data))
        }
        // Anything else is no base64url: another alphabet's characters, a misplaced or extra `=`,
        // a length no encoding has.
        for bad in ["ab+c", "ab/c", "a=bc", "abcde", "ab===", "a", "abc=d"] {
            #expect(Base64URL.decode(bad) == nil, "\(bad)")
        }
    }

    @Test("object names are pluralised for the parent page")
    func plurals() {
        #expect(Plural.of("Issue") == "Issues")
        #expect(Plural.of("Entry") == "Entries")
        #expect(Plural.of("Day") == "Days")
        #expect(Plural.of("Box") == "Boxes")
        #expect(Plural.of("Address") == "Addresses")
        #expect(Plural.of("Status") == "Statuses")
        #expect(Plural.of("Analysis") == "Analyses")
        // A name a service already gives in the plural stays as it is.
        #expect(Plural.of("Bookings") == "Bookings")
        #expect(Plural.of("Edm Types") == "Edm Types")
    }

    @Test("the key tables of the plan contexts name every stored property, so Mustache finds each one")
    func contextKeys() throws {
        func expectKeys<Context: KeyPathContext>(_ context: Context) {
            let labels = Set(Mirror(reflecting: context).children.compactMap(\.label))
            #expect(labels == Set(Context.templateKeys.keys), "\(Context.self)")
        }
        let field = Field(
            name: "c", kind: .chips, label: "C",
            options: [OptionGroup(label: "G", options: [Option(value: "a", label: "A")])])
        let schema = Fixtures.schema([field, Field(name: "n", kind: .number, label: "N")])
        let form = PageViewModel.Form(schema, registry: SlotRegistry())
        expectKeys(form)
        expectKeys(form.layout)
        expectKeys(form.parent)
        let section = try #require(form.sections.last)
        expectKeys(section)
        let group = try #require(section.groups.first)
        expectKeys(group)
        let cell = try #require(group.fields.first)
        expectKeys(cell)
        expectKeys(try #require(cell.optionGroups.first))
        expectKeys(try #require(cell.options.first))
        expectKeys(try #require(group.fields.last?.attrs.first))
        let detail = PageViewModel.Detail(schema, registry: SlotRegistry())
        expectKeys(detail)
        let detailSection = try #require(detail.sections.first)
        expectKeys(detailSection)
        let detailGroup = try #require(detailSection.groups.first)
        expectKeys(detailGroup)
        expectKeys(try #require(detailGroup.rows.first))
    }

    @Test("a slot template naming something that is no part is refused when the templates load")
    func unknownSlotPart() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fieldwork-templates-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: ResourceRoot.resolve().templates, to: folder)
        try "<li>{{messsage}}</li>\n".write(
            to: folder.appendingPathComponent("slots/error-item.mustache"), atomically: true, encoding: .utf8)
        await #expect(throws: RenderPlanError.unknownPart(template: "slots/error-item", name: "messsage")) {
            _ = try await PageRenderer(templates: folder)
        }
    }

    @Test("step follows the scale when the spec gives none")
    func steps() {
        #expect(FieldViewModel.step(forScale: 2) == "0.01")
        #expect(FieldViewModel.step(forScale: 0) == "1")
        #expect(FieldViewModel.step(forScale: nil) == "any")
    }
}
