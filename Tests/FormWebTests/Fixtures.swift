import FormImport
import FormModel
import Foundation
import Logging
import NIOCore

@testable import FormPages
@testable import FormStore
@testable import FormWeb

/// Small schemas and helpers shared by the tests.
enum Fixtures {
    /// A required key field so every test form is valid, plus the fields under test in a labelled group.
    static func schema(
        _ fields: [Field], id: String = "test-form", title: String = "New Thing", object: String? = "Thing",
        regular: RegularPresentation = .formSheet, lists: [OptionList] = []
    ) -> FormSchema {
        FormSchema(
            id: id, title: title, object: object, submit: "Create", regular: regular,
            sections: [
                FormSection(
                    kind: .key,
                    groups: [
                        FieldGroup(fields: [Field(name: "title", kind: .text, placeholder: "Title", required: true)])
                    ]),
                FormSection(kind: .properties, groups: [FieldGroup(label: "Details", fields: fields)]),
            ],
            lists: lists)
    }

    static func renderer() async throws -> PageRenderer {
        try await PageRenderer(templates: ResourceRoot.resolve().templates)
    }

    /// The create view's HTML for one request.
    static func render(
        _ schema: FormSchema, query: [String: [String]] = [:], values: [String: [String]]? = nil,
        errors: [FieldError] = [], layout: LayoutMode = .auto, csrf: String = "TOKEN",
        now: Date = Date(timeIntervalSince1970: 1_795_000_000), timeZone: TimeZone = TimeZone(identifier: "UTC")!
    ) async throws -> String {
        let view = try await renderer().formView(for: schema, version: 1)
        let state = RenderState(
            values: values ?? view.form.initialValues(query: query, now: now, timeZone: timeZone),
            errors: errors, csrfToken: csrf, layout: layout)
        return String(buffer: view.render(state))
    }

    /// A fresh data folder per test, so tests never share a database.
    static func temporaryDataFolder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("fieldwork-tests-\(UUID().uuidString)")
    }

    static func configuration(data: URL, seedsDemo: Bool = false) -> FieldworkConfiguration {
        var configuration = FieldworkConfiguration(
            hostname: "127.0.0.1", port: 0, dataFolder: data, resources: .resolve(), logLevel: .warning,
            seedsDemo: seedsDemo)
        // bcrypt's lowest cost: the tests check sign-in, not the work factor.
        configuration.bcryptCost = 4
        configuration.adminPassword = adminPassword
        // The whole suite shares one machine (and, on PostgreSQL, one server): a database call
        // that waits its turn for seconds is slow here, not an outage.
        configuration.databaseDeadlines = .generous
        configuration.readinessTimeout = .seconds(60)
        return configuration
    }

    /// Returns once `condition` holds, asking every few milliseconds: how a test waits for
    /// something another task or the server does, instead of sleeping a guessed time. The bound
    /// (a minute) only ends a test whose condition never comes; a busy machine is far faster.
    static func eventually(
        _ what: String, within bound: Duration = .seconds(60), _ condition: () async throws -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + bound
        while !(try await condition()) {
            guard ContinuousClock.now < deadline else { throw NeverHappened(what: what) }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    struct NeverHappened: Error, CustomStringConvertible {
        let what: String
        var description: String { "still not so after the bound: \(what)" }
    }

    /// The admin password the test configurations set.
    static let adminPassword = "correct horse battery staple"

    static var logger: Logger {
        var logger = Logger(label: "fieldwork-tests")
        logger.logLevel = .warning
        return logger
    }

    static func importResult(_ forms: [FormSchema], source: String = "<form/>") -> ImportResult {
        ImportResult(
            kind: .native, forms: forms, warnings: [],
            sources: [ImportDocument(name: "test.xml", data: Array(source.utf8))])
    }
}
